/**
 * The rules of the auth API's tokens and password, stated on the modules themselves
 * (`src/node/auth/tokens.ts`, `src/node/auth/password.ts`) rather than through HTTP:
 * which paths need no token, how endpoints match, what a token's claims must hold,
 * when it expires, and the password's length and strength boundaries.
 */
import { expect } from "chai";
import { SignJWT } from "jose";

import { AuthError } from "../../src/node/auth/errors";
import { MAX_AUTH_PASSWORD_LENGTH, PasswordHash, checkNewPassword, isStrongEnough } from "../../src/node/auth/password";
import { ApiAuthority, TOKEN_LIFETIME_SECONDS, isAuthExempt, type AuthorityState } from "../../src/node/auth/tokens";
import { refusalOf, syncRefusalOf } from "../helpers/refusal";

const PASSWORD = "raccoon-velvet-42";
/** A whole second, so `exp` is exactly {@link TOKEN_LIFETIME_SECONDS} after it. */
const T0 = new Date("2026-01-01T00:00:00.000Z");

/** The AuthError message `promise` is rejected with (fails if it resolves or rejects otherwise). */
const refusal = async (promise: Promise<unknown>): Promise<string> => (await refusalOf(promise, AuthError)).message;

/** The message `fn` throws an AuthError with. */
const thrown = (fn: () => void): string => syncRefusalOf(fn, AuthError).message;

