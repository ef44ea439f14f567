/**
 * The bearer token of a node started with `--api-auth-required`: a transport that sends
 * `Authorization: Bearer <token>` with every call once a token is set (`setAuthToken`), and
 * nothing while none is.
 */
import type { Transport } from "./transport";

export interface BearerTransport {
  readonly transport: Transport;
  /** Sends `token` with every later call; `undefined` stops sending one. */
  setAuthToken(token: string | undefined): void;
  readonly authToken: string | undefined;
}

export function withBearerToken(inner: Transport, initial?: string): BearerTransport {
  let token = checkToken(initial);
  const transport: Transport = {
    url: inner.url,
    call: (path, method, params, options) =>
      token === undefined
        ? inner.call(path, method, params, options)
        : inner.call(path, method, params, { ...options, headers: { ...options?.headers, Authorization: `Bearer ${token}` } }),
  };
  return {
    transport,
    setAuthToken(next) {
      token = checkToken(next);
    },
    get authToken() {
      return token;
    },
  };
}

function checkToken(token: unknown): string | undefined {
  if (token === undefined) return undefined;
  if (typeof token !== "string" || token === "" || /\s/.test(token)) {
    throw new TypeError(`setAuthToken: the token must be a non-empty string without spaces (as auth.newToken returns it), got ${typeof token === "string" ? JSON.stringify(token) : typeof token}`);
  }
  return token;
}
