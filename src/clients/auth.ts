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
import { PATHS } from "../network/paths";
import { checkTransport, Endpoint, readEmptyReply } from "./call";
import type { Transport } from "./transport";
import type { RequestOptions } from "./types";

export const AUTH_PATH = PATHS.auth;

export interface AuthClientOptions {
  transport: Transport;
}

export interface AuthClient {
  readonly path: string;
  /** A token opening `endpoints` (the paths themselves, e.g. `"/ext/info"`; `"*"` opens all) for 12 hours. */
  newToken(password: string, endpoints: readonly string[], options?: RequestOptions): Promise<string>;
  /** Revokes a token; revoking an invalid or already revoked token does nothing. */
  revokeToken(password: string, token: string, options?: RequestOptions): Promise<void>;
  /** Changes the password; every token made under the old one becomes invalid. */
  changePassword(oldPassword: string, newPassword: string, options?: RequestOptions): Promise<void>;
}

export function createAuthClient(options: AuthClientOptions): AuthClient {
  const auth = new Endpoint(checkTransport("createAuthClient", options.transport), AUTH_PATH, "auth");
  return {
    path: auth.path,
    newToken: (password, endpoints, o) =>
      auth.call(
        "newToken",
        (args) => ({ password: args.string(password, "password"), endpoints: args.stringArray(endpoints, "endpoints", { nonEmpty: true }) }),
        (r) => r.get("token").string(),
        o,
      ),
    revokeToken: (password, token, o) =>
      auth.call("revokeToken", (args) => ({ password: args.string(password, "password"), token: args.string(token, "token") }), readEmptyReply, o),
    changePassword: (oldPassword, newPassword, o) =>
      auth.call("changePassword", (args) => ({ oldPassword: args.string(oldPassword, "oldPassword"), newPassword: args.string(newPassword, "newPassword") }), readEmptyReply, o),
  };
}
