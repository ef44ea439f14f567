/**
 * The personal_ namespace, as the reference node (coreth, geth's personal API) serves it: accounts
 * kept under a password in the engine's key store (`personal-keys.ts`), unlocked for a while to
 * let eth_sendTransaction sign for them, or used once with their password.
 *
 *   personal_listAccounts                        the password-protected accounts, oldest first
 *   personal_newAccount(password)                a new random key, locked; its address (EIP-55)
 *   personal_importRawKey(hexKey, password)      an existing key, locked; its address
 *   personal_unlockAccount(address, password, seconds = 300; 0 until the node stops) → true
 *   personal_lockAccount(address)                → true (false: not a password-protected account)
 *   personal_sign(data, address, password)       EIP-191 signature (v 27/28)
 *   personal_ecRecover(data, signature)          the signer's address
 *   personal_sendTransaction(tx, password)       signed with the key the password decrypts
 *   personal_signTransaction(tx, password)       the same, signed but not sent → {raw, tx}
 *
 * Refusals carry geth's messages: "could not decrypt key with given password", "unknown account",
 * "account already exists", "unlock duration too large", and eth_sendTransaction from a locked
 * account "authentication needed: password or unlock". Addresses come back as geth writes them:
 * checksummed from personal_newAccount, lowercase elsewhere. The node's test accounts
 * (eth_accounts) have no password: personal_sign and personal_send/signTransaction sign for them
 * with whatever password is given, as personal_sign did before.
 * Unlocking over HTTP is allowed (geth's --allow-insecure-unlock): this is a development node.
 */
import { RpcApi, type PositionalMethod, type RpcApiOptions } from "../../rpc/api";
import { invalidParams, serverError } from "../../rpc/errors";
import type { UnlockedAccount } from "../accounts";
import type { Engine } from "../engine";
import type { LockHeld } from "../engine-lock";
import { ethers } from "../lazy-ethers";
import { DEFAULT_UNLOCK_SECONDS, PERSONAL_ERRORS, PersonalKeyError, personalKeysOf, type PersonalKeys } from "../personal-keys";
import type { Filters } from "./filters";
import { formatTransaction, hex } from "./format";
import * as p from "./params";
import { submitSent, type SentTransactionWatchers } from "./sent";
import { signText } from "./signing";
import type { SubscriptionHub } from "./subscriptions";

/** What the personal_ methods use: the engine, its password-protected keys, and the watchers of sent transactions. */
interface PersonalContext extends SentTransactionWatchers {
  readonly engine: Engine;
  readonly keys: PersonalKeys;
}

export function personalApi(engine: Engine, options: RpcApiOptions<LockHeld>, filters: Filters, subscriptions: SubscriptionHub): RpcApi<LockHeld> {
  const mapError = (error: unknown) => (error instanceof PersonalKeyError ? serverError(error.message) : options.mapError?.(error));
  const context: PersonalContext = { engine, keys: personalKeysOf(engine), filters, subscriptions };
  return RpcApi.scoped({ ...options, mapError }).positionalMethods(context, PERSONAL_METHODS);
}

function listAccounts({ keys }: PersonalContext): string[] {
  return keys.list();
}

/** [password]: a new random key, locked; its address, checksummed. */
async function newAccount({ keys }: PersonalContext, [password]: unknown[]): Promise<string> {
  return ethers().getAddress(await keys.create(passwordParam(password)));
}

/** [privateKey, password]: an existing key, locked; its address. */
function importRawKey({ keys }: PersonalContext, [privateKey, password]: unknown[]): Promise<string> {
  return keys.import(rawKey(privateKey), passwordParam(password));
}

/** [address, password, seconds = 300 (0: until the node stops)]: true. */
async function unlockAccount({ keys }: PersonalContext, [address, password, duration]: unknown[]): Promise<true> {
  await keys.unlock(p.address(address, "address").toString(), passwordParam(password), unlockSeconds(duration));
  return true;
}

/** [address]: true (false: not a password-protected account). */
function lockAccount({ keys }: PersonalContext, [address]: unknown[]): boolean {
  return keys.lock(p.address(address, "address").toString());
}

/** [message, address, password?]: the EIP-191 signature (v 27/28). */
async function sign(personal: PersonalContext, [messageParam, address, password]: unknown[]): Promise<string> {
  const message = p.data(messageParam, "message");
  const account = await signer(personal, p.address(address, "address").toString(), password === undefined || password === null ? undefined : passwordParam(password));
  return signText(account.privateKeyHex, message);
}

/** [message, signature]: the signer's address. */
function ecRecover(_personal: PersonalContext, [message, signature]: unknown[]): string {
  return recoverSigner(p.data(message, "message"), p.data(signature, "signature"));
}

