/**
 * Where a service that calls a node started with `--api-auth-required` gets its bearer token:
 * a fixed token (a flag or an environment variable), or a function the node's own command
 * passes in, asked again whenever the node answers 401 (the token expired or was revoked).
 */
import { NodeHttpError } from "./errors";
import type { Transport } from "./transport";

export type NodeTokenSource = string | (() => Promise<string>);

/** The environment variable the vault and explorer commands read a token from. */
export const NODE_TOKEN_ENV = "NATIVEKIT_NODE_TOKEN";

/**
 * A transport that sends `Authorization: Bearer <token>` from `source` with every call; with a
 * function source, a call the node answers 401 is sent once more with a fresh token.
 * Without a source it is `inner` itself.
 */
export function withTokenSource(inner: Transport, source: NodeTokenSource | undefined): Transport {
  if (source === undefined) return inner;
  if (typeof source === "string") {
    checkToken(source);
    return { url: inner.url, call: (path, method, params, options) => inner.call(path, method, params, { ...options, headers: { ...options?.headers, Authorization: `Bearer ${source}` } }) };
  }
  let current: Promise<string> | undefined;
  const ask = (): Promise<string> => {
    const asked = source().then(checkToken);
    // A failed request for a token is not kept: the next call asks again.
    asked.catch(() => {
      if (current === asked) current = undefined;
    });
    current = asked;
    return asked;
  };
  const send = (token: string, ...[path, method, params, options]: Parameters<Transport["call"]>) =>
    inner.call(path, method, params, { ...options, headers: { ...options?.headers, Authorization: `Bearer ${token}` } });
  return {
    url: inner.url,
    async call(path, method, params, options) {
      const used = current ?? ask();
      const token = await used;
      try {
        return await send(token, path, method, params, options);
      } catch (error) {
        if (!(error instanceof NodeHttpError) || error.status !== 401) throw error;
        // Calls refused together share one new token: only the first to find the old one asks.
        const fresh = current === used || current === undefined ? ask() : current;
        return send(await fresh, path, method, params, options);
      }
    },
  };
}

function checkToken(token: unknown): string {
  if (typeof token !== "string" || token === "" || /\s/.test(token)) {
    throw new TypeError(`a node token must be a non-empty string without spaces (as auth.newToken returns it), got ${typeof token === "string" ? JSON.stringify(token) : typeof token}`);
  }
  return token;
}
