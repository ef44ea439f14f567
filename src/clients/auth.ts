/**
 * Client of the auth API (`auth.*` at `/ext/auth`, on nodes started with
 * `--api-auth-required`): tokens for chosen endpoints, their revocation, the password change.
 *
 * ```ts
 * const node = createNodeClient({ url });
 * const token = await node.auth.newToken("the node's password", ["*"]);
 * node.setAuthToken(token);                 // every call of `node` now sends it
 * ```
 */
import { Args, invoke, type Reader } from "./internal";
import type { Transport } from "./transport";
import type { RequestOptions } from "./types";

export const AUTH_PATH = "/ext/auth";

export interface AuthClientOptions {
  transport: Transport;
}

export interface AuthClient {
  readonly path: string;
  /** A token opening `endpoints` (paths, or suffixes of paths; `"*"` opens all) for 12 hours. */
  newToken(password: string, endpoints: readonly string[], options?: RequestOptions): Promise<string>;
  /** Revokes a token; revoking an invalid or already revoked token does nothing. */
  revokeToken(password: string, token: string, options?: RequestOptions): Promise<void>;
  /** Changes the password; every token made under the old one becomes invalid. */
  changePassword(oldPassword: string, newPassword: string, options?: RequestOptions): Promise<void>;
}

export function createAuthClient(options: AuthClientOptions): AuthClient {
  const { transport } = options;
  if (typeof transport !== "object" || transport === null || typeof transport.call !== "function") {
    throw new TypeError("createAuthClient: transport must be a Transport (see createTransport)");
  }
  const path = AUTH_PATH;
  // The seed's nodes answer { success: true }, recent reference nodes {} (failures are errors).
  const done = (r: Reader): void => {
    if (r.value !== null && r.maybe("success")?.boolean() === false) r.get("success").fail("true");
  };
  return {
    path,
    newToken: (password, endpoints, o) =>
      Promise.resolve().then(() => {
        const args = new Args("auth.newToken");
        const params = { password: args.string(password, "password"), endpoints: args.stringArray(endpoints, "endpoints", { nonEmpty: true }) };
        return invoke(transport, path, "auth.newToken", params, (r) => r.get("token").string(), o);
      }),
    revokeToken: (password, token, o) =>
      Promise.resolve().then(() => {
        const args = new Args("auth.revokeToken");
        const params = { password: args.string(password, "password"), token: args.string(token, "token") };
        return invoke(transport, path, "auth.revokeToken", params, done, o);
      }),
    changePassword: (oldPassword, newPassword, o) =>
      Promise.resolve().then(() => {
        const args = new Args("auth.changePassword");
        const params = { oldPassword: args.string(oldPassword, "oldPassword"), newPassword: args.string(newPassword, "newPassword") };
        return invoke(transport, path, "auth.changePassword", params, done, o);
      }),
  };
}
