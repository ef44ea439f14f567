/**
 * The refusals of the auth API and of the token check, worded as the reference node words them
 * (its `api/auth` package and the JWT library it uses). Domain code throws these; the auth API
 * maps them to JSON-RPC errors and the HTTP server answers a refused request with 401.
 */
export class AuthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AuthError";
  }
}

/** The texts a client may see, defined once. */
export const AUTH_MESSAGES = {
  noToken: "auth token not provided",
  unparsableHeader: 'couldn\'t parse auth token. Header "Authorization" should be "Bearer TOKEN.GOES.HERE"',
  revoked: "the provided auth token was revoked",
  endpointNotAllowed: "the provided auth token does not allow access to this endpoint",
  wrongPassword: "incorrect password",
  samePassword: "new password can't be same as old password",
  noEndpoints: "must name at least one endpoint",
  tooManyEndpoints: "can only name at most 128 endpoints",
  badSignature: "signature is invalid",
  segments: "token contains an invalid number of segments",
  expired: "token is expired",
  weakStartupPassword: "API auth password is not strong enough",
  busy: "the node is busy checking other passwords: try again in a moment",
  throttled: (client: string, seconds: number) =>
    `too many wrong passwords from ${client}: try again in ${seconds} s`,
  checksInFlight: (client: string) =>
    `too many password checks at once from ${client}: wait for the answers to the earlier ones`,
  noExpiry: 'token has no expiry: its "exp" claim is missing',
  noIdentity: 'token has no identity: its "jti" claim is missing',
  notCanonical: (part: "header" | "payload" | "signature") => `token is malformed: its ${part} is not canonical base64url`,
  emptyEndpointRequested: (position: number, count: number) =>
    `endpoint ${position} of ${count} is empty (""): name a path such as "/ext/info", or "*" for every path`,
  emptyEndpointInToken: (position: number, count: number) => `the token names an empty endpoint (endpoint ${position} of ${count})`,
} as const;
