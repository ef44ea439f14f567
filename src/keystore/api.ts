import { RpcApi, serverError, type NamedParams } from "../rpc";
import { type Keystore, KeystoreError, type KeystoreUser } from "./keystore";

/**
 * The keystore API of the node (path /ext/keystore): keystore.createUser,
 * keystore.deleteUser and keystore.listUsers, with the reference node's parameter names and
 * result shapes. Errors: -32602 for a parameter of the wrong type, -32000 for a keystore
 * refusal (existing user, weak password, unknown user, wrong password) with the node's
 * wording where it has one (avalanchego api/keystore/keystore.go).
 */
/** A keystore refusal in the node's words: "user doesn't exist: bob", `incorrect password: user "bob"`. */
function keystoreMessage(error: KeystoreError, username: string): string {
  if (error.message.startsWith("user not found")) return `user doesn't exist: ${username}`;
  if (error.message === "incorrect password") return `incorrect password: user ${JSON.stringify(username)}`;
  return error.message;
}

/**
 * Authenticates the keystore user a chain API call names (`username`, `password`); refusals
 * become -32000 errors worded as the exchange chain's API words them:
 * `problem retrieving user "bob": ...`.
 */
export async function authenticateUser(keystore: Keystore, p: NamedParams): Promise<KeystoreUser> {
  const username = p.stringOr("username", "");
  const password = p.stringOr("password", "");
  if (username === "") throw serverError(`problem retrieving user "": empty username`);
  try {
    return await keystore.authenticate(username, password);
  } catch (error) {
    if (error instanceof KeystoreError) throw serverError(`problem retrieving user ${JSON.stringify(username)}: ${keystoreMessage(error, username)}`);
    throw error;
  }
}

/** The user named by the call: a non-empty `username`, and a `password` (strings). */
function credentials(p: NamedParams): { username: string; password: string } {
  const username = p.stringOr("username", "");
  if (username === "") throw serverError("empty username");
  return { username, password: p.stringOr("password", "") };
}

/** A keystore refusal of a call about `username`, as the -32000 error the node answers with. */
function refusedFor(username: string): (error: unknown) => never {
  return (error) => {
    throw error instanceof KeystoreError ? serverError(keystoreMessage(error, username)) : error;
  };
}

export function createKeystoreApi(keystore: Keystore): RpcApi {
  return new RpcApi().namedMethods(keystore, {
    "keystore.createUser": createUser,
    "keystore.deleteUser": deleteUser,
    "keystore.listUsers": listUsers,
  });
}

/** {username, password}: a new user. */
async function createUser(keystore: Keystore, params: NamedParams): Promise<{ success: true }> {
  const { username, password } = credentials(params);
  await keystore.createUser(username, password).catch(refusedFor(username));
  return { success: true };
}

/** {username, password}: the user and everything kept for it are deleted. */
async function deleteUser(keystore: Keystore, params: NamedParams): Promise<{ success: true }> {
  const { username, password } = credentials(params);
  await keystore.deleteUser(username, password).catch(refusedFor(username));
  return { success: true };
}

function listUsers(keystore: Keystore): { users: string[] } {
  return { users: keystore.listUsers() };
}
