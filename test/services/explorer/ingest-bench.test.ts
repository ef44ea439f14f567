import { expect } from "chai";
import { generateTransactions, measureIngest, measureLatency, startIndexingNode, type IndexingNode } from "../../../bench/explorer";

/** The explorer benchmark (`npm run bench -- explorer`) at CI size: 200 transactions. */
describe("explorer bench at CI size: 200 transactions indexed from scratch", function () {
  this.timeout(180_000);
  let node: IndexingNode;
  before(async () => {
    node = await startIndexingNode();
  });
  after(async () => node?.close());

  it("indexes every container the node accepted and answers /status under 20 clients", async () => {
    const made = await generateTransactions(node.url, 200);
    expect(made).to.deep.equal({ x: 100, c: 100 });
    const { measure, server } = await measureIngest(node.url);
    try {
      // X sends: one container each; C transfers: one or more blocks hold them.
      expect(measure.containers).to.be.at.least(101).and.at.most(201);
      const [{ n }] = (await server.service.database.query("SELECT count(*)::int AS n FROM c_transactions")) as [{ n: number }];
      expect(n).to.equal(100);
      const latency = await measureLatency(server.url, "/status", 20, 100);
      expect(latency.requests).to.equal(100);
    } finally {
      await server.close();
    }
  });
});
