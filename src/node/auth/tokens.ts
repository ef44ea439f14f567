/**
 * The node's API authorization (`--api-auth-required`): bearer tokens, their revocation, the
 * password that protects both, and the check every HTTP request goes through.
 *
 * A token is a JWT signed with HS256 (header `{"alg":"HS256","typ":"JWT"}`), claims
 * `{exp, jti, endpoints}`: it expires 12 hours after it was made, `jti` is 20 random bytes in
 * base64url, and `endpoints` lists the paths it opens (any `"*"` collapses the list to `["*"]`).
 * The HMAC key is 32 random bytes, made with the authority and made anew by every password
 * change, so a change invalidates every token ("signature is invalid"), as on the reference
 * node. The reference signs with the password's argon2id hash instead; kept in a data directory,
 * that hash let anyone who could read the directory sign any token (issue 26, item 7), so here
 * the hash only checks the password. A node without a data directory makes a new key at each
 * start (every token invalid, as on the reference node); a node with one keeps the key, wrapped
 * under its password (`kept-auth.ts`), so tokens outlive a restart as they did before.
 *
 * Password checks (argon2id, on the hasher's thread) are throttled per client (`throttle.ts`),
 * and several run at once: a check does not hold a lock. Each one is made against the password
 * current when it started, and a token is signed with the key of that same password; a change
 * that lands meanwhile makes the check run again against the new password, so nothing is ever
 * granted under a password that is no longer the one.
 *
 * A request is granted when its path's last segment is `auth` (the auth API never needs a
 * token), or when it carries `Authorization: Bearer <token>` with a valid, unrevoked token
 * one of whose endpoints is `"*"` or the request path itself (both without trailing slashes).
 *
 * What "valid" adds to the signature check, because each was a way in (issue 26):
 * - every segment must be the canonical unpadded base64url of its bytes: the JWT library
 *   decodes leniently (a trailing `=`, unused low bits of the last character), so one token has
 *   many spellings, and a check by spelling would let a revoked token back in;
 * - revocation is by the token's identity, its `jti`, never by its text, for the same reason;
 *   a token without a `jti` is refused, since it could not be revoked;
 * - a token without `exp` is refused: it would never expire;
 * - a token naming an empty endpoint is refused: a suffix check let `""` open every path, and
 *   no token this node issues holds one.
 */
import { randomBytes } from "node:crypto";
import { SignJWT, errors as joseErrors, jwtVerify } from "jose";

import { normalizePath } from "../http-paths";
import { AUTH_MESSAGES, AuthError } from "./errors";
import { PasswordHash, checkNewPassword, isStrongEnough } from "./password";
import { PasswordThrottle } from "./throttle";

/** Lifetime of a token: 12 hours, as on the reference node. */
export const TOKEN_LIFETIME_SECONDS = 12 * 60 * 60;
/** Most endpoints one token may name. */
const MAX_TOKEN_ENDPOINTS = 128;
/** The endpoint that opens every path. */
const ALL_ENDPOINTS = "*";

/** The current time; injectable so tests can make tokens expire. */
export type Clock = () => Date;

/** Whether a request path is exempt from the token check: its last segment is `auth`. */
export function isAuthExempt(path: string): boolean {
  const segments = path.split("/").filter((s) => s !== "");
  return segments[segments.length - 1] === "auth";
}

/** The state an authority may hand to a keeper after each change: its password hash, signing key and revocations. */
export interface AuthorityState {
  readonly password: PasswordHash;
  /** The HMAC key of the tokens: 32 random bytes, new with each password. */
  readonly signingKey: Uint8Array;
  /** The `jti` of every revoked token. */
  readonly revoked: readonly string[];
}

/** A state to restore: one kept by an earlier version has no signing key, and gets a new one. */
export type RestoredState = Omit<AuthorityState, "signingKey"> & { readonly signingKey?: Uint8Array };

/** The secrets of one password: its hash, which checks it, and the key of the tokens made under it. */
interface Keys {
  readonly password: PasswordHash;
  readonly signingKey: Uint8Array;
}

/** Bytes of a signing key (HS256: as long as its hash). */
export const SIGNING_KEY_BYTES = 32;

/** A new random signing key. */
function newSigningKey(): Uint8Array {
  return new Uint8Array(randomBytes(SIGNING_KEY_BYTES));
}

/** What a verified token says: its identity and the endpoints it opens. */
interface VerifiedToken {
  readonly jti: string;
  readonly endpoints: readonly string[];
}

