/**
 * The auth API of the node (path /ext/auth, served only with `--api-auth-required`):
 * auth.newToken, auth.revokeToken and auth.changePassword, with the reference node's parameter
 * names. Refusals are -32000 errors with the reference's messages ("incorrect password", ...).
 *
 * Replies: `{token}` for newToken; `{success: true}` for the other two, which is what the seed
 * documents (`success (bool)`) and what the legacy SDK (avalanche 3.x) reads; recent reference
 * nodes answer `{}`.
 *
 * Each call passes the client's network address to the authority, which throttles wrong
 * passwords per client. Calls run at once, not one after another: a password check takes an
 * argon2id hash (on the hasher's thread), and a queue of them behind one lock let one client
 * make everyone else's check wait (issue 26, item 5); the authority keeps a password change
 * from being seen half-done without a lock.
 */
import { RpcApi, serverError, type NamedParams, type RpcError } from "../../rpc";
import { currentClientAddress } from "../client-address";
import { AuthError } from "./errors";
import type { ApiAuthority } from "./tokens";

function authRefusal(error: unknown): RpcError | undefined {
  return error instanceof AuthError ? serverError(error.message) : undefined;
}

export function createAuthApi(authority: ApiAuthority): RpcApi {
  return new RpcApi({ mapError: authRefusal }).namedMethods(authority, {
    "auth.newToken": newToken,
    "auth.revokeToken": revokeToken,
    "auth.changePassword": changePassword,
  });
}

/** {password, endpoints}: a token for those endpoints. */
async function newToken(authority: ApiAuthority, params: NamedParams): Promise<{ token: string }> {
  return { token: await authority.newToken(params.stringOr("password", ""), params.stringArray("endpoints"), currentClientAddress()) };
}

/** {password, token}: the token no longer authorizes anything. */
async function revokeToken(authority: ApiAuthority, params: NamedParams): Promise<{ success: true }> {
  await authority.revokeToken(params.stringOr("password", ""), params.stringOr("token", ""), currentClientAddress());
  return { success: true };
}

/** {oldPassword, newPassword}: a new password; every token made so far becomes invalid. */
async function changePassword(authority: ApiAuthority, params: NamedParams): Promise<{ success: true }> {
  await authority.changePassword(params.stringOr("oldPassword", ""), params.stringOr("newPassword", ""), currentClientAddress());
  return { success: true };
}
