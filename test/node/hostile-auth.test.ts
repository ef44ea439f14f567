/**
 * Hostile input against the auth of `--api-auth-required` (issue 26, items 2, 7 and 8): tokens
 * respelled to slip past revocation, tokens without an expiry, tokens whose endpoints open more
 * than they name. Each test is an attack that worked before the fix.
 *
 * Forged tokens are signed with the authority's own key (as anyone who reads it could), so the
 * only thing that refuses them is the rule under test.
 */
import { expect } from "chai";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SignJWT } from "jose";

import { AuthError } from "../../src/node/auth/errors";
import { ApiAuthority } from "../../src/node/auth/tokens";
import { INDEX_PATHS, PATHS } from "../../src/network/paths";
import { bearer, startManagedNode, type HttpAnswer, type ManagedNode } from "../helpers/managed-node";
import { refusalOf } from "../helpers/refusal";

const PASSWORD = "raccoon-velvet-42";
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Every path the node serves an API at, plus the platform chain's. */
const EVERY_PATH = [...Object.values(PATHS).filter((p) => p !== PATHS.auth), ...Object.values(INDEX_PATHS), "/ext/bc/P"];

/**
 * The token with its signature's last character replaced by another of the same base64 group:
 * a 32-byte signature is 43 characters whose last one carries 4 bits and 2 unused ones, so the
 * neighbour differing only in the unused bits decodes to the same bytes.
 */
function respelled(token: string): string {
  const last = BASE64URL.indexOf(token.slice(-1));
  expect(last, "the signature ends with a base64url character").to.be.greaterThan(-1);
  const other = BASE64URL[last ^ 1]!;
  expect(Buffer.from(`${token.split(".")[2]!.slice(0, -1)}${other}`, "base64url")).to.deep.equal(Buffer.from(token.split(".")[2]!, "base64url"));
  return `${token.slice(0, -1)}${other}`;
}

/** The token with its signature padded with `=`, which a lenient base64 decoder ignores. */
const padded = (token: string): string => `${token}=`;