/**
 * The `jti` of a revocation as kept: earlier versions kept whole tokens, and those must stay
 * revoked after an upgrade, so a kept entry that is a JWT is replaced by its `jti` (its signature
 * was checked when it was revoked). Anything else is already a `jti`.
 */
function revokedId(entry: string): string {
  const segments = entry.split(".");
  if (segments.length !== 3) return entry;
  try {
    const claims: unknown = JSON.parse(Buffer.from(segments[1]!, "base64url").toString("utf8"));
    if (typeof claims === "object" && claims !== null && "jti" in claims && typeof claims.jti === "string" && claims.jti !== "") return claims.jti;
  } catch {
    // Not a JWT after all: keep the entry as it is, it matches nothing it should not.
  }
  return entry;
}

/** Whether `segment` is exactly how base64url writes its bytes (unpadded, no unused bits set). */
function isCanonicalBase64url(segment: string): boolean {
  return /^[A-Za-z0-9_-]+$/.test(segment) && Buffer.from(segment, "base64url").toString("base64url") === segment;
}

/** The position (from 1, so people can find it) of the first empty endpoint, or undefined. */
function emptyEndpoint(endpoints: readonly string[]): number | undefined {
  const index = endpoints.indexOf("");
  return index === -1 ? undefined : index + 1;
}

/** Whether `endpoint` opens `path`: it is `*`, or names the same path (trailing slashes aside). */
function opens(endpoint: string, path: string): boolean {
  return endpoint === ALL_ENDPOINTS || normalizePath(endpoint) === normalizePath(path);
}

export class ApiAuthority {
  private readonly revoked: Set<string>;
  /** Told after each change, and waited for before the change is answered. */
  onChange: ((state: AuthorityState) => Promise<void>) | undefined;

  private constructor(
    private keys: Keys,
    private readonly clock: Clock,
    revoked: readonly string[] = [],
    private readonly throttle = new PasswordThrottle(),
  ) {
    this.revoked = new Set(revoked.map(revokedId));
  }

  /**
   * An authority as kept before: its password hash, signing key and revoked tokens. Without a
   * signing key (kept by an earlier version, whose tokens were signed with the hash), a new one
   * is made: every token of the earlier version is refused.
   */
  static restore(state: RestoredState, clock: Clock = () => new Date()): ApiAuthority {
    return new ApiAuthority({ password: state.password, signingKey: state.signingKey ?? newSigningKey() }, clock, state.revoked);
  }

  get state(): AuthorityState {
    return { password: this.keys.password, signingKey: this.keys.signingKey, revoked: [...this.revoked] };
  }

  /**
   * The authority of a node started with `password` (already trimmed). Refuses a password that
   * is not strong enough: "API auth password is not strong enough".
   */
  static async create(password: string, clock: Clock = () => new Date()): Promise<ApiAuthority> {
    if (!isStrongEnough(password)) throw new AuthError(AUTH_MESSAGES.weakStartupPassword);
    return new ApiAuthority({ password: await PasswordHash.of(password), signingKey: newSigningKey() }, clock);
  }

  /**
   * A new token for `endpoints`, valid for 12 hours. `client`: the caller's network address,
   * whose wrong passwords are throttled (see `throttle.ts`).
   */
  async newToken(password: string, endpoints: readonly string[], client?: string): Promise<string> {
    if (endpoints.length === 0) throw new AuthError(AUTH_MESSAGES.noEndpoints);
    if (endpoints.length > MAX_TOKEN_ENDPOINTS) throw new AuthError(AUTH_MESSAGES.tooManyEndpoints);
    const empty = emptyEndpoint(endpoints);
    if (empty !== undefined) throw new AuthError(AUTH_MESSAGES.emptyEndpointRequested(empty, endpoints.length));
    const { signingKey } = await this.checkPassword(password, client);
    const claims = {
      exp: Math.floor(this.clock().getTime() / 1000) + TOKEN_LIFETIME_SECONDS,
      jti: randomBytes(20).toString("base64url"),
      endpoints: endpoints.includes(ALL_ENDPOINTS) ? [ALL_ENDPOINTS] : [...endpoints],
    };
    return new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(signingKey);
  }

  /**
   * Revokes a token made under the current password. A token that is not one (malformed,
   * expired, signed under another password) is left alone and the call still succeeds: the
   * seed's rule "revoking an invalid token does nothing" (the reference node answers with the
   * token's error instead). Revoking twice is fine. What is revoked is the token's `jti`, so
   * every spelling of it is refused from now on.
   */
  async revokeToken(password: string, token: string, client?: string): Promise<void> {
    await this.checkPassword(password, client);
    let verified: VerifiedToken;
    try {
      verified = await this.verify(token);
    } catch (error) {
      if (error instanceof AuthError) return;
      throw error;
    }
    this.revoked.add(verified.jti);
    await this.onChange?.(this.state);
  }