/** [request, password]: signed with the key the password decrypts, and submitted; the hash. */
async function sendTransaction(personal: PersonalContext, [requestParam, password]: unknown[], held: LockHeld): Promise<string> {
  const request = p.transactionRequest(requestParam);
  if (request.from === undefined) throw invalidParams("transaction.from is required: the account whose key the password decrypts");
  const pooled = await personal.engine.prepareTransaction(request, await signer(personal, request.from.toString(), passwordParam(password)));
  return submitSent(personal.engine, personal, pooled, held);
}

/** [request, password]: as personal_sendTransaction, signed but not sent; `{raw, tx}`. */
async function signTransaction(personal: PersonalContext, [requestParam, password]: unknown[]): Promise<{ raw: string; tx: Record<string, unknown> }> {
  const request = p.transactionRequest(requestParam);
  // geth signs only a transaction whose every field is given (nothing is filled in for it).
  if (request.from === undefined) throw serverError("sender not specified");
  if (request.gas === undefined) throw serverError("gas not specified");
  if (request.gasPrice === undefined && (request.maxFeePerGas === undefined || request.maxPriorityFeePerGas === undefined)) {
    throw serverError("missing gasPrice or maxFeePerGas/maxPriorityFeePerGas");
  }
  if (request.nonce === undefined) throw serverError("nonce not specified");
  const { tx, hash, from } = await personal.engine.prepareTransaction(request, await signer(personal, request.from.toString(), passwordParam(password)));
  return { raw: hex(tx.serialize()), tx: formatTransaction(tx, hash, from.toString()) };
}

const PERSONAL_METHODS: Readonly<Record<string, PositionalMethod<PersonalContext, LockHeld>>> = {
  "personal_listAccounts": [0, listAccounts],
  "personal_newAccount": [1, newAccount],
  "personal_importRawKey": [2, importRawKey],
  "personal_unlockAccount": [[2, 3], unlockAccount],
  "personal_lockAccount": [1, lockAccount],
  "personal_sign": [[2, 3], sign],
  "personal_ecRecover": [2, ecRecover],
  "personal_sendTransaction": [2, sendTransaction],
  "personal_signTransaction": [2, signTransaction],
};

/** The key that signs for `address`: decrypted with the password, the unlocked one, or a test account's. */
async function signer({ engine, keys }: PersonalContext, address: string, password: string | undefined): Promise<UnlockedAccount> {
  if (keys.has(address)) {
    if (password !== undefined) return keys.decrypt(address, password);
    const unlocked = engine.unlocked.get(address);
    if (unlocked === undefined) throw new PersonalKeyError(PERSONAL_ERRORS.locked);
    return unlocked;
  }
  const testAccount = engine.unlocked.get(address);
  if (testAccount === undefined) throw serverError(`${PERSONAL_ERRORS.unknownAccount} ${address}: the node holds no key for it`);
  return testAccount;
}

function passwordParam(value: unknown): string {
  if (typeof value !== "string") throw invalidParams(`password must be a string, got ${value === null ? "null" : typeof value}`);
  return value;
}

/** A private key as 64 hex digits, 0x optional (geth's takes them without); never echoed back. */
function rawKey(value: unknown): Uint8Array {
  const text = typeof value === "string" ? value.replace(/^0x/i, "") : "";
  if (!/^[0-9a-fA-F]{64}$/.test(text)) throw invalidParams("privateKey must be 32 bytes written as 64 hex digits (0x optional)");
  return new Uint8Array(Buffer.from(text, "hex"));
}

/** The unlock's duration in seconds: a non-negative integer (or a hex quantity); absent, geth's five minutes. */
function unlockSeconds(value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_UNLOCK_SECONDS;
  const seconds = typeof value === "string" ? Number(p.looseQuantity(value, "duration")) : value;
  if (typeof seconds !== "number" || !Number.isInteger(seconds) || seconds < 0) {
    throw invalidParams(`duration must be a whole number of seconds (0: until the node stops), got ${JSON.stringify(value)}`);
  }
  return seconds;
}

/** geth's personal_ecRecover: the address whose key made `signature` (65 bytes, v 27 or 28) over the EIP-191 text `message`. */
function recoverSigner(message: Uint8Array, signature: Uint8Array): string {
  if (signature.length !== 65) throw serverError("signature must be 65 bytes long");
  if (signature[64] !== 27 && signature[64] !== 28) throw serverError("invalid Ethereum signature (V is not 27 or 28)");
  try {
    return ethers().recoverAddress(ethers().hashMessage(message), ethers().hexlify(signature)).toLowerCase();
  } catch {
    throw serverError("invalid signature: no public key recovers from it");
  }
}
