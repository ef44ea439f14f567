/** What the API answers when its database fails under it: the error shape, never a hang or a crash. */
import { expect } from "chai";
import { expectRefusal, pgliteKind, seededDatabase, serveApi } from "./api-helpers";
import { NAMED, T0 } from "./fixture-rows";

describe("explorer API when the database fails", () => {
  it("answers 500 in the error shape with the cause, and keeps serving what needs no database", async function () {
    this.timeout(60_000);
    const db = await seededDatabase(pgliteKind());
    const served = await serveApi(db, () => T0 + 86_400_000 * 30);
    try {
      expect((await served.get(`/v2/transactions/${NAMED.pay1.id}`)).status).to.equal(200);
      await db.close();
      expectRefusal(await served.get(`/v2/transactions/${NAMED.pay1.id}`), 500, "internal error");
      expect((await served.get("/v2")).status).to.equal(200);
      expectRefusal(await served.get("/v2/transactions?limit=0"), 400, "limit");
    } finally {
      await served.close();
    }
  });
});
