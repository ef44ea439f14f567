/**
 * Client of the keystore API (`keystore.*` at `/ext/keystore`, the same under both namings):
 * the users whose `username` / `password` the chain methods take.
 */
import { checkTransport, Endpoint, readEmptyReply } from "./call";
import { KEYSTORE_PATH } from "./naming";
import type { Transport } from "./transport";
import type { Credentials, RequestOptions } from "./types";

export interface KeystoreClientOptions {
  transport: Transport;
}

export interface KeystoreClient {
  readonly path: string;
  /** Creates a user; the node rejects weak passwords and existing names. */
  createUser(credentials: Credentials, options?: RequestOptions): Promise<void>;
  /** Names of the node's users. */
  listUsers(options?: RequestOptions): Promise<string[]>;
  /** Deletes a user (needs its password). */
  deleteUser(credentials: Credentials, options?: RequestOptions): Promise<void>;
}

export function createKeystoreClient(options: KeystoreClientOptions): KeystoreClient {
  const keystore = new Endpoint(checkTransport("createKeystoreClient", options.transport), KEYSTORE_PATH, "keystore");
  return {
    path: keystore.path,
    createUser: (credentials, requestOptions) =>
      keystore.call("createUser", (args) => args.credentials(credentials), readEmptyReply, requestOptions),
    listUsers: (requestOptions) =>
      keystore.call("listUsers", () => ({}), (r) => r.get("users").stringArray(), requestOptions),
    deleteUser: (credentials, requestOptions) =>
      keystore.call("deleteUser", (args) => args.credentials(credentials), readEmptyReply, requestOptions),
  };
}
