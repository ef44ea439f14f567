import { methodNotFound } from "../engine/errors";
import { paramsObject, type Params, serverError, stringParam } from "../xchain/vm/rpc-params";
import { type Keystore, KeystoreError, type KeystoreUser } from "./keystore";
import type { Dispatch } from "../engine/provider-types";

/**
 * The keystore API of the node (path /ext/keystore): keystore.createUser,
 * keystore.deleteUser and keystore.listUsers, with the reference node's parameter names and
 * result shapes. Errors: -32602 for a parameter of the wrong type, -32000 for a keystore
 * refusal (existing user, weak password, unknown user, wrong password) with the node's
 * wording where it has one (avalanchego api/keystore/keystore.go).
 */
export type { Dispatch };

export const KEYSTORE_METHODS = ["keystore.createUser", "keystore.deleteUser", "keystore.listUsers"] as const;

/** A keystore refusal in the node's words: "user doesn't exist: bob", `incorrect password: user "bob"`. */
export function keystoreMessage(error: KeystoreError, username: string): string {
  if (error.message.startsWith("user not found")) return `user doesn't exist: ${username}`;
  if (error.message === "incorrect password") return `incorrect password: user ${JSON.stringify(username)}`;
  return error.message;
}

/**
 * Authenticate a keystore user for a chain API call; refusals become -32000 errors worded as
 * the node's chain APIs word them: `problem retrieving user "bob": ...`.
 */
export async function authenticateUser(keystore: Keystore, p: Params): Promise<KeystoreUser> {
  const username = stringParam(p, "username", "");
  const password = stringParam(p, "password", "");
  if (username === "") throw serverError(`problem retrieving user "": empty username`);
  try {
    return await keystore.authenticate(username, password);
  } catch (error) {
    if (error instanceof KeystoreError) throw serverError(`problem retrieving user ${JSON.stringify(username)}: ${keystoreMessage(error, username)}`);
    throw error;
  }
}

function refusal(error: unknown, username: string): never {
  if (error instanceof KeystoreError) throw serverError(keystoreMessage(error, username));
  throw error;
}

export function createKeystoreDispatch(keystore: Keystore): Dispatch {
  const handlers: Record<string, (p: Params) => Promise<unknown>> = {
    "keystore.createUser": async (p) => {
      const username = stringParam(p, "username", "");
      const password = stringParam(p, "password", "");
      if (username === "") throw serverError("empty username");
      try {
        await keystore.createUser(username, password);
      } catch (error) {
        refusal(error, username);
      }
      return { success: true };
    },
    "keystore.deleteUser": async (p) => {
      const username = stringParam(p, "username", "");
      const password = stringParam(p, "password", "");
      if (username === "") throw serverError("empty username");
      try {
        await keystore.deleteUser(username, password);
      } catch (error) {
        refusal(error, username);
      }
      return { success: true };
    },
    "keystore.listUsers": async () => ({ users: keystore.listUsers() }),
  };
  return async (method: string, params: unknown): Promise<unknown> => {
    const handler = handlers[method];
    if (handler === undefined || !Object.prototype.hasOwnProperty.call(handlers, method)) throw methodNotFound(method);
    return handler(paramsObject(params, method));
  };
}