describe("hostile auth tokens (--api-auth-required)", function () {
  this.timeout(120_000);

  describe("over HTTP", () => {
    let n: ManagedNode;

    const newToken = async (endpoints: unknown): Promise<string> => {
      const { body } = await n.post("/ext/auth", "auth.newToken", { password: PASSWORD, endpoints });
      if (body.error !== undefined) throw new Error(body.error.message);
      return (body.result as { token: string }).token;
    };
    const revoke = async (token: string): Promise<void> => {
      const { body } = await n.post("/ext/auth", "auth.revokeToken", { password: PASSWORD, token });
      expect(body.error).to.equal(undefined);
    };
    const info = (token: string): Promise<HttpAnswer> => n.post("/ext/info", "info.getNetworkID", {}, bearer(token));

    describe("on a node without a data directory", () => {
      before(async () => {
        n = await startManagedNode({ apiAuthRequired: true, apiAuthPassword: PASSWORD });
      });
      after(async () => {
        await n.close();
      });

      it("a revoked token whose signature's last character is respelled within its base64 group is refused", async () => {
        const token = await newToken(["*"]);
        await revoke(token);
        expect((await info(respelled(token))).status).to.equal(401);
      });

      it("a revoked token with '=' appended to its signature is refused", async () => {
        const token = await newToken(["*"]);
        await revoke(token);
        expect((await info(padded(token))).status).to.equal(401);
      });

      it("a valid, unrevoked token with '=' appended to its signature is refused as not canonical", async () => {
        const token = await newToken(["*"]);
        expect((await info(token)).status).to.equal(200);
        const answer = await info(padded(token));
        expect(answer.status).to.equal(401);
        expect(answer.body.error?.message).to.match(/not canonical/);
      });

      it("auth.newToken refuses an empty endpoint, naming it", async () => {
        const { status, body } = await n.post("/ext/auth", "auth.newToken", { password: PASSWORD, endpoints: ["/ext/info", ""] });
        expect(status).to.equal(200);
        expect(body.error?.code).to.equal(-32000);
        expect(body.error?.message).to.equal('endpoint 2 of 2 is empty (""): name a path such as "/ext/info", or "*" for every path');
      });

      it("an endpoint opens only the path equal to it, not every path it is a suffix of", async () => {
        const token = await newToken(["info", "C/rpc"]);
        expect((await info(token)).status).to.equal(401);
        expect((await n.post("/ext/bc/C/rpc", "eth_chainId", [], bearer(token))).status).to.equal(401);
      });

      it("an endpoint with a trailing slash opens the path it names", async () => {
        const token = await newToken(["/ext/info/"]);
        expect((await info(token)).status).to.equal(200);
      });
    });

    describe("on a node restarted with --db-dir", () => {
      let dir: string;
      beforeEach(async () => {
        dir = await fs.mkdtemp(path.join(os.tmpdir(), "nativekit-hostile-auth-"));
      });
      afterEach(async () => {
        await fs.rm(dir, { recursive: true, force: true });
      });

      it("a revoked token stays refused in every spelling after a restart", async () => {
        n = await startManagedNode({ apiAuthRequired: true, apiAuthPassword: PASSWORD, dbDir: dir });
        try {
          const token = await newToken(["*"]);
          await revoke(token);
          await n.close();
          n = await startManagedNode({ apiAuthRequired: true, apiAuthPassword: PASSWORD, dbDir: dir });
          for (const spelling of [token, respelled(token), padded(token)]) {
            expect((await info(spelling)).status, spelling).to.equal(401);
          }
        } finally {
          await n.close();
        }
      });
    });
  });

  describe("on the authority (tokens.ts)", () => {
    let authority: ApiAuthority;
    before(async () => {
      authority = await ApiAuthority.create(PASSWORD);
    });

    /** A token signed with the authority's key, carrying exactly `claims`. */
    const forged = (claims: Record<string, unknown>): Promise<string> =>
      new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(authority.state.password.key);
    const inAMinute = () => Math.floor(Date.now() / 1000) + 60;
    const refusal = async (promise: Promise<unknown>): Promise<string> => (await refusalOf(promise, AuthError)).message;

    it("a token with endpoints [\"\"] is refused on every path", async () => {
      const token = await forged({ exp: inAMinute(), jti: "forged-empty", endpoints: [""] });
      for (const p of EVERY_PATH) {
        expect(await refusal(authority.authorize(p, `Bearer ${token}`)), p).to.equal('the token names an empty endpoint (endpoint 1 of 1)');
      }
    });

    it("a token with an empty endpoint beside '*' is refused", async () => {
      const token = await forged({ exp: inAMinute(), jti: "forged-star", endpoints: ["*", ""] });
      expect(await refusal(authority.authorize(PATHS.info, `Bearer ${token}`))).to.equal('the token names an empty endpoint (endpoint 2 of 2)');
    });

    it("a token without exp is refused", async () => {
      const token = await forged({ jti: "forged-no-exp", endpoints: ["*"] });
      expect(await refusal(authority.authorize(PATHS.info, `Bearer ${token}`))).to.equal('token has no expiry: its "exp" claim is missing');
    });

    it("a token without jti is refused: it could not be revoked", async () => {
      const token = await forged({ exp: inAMinute(), endpoints: ["*"] });
      expect(await refusal(authority.authorize(PATHS.info, `Bearer ${token}`))).to.equal('token has no identity: its "jti" claim is missing');
    });

    it("a token signed correctly but with its signature padded with '=' is refused", async () => {
      const token = await forged({ exp: inAMinute(), jti: "forged-padded", endpoints: ["*"] });
      await authority.authorize(PATHS.info, `Bearer ${token}`);
      expect(await refusal(authority.authorize(PATHS.info, `Bearer ${padded(token)}`))).to.equal(
        "token is malformed: its signature is not canonical base64url",
      );
    });

    it("a token whose payload is respelled in base64url is refused, not only by its signature", async () => {
      const token = await forged({ exp: inAMinute(), jti: "forged-payload", endpoints: ["*"] });
      const [header, payload, signature] = token.split(".");
      expect(await refusal(authority.authorize(PATHS.info, `Bearer ${header}.${payload}=.${signature}`))).to.equal(
        "token is malformed: its payload is not canonical base64url",
      );
    });

    it("revocations kept as whole tokens by an earlier version are kept by jti and still refuse their tokens", async () => {
      const token = await authority.newToken(PASSWORD, ["*"]);
      const { jti } = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as { jti: string };
      const restored = ApiAuthority.restore({ password: authority.state.password, revoked: [token, "kept-jti"] });
      expect(restored.state.revoked).to.deep.equal([jti, "kept-jti"]);
      expect(await refusal(restored.authorize(PATHS.info, `Bearer ${token}`))).to.equal("the provided auth token was revoked");
    });
  });
});