describe("auth rules (tokens.ts and password.ts)", function () {
  this.timeout(120_000);
  let now: Date;
  let clock: () => Date;
  let authority: ApiAuthority;

  /** A token signed with the authority's key, with claims of our choosing. */
  const forged = (claims: Record<string, unknown>): Promise<string> =>
    new SignJWT({ exp: Math.floor(now.getTime() / 1000) + 60, jti: "forged", ...claims })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .sign(authority.state.signingKey);

  before(async () => {
    now = T0;
    clock = () => now;
    authority = await ApiAuthority.create(PASSWORD, () => clock());
  });
  afterEach(() => {
    now = T0;
    clock = () => now;
  });

  describe("paths exempt from the token check (last segment `auth`)", () => {
    it("/ext/auth is exempt", () => {
      expect(isAuthExempt("/ext/auth")).to.equal(true);
    });

    it("/ext/auth/ is exempt: empty segments are ignored", () => {
      expect(isAuthExempt("/ext/auth/")).to.equal(true);
      expect(isAuthExempt("/ext//auth//")).to.equal(true);
    });

    it("a path whose last segment only starts or ends with auth is not exempt", () => {
      expect(isAuthExempt("/ext/authx")).to.equal(false);
      expect(isAuthExempt("/ext/xauth")).to.equal(false);
      expect(isAuthExempt("/ext/auth/x")).to.equal(false);
      expect(isAuthExempt("/")).to.equal(false);
    });

    it("authorize lets an exempt path through without a header", async () => {
      await authority.authorize("/ext/auth/", undefined);
    });
  });

  describe("the Authorization header", () => {
    it("an empty header is refused: auth token not provided", async () => {
      expect(await refusal(authority.authorize("/ext/info", ""))).to.equal("auth token not provided");
    });

    it("a missing header is refused: auth token not provided", async () => {
      expect(await refusal(authority.authorize("/ext/info", undefined))).to.equal("auth token not provided");
    });
  });

  describe("endpoint matching (an endpoint opens the path it names, trailing slashes aside)", () => {
    it("opens the path equal to it, and not paths it is only a suffix of", async () => {
      const token = await authority.newToken(PASSWORD, ["/ext/info", "C/rpc"]);
      await authority.authorize("/ext/info", `Bearer ${token}`);
      await authority.authorize("/ext/info/", `Bearer ${token}`);
      expect(await refusal(authority.authorize("/ext/bc/C/rpc", `Bearer ${token}`))).to.equal(
        "the provided auth token does not allow access to this endpoint",
      );
    });

    it("refuses a path that only starts with it", async () => {
      const token = await authority.newToken(PASSWORD, ["/ext/info"]);
      expect(await refusal(authority.authorize("/ext/info/x", `Bearer ${token}`))).to.equal(
        "the provided auth token does not allow access to this endpoint",
      );
    });

    it("'*' opens every path", async () => {
      const token = await authority.newToken(PASSWORD, ["/ext/info", "*"]);
      await authority.authorize("/ext/keystore", `Bearer ${token}`);
    });
  });

  describe("revocation", () => {
    it("a new authority has an empty revoked list", async () => {
      const fresh = await ApiAuthority.create(PASSWORD);
      expect(fresh.state.revoked).to.deep.equal([]);
    });

    it("a restored authority keeps exactly the revoked list it was given", async () => {
      const restored = ApiAuthority.restore({ password: authority.state.password, revoked: ["t1", "t2"] });
      expect(restored.state.revoked).to.deep.equal(["t1", "t2"]);
    });

    it("revoking a valid token adds its jti to the list and tells onChange", async () => {
      const a = ApiAuthority.restore({ password: authority.state.password, revoked: [] }, () => now);
      const seen: AuthorityState[] = [];
      a.onChange = async (state) => {
        seen.push(state);
      };
      const token = await a.newToken(PASSWORD, ["*"]);
      await a.revokeToken(PASSWORD, token);
      const { jti } = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as { jti: string };
      expect(a.state.revoked).to.deep.equal([jti]);
      expect(seen.map((s) => s.revoked)).to.deep.equal([[jti]]);
      expect(await refusal(a.authorize("/ext/info", `Bearer ${token}`))).to.equal("the provided auth token was revoked");
    });

    it("revoking an invalid token leaves the list unchanged and does not call onChange", async () => {
      const a = ApiAuthority.restore({ password: authority.state.password, revoked: [] }, () => now);
      let calls = 0;
      a.onChange = async () => {
        calls += 1;
      };
      await a.revokeToken(PASSWORD, "not.a.token");
      await a.revokeToken(PASSWORD, "two.segments");
      expect(a.state.revoked).to.deep.equal([]);
      expect(calls).to.equal(0);
    });

    it("an error that is not a token's refusal is not swallowed (a token that is not a string)", async () => {
      const a = ApiAuthority.restore({ password: authority.state.password, revoked: [] }, () => now);
      let failure: unknown;
      try {
        await a.revokeToken(PASSWORD, null as unknown as string);
      } catch (error) {
        failure = error;
      }
      expect(failure).to.be.instanceOf(TypeError);
      expect(a.state.revoked).to.deep.equal([]);
    });
  });

  describe("malformed claims", () => {
    const message = "the token's endpoints claim is not a list of strings";

    it("a token whose endpoints claim is not an array is refused", async () => {
      const token = await forged({ endpoints: "/ext/info" });
      expect(await refusal(authority.authorize("/ext/info", `Bearer ${token}`))).to.equal(message);
    });

    it("a token without an endpoints claim is refused", async () => {
      const token = await forged({});
      expect(await refusal(authority.authorize("/ext/info", `Bearer ${token}`))).to.equal(message);
    });

    it("a token whose endpoints hold a non-string is refused", async () => {
      const token = await forged({ endpoints: ["/ext/info", 5] });
      expect(await refusal(authority.authorize("/ext/info", `Bearer ${token}`))).to.equal(message);
    });

    it("a token with a well-formed endpoints claim signed with the key is accepted", async () => {
      const token = await forged({ endpoints: ["/ext/info"] });
      await authority.authorize("/ext/info", `Bearer ${token}`);
    });

    it("three segments that are not base64url of any bytes are refused as not canonical", async () => {
      expect(await refusal(authority.authorize("/ext/info", "Bearer a.b.c"))).to.equal("token is malformed: its header is not canonical base64url");
    });

    it("three canonical segments that are not a JWS are refused: token is malformed: <the JWT library's words>", async () => {
      // "YQ" is the base64url of "a": canonical, but not a JSON header.
      expect(await refusal(authority.authorize("/ext/info", "Bearer YQ.YQ.YQ"))).to.equal("token is malformed: JWS Protected Header is invalid");
    });

    it("an Error raised while checking a token refuses it as malformed, with its message", async () => {
      const token = await authority.newToken(PASSWORD, ["*"]);
      clock = () => {
        throw new Error("clock broke");
      };
      expect(await refusal(authority.authorize("/ext/info", `Bearer ${token}`))).to.equal("token is malformed: clock broke");
    });

    it("anything else raised while checking a token refuses it as malformed", async () => {
      const token = await authority.newToken(PASSWORD, ["*"]);
      clock = () => {
        throw "not an Error"; // eslint-disable-line @typescript-eslint/only-throw-error
      };
      expect(await refusal(authority.authorize("/ext/info", `Bearer ${token}`))).to.equal("token is malformed");
    });
  });

  describe("expiry (12 hours after the token was made)", () => {
    it("a token is valid one second before its 12 hours are over", async () => {
      const token = await authority.newToken(PASSWORD, ["*"]);
      now = new Date(T0.getTime() + (TOKEN_LIFETIME_SECONDS - 1) * 1000);
      await authority.authorize("/ext/info", `Bearer ${token}`);
    });

    it("a token is refused at exactly 12 hours: token is expired", async () => {
      const token = await authority.newToken(PASSWORD, ["*"]);
      now = new Date(T0.getTime() + TOKEN_LIFETIME_SECONDS * 1000);
      expect(await refusal(authority.authorize("/ext/info", `Bearer ${token}`))).to.equal("token is expired");
    });

    it("a token signed under another password (another salt) is refused: signature is invalid", async () => {
      const other = await ApiAuthority.create(PASSWORD, () => now);
      const token = await other.newToken(PASSWORD, ["*"]);
      expect(await refusal(authority.authorize("/ext/info", `Bearer ${token}`))).to.equal("signature is invalid");
    });
  });

  describe("password length", () => {
    const strongPrefix = "gravel-lantern-Oak-9";

    it(`a password of exactly ${MAX_AUTH_PASSWORD_LENGTH} characters is accepted`, () => {
      const password = strongPrefix + "x".repeat(MAX_AUTH_PASSWORD_LENGTH - strongPrefix.length);
      expect([...password]).to.have.length(MAX_AUTH_PASSWORD_LENGTH);
      expect(() => checkNewPassword(password)).not.to.throw();
    });

    it(`a password of ${MAX_AUTH_PASSWORD_LENGTH + 1} characters is refused`, () => {
      const password = strongPrefix + "x".repeat(MAX_AUTH_PASSWORD_LENGTH + 1 - strongPrefix.length);
      expect(thrown(() => checkNewPassword(password))).to.equal("password exceeds maximum length of 1024 chars");
    });

    it("an empty password is refused", () => {
      expect(thrown(() => checkNewPassword(""))).to.equal("empty password");
    });
  });

  describe("password strength (zxcvbn score of at least 2 on the first 50 characters)", () => {
    it("a password scoring exactly 2 is strong enough", () => {
      expect(isStrongEnough("purple-cat")).to.equal(true);
      expect(isStrongEnough("correcthorse")).to.equal(true);
    });

    it("a password scoring 1 is not", () => {
      expect(isStrongEnough("tulip88")).to.equal(false);
      expect(thrown(() => checkNewPassword("tulip88"))).to.equal("password is too weak");
    });

    it("only the first 50 characters are scored: a weak prefix is not rescued by a strong tail", () => {
      expect(isStrongEnough("a".repeat(50) + "Xq7#kLp9!zR2vW")).to.equal(false);
    });
  });

  describe("the kept password hash", () => {
    it("round-trips through its 48 bytes", async () => {
      const bytes = authority.state.password.toBytes();
      expect(bytes).to.have.length(48);
      expect(await PasswordHash.fromBytes(bytes).matches(PASSWORD)).to.equal(true);
    });

    it("refuses bytes of another length with a RangeError", () => {
      expect(() => PasswordHash.fromBytes(new Uint8Array(47))).to.throw(RangeError, "a kept password hash has 48 bytes, got 47");
      expect(() => PasswordHash.fromBytes(new Uint8Array(49))).to.throw(RangeError, "a kept password hash has 48 bytes, got 49");
    });
  });
});
