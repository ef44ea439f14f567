import { expect } from "chai";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

import { NodeChains } from "../../src/node/node-chains";
import { bearer, startManagedNode, type HttpAnswer, type ManagedNode } from "../helpers/managed-node";

const PASSWORD = "raccoon-velvet-42";
const NEW_PASSWORD = "gravel-lantern-Oak-9";
const TWELVE_HOURS_MS = 12 * 60 * 60 * 1000;

/** The body of a request the token check refused, as the reference node writes it. */
const refused = (message: string) => ({ jsonrpc: "2.0", error: { code: -32600, message }, id: 1 });

function decodePart(part: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>;
}

describe("auth API (/ext/auth) and the token check of --api-auth-required", function () {
  this.timeout(120_000);
  let now: Date;
  let n: ManagedNode;

  const newToken = async (endpoints: unknown, password = PASSWORD): Promise<string> => {
    const { body } = await n.post("/ext/auth", "auth.newToken", { password, endpoints });
    if (body.error !== undefined) throw new Error(body.error.message);
    return (body.result as { token: string }).token;
  };
  const expectRefused = (answer: HttpAnswer, message: string) => {
    expect(answer.status).to.equal(401);
    expect(answer.contentType).to.equal("application/json");
    expect(answer.body).to.deep.equal(refused(message));
  };
  const expectRpcError = (answer: HttpAnswer, message: string) => {
    expect(answer.status).to.equal(200);
    expect(answer.body.error).to.deep.include({ code: -32000, message });
  };

  describe("on a node started with it", () => {
    before(async () => {
      now = new Date();
      n = await startManagedNode({ apiAuthRequired: true, apiAuthPassword: PASSWORD, clock: () => now });
    });
    after(async () => {
      await n.close();
    });
    afterEach(() => {
      now = new Date();
    });

    it("refuses a request without the Authorization header with 401: auth token not provided", async () => {
      expectRefused(await n.post("/ext/info", "info.getNetworkID"), "auth token not provided");
    });

    it("refuses an Authorization header that is not 'Bearer <token>'", async () => {
      const message = 'couldn\'t parse auth token. Header "Authorization" should be "Bearer TOKEN.GOES.HERE"';
      expectRefused(await n.post("/ext/info", "info.getNetworkID", {}, { authorization: "Basic abc" }), message);
      expectRefused(await n.post("/ext/info", "info.getNetworkID", {}, { authorization: "Bearer a b" }), message);
    });

    it("never asks a token of /ext/auth itself", async () => {
      const { status, body } = await n.post("/ext/auth", "auth.newToken", { password: PASSWORD, endpoints: ["*"] });
      expect(status).to.equal(200);
      expect(body.result).to.have.property("token").that.is.a("string");
    });

    it("newToken makes an HS256 JWT with exp 12 hours ahead, a 20-byte base64url jti and the endpoints", async () => {
      const token = await newToken(["/ext/info", "/ext/bc/X"]);
      const [header, claims, signature] = token.split(".");
      expect(decodePart(header!)).to.deep.equal({ alg: "HS256", typ: "JWT" });
      const payload = decodePart(claims!);
      expect(Object.keys(payload)).to.deep.equal(["exp", "jti", "endpoints"]);
      expect(payload.exp).to.equal(Math.floor(now.getTime() / 1000) + 12 * 60 * 60);
      expect(Buffer.from(payload.jti as string, "base64url")).to.have.length(20);
      expect(payload.endpoints).to.deep.equal(["/ext/info", "/ext/bc/X"]);
      expect(Buffer.from(signature!, "base64url")).to.have.length(32);
    });

    it("newToken collapses endpoints holding '*' to ['*']", async () => {
      const token = await newToken(["/ext/info", "*", "/ext/bc/X"]);
      expect(decodePart(token.split(".")[1]!).endpoints).to.deep.equal(["*"]);
    });

    it("a token for '*' opens every path", async () => {
      const token = await newToken(["*"]);
      expect((await n.post("/ext/info", "info.getNetworkID", {}, bearer(token))).body.result).to.deep.equal({ networkID: "12345" });
      expect((await n.post("/ext/bc/C/rpc", "eth_chainId", [], bearer(token))).body.result).to.equal("0xa868");
      expect((await n.post("/ext/keystore", "keystore.listUsers", {}, bearer(token))).status).to.equal(200);
    });

    it("an endpoint grants the path it names", async () => {
      const token = await newToken(["/ext/info", "/ext/bc/C/rpc"]);
      expect((await n.post("/ext/info", "info.getNetworkID", {}, bearer(token))).status).to.equal(200);
      expect((await n.post("/ext/bc/C/rpc", "eth_chainId", [], bearer(token))).status).to.equal(200);
    });

    it("refuses a path none of the token's endpoints names", async () => {
      const token = await newToken(["/ext/info"]);
      const message = "the provided auth token does not allow access to this endpoint";
      expectRefused(await n.post("/ext/keystore", "keystore.listUsers", {}, bearer(token)), message);
      expectRefused(await n.post("/ext/bc/C/rpc", "eth_chainId", [], bearer(token)), message);
    });

    it("checks the token before looking the path up: an unknown path without a token is 401", async () => {
      expectRefused(await n.post("/ext/nothing-here", "x.y"), "auth token not provided");
    });

    it("checks GET requests too (GET /ext/health)", async () => {
      expectRefused(await n.get("/ext/health"), "auth token not provided");
      const token = await newToken(["/ext/health"]);
      expect((await n.get("/ext/health", bearer(token))).status).to.equal(200);
    });

    it("answers CORS preflights without a token", async () => {
      const response = await fetch(`${n.url}/ext/info`, { method: "OPTIONS", headers: { origin: "http://wallet.test", "access-control-request-method": "POST" } });
      expect(response.status).to.equal(204);
      expect(response.headers.get("access-control-allow-origin")).to.equal("*");
    });

    it("newToken with a wrong password is refused: incorrect password", async () => {
      expectRpcError(await n.post("/ext/auth", "auth.newToken", { password: "not-the-password-1", endpoints: ["*"] }), "incorrect password");
    });

    it("newToken without endpoints is refused: must name at least one endpoint", async () => {
      expectRpcError(await n.post("/ext/auth", "auth.newToken", { password: PASSWORD, endpoints: [] }), "must name at least one endpoint");
    });

    it("newToken with 129 endpoints is refused; 128 are fine", async () => {
      const many = Array.from({ length: 129 }, (_, i) => `/ext/e${i}`);
      expectRpcError(await n.post("/ext/auth", "auth.newToken", { password: PASSWORD, endpoints: many }), "can only name at most 128 endpoints");
      expect(await newToken(many.slice(0, 128))).to.be.a("string");
    });

    it("newToken with endpoints that are not strings is refused with -32602", async () => {
      const { body } = await n.post("/ext/auth", "auth.newToken", { password: PASSWORD, endpoints: "*" });
      expect(body.error?.code).to.equal(-32602);
      expect(body.error?.message).to.include("endpoints must be an array of strings");
    });

    it("a revoked token is refused: the provided auth token was revoked", async () => {
      const token = await newToken(["*"]);
      const { body } = await n.post("/ext/auth", "auth.revokeToken", { password: PASSWORD, token });
      expect(body.result).to.deep.equal({ success: true });
      expectRefused(await n.post("/ext/info", "info.getNetworkID", {}, bearer(token)), "the provided auth token was revoked");
    });

    it("revoking a token twice succeeds both times", async () => {
      const token = await newToken(["*"]);
      for (let i = 0; i < 2; i++) {
        expect((await n.post("/ext/auth", "auth.revokeToken", { password: PASSWORD, token })).body.result).to.deep.equal({ success: true });
      }
    });

    it("revoking an invalid token does nothing and succeeds (the seed's rule)", async () => {
      for (const token of ["not-a-token", "a.b.c", ""]) {
        expect((await n.post("/ext/auth", "auth.revokeToken", { password: PASSWORD, token })).body.result, token).to.deep.equal({ success: true });
      }
    });

    it("revokeToken with a wrong password is refused and leaves the token valid", async () => {
      const token = await newToken(["*"]);
      expectRpcError(await n.post("/ext/auth", "auth.revokeToken", { password: "not-the-password-1", token }), "incorrect password");
      expect((await n.post("/ext/info", "info.getNetworkID", {}, bearer(token))).status).to.equal(200);
    });

    it("a token is refused once its 12 hours are over: token is expired", async () => {
      const token = await newToken(["*"]);
      now = new Date(now.getTime() + TWELVE_HOURS_MS - 1000);
      expect((await n.post("/ext/info", "info.getNetworkID", {}, bearer(token))).status).to.equal(200);
      now = new Date(now.getTime() + 2000);
      expectRefused(await n.post("/ext/info", "info.getNetworkID", {}, bearer(token)), "token is expired");
    });

    it("a token without three segments is refused: token contains an invalid number of segments", async () => {
      const token = await newToken(["*"]);
      const twoSegments = token.split(".").slice(0, 2).join(".");
      expectRefused(await n.post("/ext/info", "info.getNetworkID", {}, bearer(twoSegments)), "token contains an invalid number of segments");
    });

    it("a token whose claims were changed is refused: signature is invalid", async () => {
      const token = await newToken(["/ext/info"]);
      const [header, claims, signature] = token.split(".");
      const forged = Buffer.from(JSON.stringify({ ...decodePart(claims!), endpoints: ["*"] })).toString("base64url");
      expectRefused(await n.post("/ext/keystore", "keystore.listUsers", {}, bearer(`${header}.${forged}.${signature}`)), "signature is invalid");
    });

    it("a token signed with another key is refused: signature is invalid", async () => {
      const other = await startManagedNode({ apiAuthRequired: true, apiAuthPassword: PASSWORD });
      try {
        const { body } = await other.post("/ext/auth", "auth.newToken", { password: PASSWORD, endpoints: ["*"] });
        const foreign = (body.result as { token: string }).token;
        expectRefused(await n.post("/ext/info", "info.getNetworkID", {}, bearer(foreign)), "signature is invalid");
      } finally {
        await other.close();
      }
    });
  });

  describe("auth.changePassword", () => {
    beforeEach(async () => {
      now = new Date();
      n = await startManagedNode({ apiAuthRequired: true, apiAuthPassword: PASSWORD, clock: () => now });
    });
    afterEach(async () => {
      await n.close();
    });

    it("answers {success: true} and invalidates every token made before: signature is invalid", async () => {
      const token = await newToken(["*"]);
      const { body } = await n.post("/ext/auth", "auth.changePassword", { oldPassword: PASSWORD, newPassword: NEW_PASSWORD });
      expect(body.result).to.deep.equal({ success: true });
      expectRefused(await n.post("/ext/info", "info.getNetworkID", {}, bearer(token)), "signature is invalid");
    });

    it("makes the new password the one tokens are made with, and the old one incorrect", async () => {
      await n.post("/ext/auth", "auth.changePassword", { oldPassword: PASSWORD, newPassword: NEW_PASSWORD });
      expectRpcError(await n.post("/ext/auth", "auth.newToken", { password: PASSWORD, endpoints: ["*"] }), "incorrect password");
      const token = await newToken(["*"], NEW_PASSWORD);
      expect((await n.post("/ext/info", "info.getNetworkID", {}, bearer(token))).status).to.equal(200);
    });

    it("refuses the same password, before checking the old one", async () => {
      const message = "new password can't be same as old password";
      expectRpcError(await n.post("/ext/auth", "auth.changePassword", { oldPassword: PASSWORD, newPassword: PASSWORD }), message);
      expectRpcError(await n.post("/ext/auth", "auth.changePassword", { oldPassword: NEW_PASSWORD, newPassword: NEW_PASSWORD }), message);
    });

    it("refuses a wrong old password, before checking the new one", async () => {
      expectRpcError(await n.post("/ext/auth", "auth.changePassword", { oldPassword: "not-the-password-1", newPassword: "weak" }), "incorrect password");
    });

    it("refuses an empty new password", async () => {
      expectRpcError(await n.post("/ext/auth", "auth.changePassword", { oldPassword: PASSWORD, newPassword: "" }), "empty password");
    });

    it("refuses a new password over 1024 characters", async () => {
      const long = `${NEW_PASSWORD}${"x".repeat(1025)}`;
      expectRpcError(await n.post("/ext/auth", "auth.changePassword", { oldPassword: PASSWORD, newPassword: long }), "password exceeds maximum length of 1024 chars");
    });

    it("refuses a weak new password (zxcvbn score below 2)", async () => {
      expectRpcError(await n.post("/ext/auth", "auth.changePassword", { oldPassword: PASSWORD, newPassword: "password" }), "password is too weak");
    });

    it("clears the revoked list: a token revoked before stays invalid by its old signature", async () => {
      const token = await newToken(["*"]);
      await n.post("/ext/auth", "auth.revokeToken", { password: PASSWORD, token });
      await n.post("/ext/auth", "auth.changePassword", { oldPassword: PASSWORD, newPassword: NEW_PASSWORD });
      expectRefused(await n.post("/ext/info", "info.getNetworkID", {}, bearer(token)), "signature is invalid");
    });
  });

  describe("starting the node", () => {
    it("without --api-auth-required, /ext/auth is not served (404) and no path needs a token", async () => {
      n = await startManagedNode();
      try {
        const answer = await n.post("/ext/auth", "auth.newToken", { password: PASSWORD, endpoints: ["*"] });
        expect(answer.status).to.equal(404);
        expect((await n.post("/ext/info", "info.getNetworkID")).body.result).to.deep.equal({ networkID: "12345" });
      } finally {
        await n.close();
      }
    });

    it("refuses a weak password: API auth password is not strong enough", async () => {
      let error: unknown;
      await NodeChains.create({ management: { apiAuthRequired: true, apiAuthPassword: "password" } }).catch((e: unknown) => (error = e));
      expect((error as Error).message).to.equal("API auth password is not strong enough");
    });

    it("reads the password from --api-auth-password-file, trimmed", async () => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), "nativekit-auth-"));
      try {
        const file = path.join(dir, "password.txt");
        await fs.writeFile(file, `  ${PASSWORD}\n`);
        n = await startManagedNode({ apiAuthRequired: true, apiAuthPasswordFile: file });
        try {
          expect(await newToken(["*"])).to.be.a("string");
        } finally {
          await n.close();
        }
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    });

    it("refuses --api-auth-required without a password file", async () => {
      let error: unknown;
      await NodeChains.create({ management: { apiAuthRequired: true } }).catch((e: unknown) => (error = e));
      expect((error as Error).message).to.equal("--api-auth-required needs --api-auth-password-file");
    });
  });

  describe("in the node's data directory (--db-dir)", () => {
    let dir: string;
    beforeEach(async () => {
      dir = await fs.mkdtemp(path.join(os.tmpdir(), "nativekit-auth-db-"));
    });
    afterEach(async () => {
      await fs.rm(dir, { recursive: true, force: true });
    });
    const restart = async (password = PASSWORD) => {
      await n.close();
      n = await startManagedNode({ apiAuthRequired: true, apiAuthPassword: password, dbDir: dir });
    };

    it("keeps a token made before a restart valid", async () => {
      n = await startManagedNode({ apiAuthRequired: true, apiAuthPassword: PASSWORD, dbDir: dir });
      try {
        const token = await newToken(["*"]);
        await restart();
        expect((await n.post("/ext/info", "info.getNetworkID", {}, bearer(token))).status).to.equal(200);
      } finally {
        await n.close();
      }
    });

    it("keeps a revoked token revoked across a restart", async () => {
      n = await startManagedNode({ apiAuthRequired: true, apiAuthPassword: PASSWORD, dbDir: dir });
      try {
        const token = await newToken(["*"]);
        await n.post("/ext/auth", "auth.revokeToken", { password: PASSWORD, token });
        await restart();
        expectRefused(await n.post("/ext/info", "info.getNetworkID", {}, bearer(token)), "the provided auth token was revoked");
      } finally {
        await n.close();
      }
    });

    it("keeps a password changed with auth.changePassword across a restart with the same password file", async () => {
      n = await startManagedNode({ apiAuthRequired: true, apiAuthPassword: PASSWORD, dbDir: dir });
      try {
        await n.post("/ext/auth", "auth.changePassword", { oldPassword: PASSWORD, newPassword: NEW_PASSWORD });
        await restart();
        expectRpcError(await n.post("/ext/auth", "auth.newToken", { password: PASSWORD, endpoints: ["*"] }), "incorrect password");
        expect(await newToken(["*"], NEW_PASSWORD)).to.be.a("string");
      } finally {
        await n.close();
      }
    });

    it("starts over from a changed password file: its password rules and earlier tokens are invalid", async () => {
      n = await startManagedNode({ apiAuthRequired: true, apiAuthPassword: PASSWORD, dbDir: dir });
      try {
        const token = await newToken(["*"]);
        await n.post("/ext/auth", "auth.changePassword", { oldPassword: PASSWORD, newPassword: NEW_PASSWORD });
        const third = "copper-Meadow-lantern-77";
        await restart(third);
        expectRefused(await n.post("/ext/info", "info.getNetworkID", {}, bearer(token)), "signature is invalid");
        expect(await newToken(["*"], third)).to.be.a("string");
      } finally {
        await n.close();
      }
    });
  });
});
