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
import { RpcApi, type RpcApiOptions } from "../../rpc/api";
import { invalidParams, serverError } from "../../rpc/errors";
import type { UnlockedAccount } from "../accounts";
import type { Engine } from "../engine";
import { ethers } from "../lazy-ethers";
import { DEFAULT_UNLOCK_SECONDS, PERSONAL_ERRORS, PersonalKeyError, personalKeysOf } from "../personal-keys";
import type { Filters } from "./filters";
import { formatTransaction, hex } from "./format";
import * as p from "./params";
import { signText } from "./signing";
import type { SubscriptionHub } from "./subscriptions";

/** A sent transaction's block is sealed after the answer (see Engine.submit). */
const SEAL_LATER = { sealLater: true } as const;

export function personalApi(engine: Engine, options: RpcApiOptions, filters: Filters, subscriptions: SubscriptionHub): RpcApi {
  const keys = personalKeysOf(engine);
  const mapError = (error: unknown) => (error instanceof PersonalKeyError ? serverError(error.message) : options.mapError?.(error));

  /** The key that signs for `address`: decrypted with the password, the unlocked one, or a test account's. */
  const signer = async (address: string, password: string | undefined): Promise<UnlockedAccount> => {
    if (keys.has(address)) {
      if (password !== undefined) return keys.decrypt(address, password);
      const unlocked = engine.unlocked.get(address);
      if (unlocked === undefined) throw new PersonalKeyError(PERSONAL_ERRORS.locked);
      return unlocked;
    }
    const testAccount = engine.unlocked.get(address);
    if (testAccount === undefined) throw serverError(`${PERSONAL_ERRORS.unknownAccount} ${address}: the node holds no key for it`);
    return testAccount;
  };

  return new RpcApi({ ...options, mapError })
    .positional("personal_listAccounts", 0, () => keys.list())
    .positional("personal_newAccount", 1, async ([password]) => ethers().getAddress(await keys.create(passwordParam(password))))
    .positional("personal_importRawKey", 2, ([key, password]) => keys.import(rawKey(key), passwordParam(password)))
    .positional("personal_unlockAccount", [2, 3], async ([a, password, duration]) => {
      await keys.unlock(p.address(a, "address").toString(), passwordParam(password), unlockSeconds(duration));
      return true;
    })
    .positional("personal_lockAccount", 1, ([a]) => keys.lock(p.address(a, "address").toString()))
    .positional("personal_sign", [2, 3], async ([m, a, password]) => {
      const message = p.data(m, "message");
      const account = await signer(p.address(a, "address").toString(), password === undefined || password === null ? undefined : passwordParam(password));
      return signText(account.privateKeyHex, message);
    })
    .positional("personal_ecRecover", 2, ([m, s]) => ecRecover(p.data(m, "message"), p.data(s, "signature")))
    .positional("personal_sendTransaction", 2, async ([t, password]) => {
      const request = p.transactionRequest(t);
      if (request.from === undefined) throw invalidParams("transaction.from is required: the account whose key the password decrypts");
      const pooled = await engine.prepareTransaction(request, await signer(request.from.toString(), passwordParam(password)));
      const hash = await engine.submit(pooled, SEAL_LATER);
      filters.notePending(hash);
      subscriptions.notePending(pooled);
      return hash;
    })
    .positional("personal_signTransaction", 2, async ([t, password]) => {
      const request = p.transactionRequest(t);
      // geth signs only a transaction whose every field is given (nothing is filled in for it).
      if (request.from === undefined) throw serverError("sender not specified");
      if (request.gas === undefined) throw serverError("gas not specified");
      if (request.gasPrice === undefined && (request.maxFeePerGas === undefined || request.maxPriorityFeePerGas === undefined)) {
        throw serverError("missing gasPrice or maxFeePerGas/maxPriorityFeePerGas");
      }
      if (request.nonce === undefined) throw serverError("nonce not specified");
      const { tx, hash, from } = await engine.prepareTransaction(request, await signer(request.from.toString(), passwordParam(password)));
      return { raw: hex(tx.serialize()), tx: formatTransaction(tx, hash, from.toString()) };
    });
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
function ecRecover(message: Uint8Array, signature: Uint8Array): string {
  if (signature.length !== 65) throw serverError("signature must be 65 bytes long");
  if (signature[64] !== 27 && signature[64] !== 28) throw serverError("invalid Ethereum signature (V is not 27 or 28)");
  try {
    return ethers().recoverAddress(ethers().hashMessage(message), ethers().hexlify(signature)).toLowerCase();
  } catch {
    throw serverError("invalid signature: no public key recovers from it");
  }
}
