/**
 * The auth API of the node (path /ext/auth, served only with `--api-auth-required`):
 * auth.newToken, auth.revokeToken and auth.changePassword, with the reference node's parameter
 * names. Refusals are -32000 errors with the reference's messages ("incorrect password", ...).
 *
 * Replies: `{token}` for newToken; `{success: true}` for the other two, which is what the seed
 * documents (`success (bool)`) and what the legacy SDK (avalanche 3.x) reads; recent reference
 * nodes answer `{}`.
 */
import { RpcApi, serverError, type RpcError } from "../../rpc";
import { AuthError } from "./errors";
import type { ApiAuthority } from "./tokens";

export const AUTH_METHODS = ["auth.newToken", "auth.revokeToken", "auth.changePassword"] as const;

function authRefusal(error: unknown): RpcError | undefined {
  return error instanceof AuthError ? serverError(error.message) : undefined;
}

export function createAuthApi(authority: ApiAuthority): RpcApi {
  // One call at a time, as the reference holds a lock: a password change is never seen half-done.
  let queue: Promise<unknown> = Promise.resolve();
  const around = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };
  return new RpcApi({ namespaces: ["auth"], mapError: authRefusal, around })
    .named("newToken", async (p) => ({ token: await authority.newToken(p.stringOr("password", ""), p.stringArray("endpoints")) }))
    .named("revokeToken", async (p) => {
      await authority.revokeToken(p.stringOr("password", ""), p.stringOr("token", ""));
      return { success: true };
    })
    .named("changePassword", async (p) => {
      await authority.changePassword(p.stringOr("oldPassword", ""), p.stringOr("newPassword", ""));
      return { success: true };
    });
}