  /**
   * Replaces the password. Checks, in the reference node's order: the new password differs
   * from the old, the old one is right, the new one is valid. A new signing key comes with the
   * new password: every token made so far becomes invalid, and the revoked list is cleared.
   */
  async changePassword(oldPassword: string, newPassword: string, client?: string): Promise<void> {
    if (oldPassword === newPassword) throw new AuthError(AUTH_MESSAGES.samePassword);
    for (;;) {
      const keys = await this.checkPassword(oldPassword, client);
      checkNewPassword(newPassword);
      const password = await PasswordHash.of(newPassword);
      // Another change landed while the new password was hashed: the old one is checked again.
      if (this.keys !== keys) continue;
      this.keys = { password, signingKey: newSigningKey() };
      this.revoked.clear();
      await this.onChange?.(this.state);
      return;
    }
  }

  /**
   * Checks a request for `path` carrying the `Authorization` header `header`; throws an
   * {@link AuthError} saying why it is refused.
   */
  async authorize(path: string, header: string | undefined): Promise<void> {
    if (isAuthExempt(path)) return;
    if (header === undefined || header === "") throw new AuthError(AUTH_MESSAGES.noToken);
    const parts = header.split(" ");
    if (parts.length !== 2 || parts[0] !== "Bearer") throw new AuthError(AUTH_MESSAGES.unparsableHeader);
    const { jti, endpoints } = await this.verify(parts[1]!);
    if (this.revoked.has(jti)) throw new AuthError(AUTH_MESSAGES.revoked);
    const empty = emptyEndpoint(endpoints);
    if (empty !== undefined) throw new AuthError(AUTH_MESSAGES.emptyEndpointInToken(empty, endpoints.length));
    if (!endpoints.some((endpoint) => opens(endpoint, path))) throw new AuthError(AUTH_MESSAGES.endpointNotAllowed);
  }

  /**
   * The keys of the current password, once `password` is checked to be it (throttled per
   * client; refused at once when the hasher's queue is full). A password change that lands
   * during the check makes it run again, against the new password.
   */
  private async checkPassword(password: string, client: string | undefined): Promise<Keys> {
    for (;;) {
      const keys = this.keys;
      if (!(await this.throttle.check(client, (suspect) => keys.password.matches(password, suspect ? "suspect" : "client")))) throw new AuthError(AUTH_MESSAGES.wrongPassword);
      if (this.keys === keys) return keys;
    }
  }

  /**
   * The identity and endpoints of a token in canonical form, signed with the current key,
   * with an expiry that has not passed.
   */
  private async verify(token: string): Promise<VerifiedToken> {
    const segments = token.split(".");
    if (segments.length !== 3) throw new AuthError(AUTH_MESSAGES.segments);
    // Before the signature: the library would accept other spellings of the same bytes.
    (["header", "payload", "signature"] as const).forEach((part, i) => {
      if (!isCanonicalBase64url(segments[i]!)) throw new AuthError(AUTH_MESSAGES.notCanonical(part));
    });
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.keys.signingKey, { algorithms: ["HS256"], currentDate: this.clock() }));
    } catch (error) {
      throw tokenError(error);
    }
    const endpoints = payload.endpoints;
    if (!Array.isArray(endpoints) || !endpoints.every((e): e is string => typeof e === "string")) {
      throw new AuthError("the token's endpoints claim is not a list of strings");
    }
    // The library checks `exp` only when present (and that it is a number then).
    if (payload.exp === undefined) throw new AuthError(AUTH_MESSAGES.noExpiry);
    const jti = payload.jti;
    if (typeof jti !== "string" || jti === "") throw new AuthError(AUTH_MESSAGES.noIdentity);
    return { jti, endpoints };
  }
}

/** A token the JWT library refused, in the words of the reference node's JWT library. */
function tokenError(error: unknown): AuthError {
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return new AuthError(AUTH_MESSAGES.badSignature);
  if (error instanceof joseErrors.JWTExpired) return new AuthError(AUTH_MESSAGES.expired);
  if (error instanceof joseErrors.JOSEError) return new AuthError(`token is malformed: ${error.message}`);
  if (error instanceof Error) return new AuthError(`token is malformed: ${error.message}`);
  return new AuthError("token is malformed");
}
