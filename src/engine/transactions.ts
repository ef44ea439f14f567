/**
 * How transactions come to the engine: built from a request and signed with one of the node's
 * unlocked keys (or, for an impersonated sender, given a placeholder signature), with the
 * defaults a node fills in; or decoded from a signed raw transaction and checked. The keys and
 * the impersonated senders are held here.
 */
import type { Common } from "@ethereumjs/common";
import { RLP } from "@ethereumjs/rlp";
import { createTx, createTxFromRLP, TransactionType, type TypedTransaction, type TypedTxData } from "@ethereumjs/tx";
import { bytesToBigInt, bytesToHex, bytesToUnprefixedHex, type Address } from "@ethereumjs/util";
import { type RecoverableSignature, signDigest } from "../crypto/secp256k1";
import { unlockedAccount, type UnlockedAccount } from "./accounts";
import type { BlockTime } from "./block-time";
import { InvalidInputError, TransactionRejectedError } from "./errors";
import type { Executor } from "./executor";
import { keccak256 } from "./keccak";
import type { ResolvedEngineOptions } from "./options";
import type { TransactionPool } from "./pool";
import type { PooledTransaction, TransactionRequest } from "./types";

/** What the personal_ namespace's key store may do with the node's keys: unlock, lock, and say which are held locked. */
export type RuntimeKeys = Pick<Transactions, "unlockAccount" | "lock" | "setLockedCheck">;

export class Transactions {
  private readonly keys = new Map<string, UnlockedAccount>();
  /** Addresses eth_sendTransaction may send from without a key (hardhat_impersonateAccount). */
  private readonly impersonated = new Set<string>();
  /** Whether the node has a key for an address but keeps it locked (the personal_ namespace's accounts). */
  private isLocked: (addressHex: string) => boolean = () => false;

  constructor(
    private readonly common: Common,
    private readonly settings: Readonly<ResolvedEngineOptions>,
    private readonly pool: TransactionPool,
    private readonly executor: Executor,
    private readonly time: BlockTime,
  ) {}

  /** The node's keys by lowercase address, in the order they were unlocked. */
  get unlocked(): ReadonlyMap<string, UnlockedAccount> {
    return this.keys;
  }

  /** Makes eth_sendTransaction sign for the key's address. */
  unlock(privateKeyHex: string): UnlockedAccount {
    const account = unlockedAccount(privateKeyHex);
    this.keys.set(account.addressHex, account);
    return account;
  }

  /** Makes eth_sendTransaction sign for an account unlocked at run time (personal_unlockAccount). */
  unlockAccount(account: UnlockedAccount): void {
    this.keys.set(account.addressHex, account);
  }

  /** Stops signing for `addressHex` (lowercase); false if the node held no key for it. */
  lock(addressHex: string): boolean {
    return this.keys.delete(addressHex);
  }

  /** Names the senders whose keys the node keeps locked: eth_sendTransaction from one asks for a password or an unlock. */
  setLockedCheck(isLocked: (addressHex: string) => boolean): void {
    this.isLocked = isLocked;
  }

  /** Lets eth_sendTransaction send from `address` without its key. */
  impersonate(address: Address): void {
    this.impersonated.add(address.toString());
  }

  /** Ends an impersonation; false if the address was not impersonated. */
  stopImpersonating(address: Address): boolean {
    return this.impersonated.delete(address.toString());
  }

  /** Forgets every key and impersonation (hardhat_reset unlocks the configured keys again). */
  reset(): void {
    this.keys.clear();
    this.impersonated.clear();
  }

  /**
   * Builds and signs (or impersonates) a transaction from a request, filling defaults like a node.
   * With `signer` (personal_sendTransaction's key, decrypted with its password) it signs with that
   * key, which must be the sender's.
   */
  async prepare(request: TransactionRequest, signer?: UnlockedAccount): Promise<PooledTransaction> {
    const from = request.from;
    if (from === undefined) throw new InvalidInputError("eth_sendTransaction needs a `from` address");
    const fromHex = from.toString();
    if (signer !== undefined && signer.addressHex !== fromHex) throw new InvalidInputError(`the signing key is ${signer.addressHex}'s, not the sender ${fromHex}'s`);
    const key = signer ?? this.keys.get(fromHex);
    // geth's keystore error (keystore.ErrLocked) for an account it holds locked.
    if (key === undefined && !this.impersonated.has(fromHex) && this.isLocked(fromHex)) throw new TransactionRejectedError("authentication needed: password or unlock");
    if (key === undefined && !this.impersonated.has(fromHex)) {
      throw new TransactionRejectedError(
        `unknown account ${fromHex}: eth_sendTransaction signs only for the node's unlocked accounts (see eth_accounts); sign it yourself and use eth_sendRawTransaction`,
      );
    }
    const nonce = request.nonce ?? (await this.pool.pendingNonce(from));
    const gasLimit = request.gas ?? (await this.executor.estimateGas({ ...request, nonce }, "pending"));
    const data: TypedTxData = {
      nonce,
      gasLimit,
      to: request.to,
      value: request.value ?? 0n,
      data: request.data ?? new Uint8Array(0),
      accessList: request.accessList,
      chainId: BigInt(this.settings.chainId),
    } as TypedTxData;
    const wantsLegacy = request.gasPrice !== undefined || request.type === 0 || request.type === 1;
    if (wantsLegacy) {
      Object.assign(data, {
        type: request.type === 1 || (request.type === undefined && request.accessList !== undefined) ? TransactionType.AccessListEIP2930 : TransactionType.Legacy,
        gasPrice: request.gasPrice ?? this.time.nextBlockBaseFee(),
      });
    } else {
      const maxPriorityFeePerGas = request.maxPriorityFeePerGas ?? 0n;
      Object.assign(data, {
        type: TransactionType.FeeMarketEIP1559,
        maxPriorityFeePerGas,
        maxFeePerGas: request.maxFeePerGas ?? this.time.nextBlockBaseFee() * 2n + maxPriorityFeePerGas,
      });
    }
    if (key !== undefined) {
      // Deterministic (RFC 6979) signatures, as other devnets make them: the same request gives the same hash.
      const tx = signedWith(createTx(data, { common: this.common, freeze: false }), (digest) => this.signature(key, digest));
      // We know the signer: spare the EVM a signature recovery per transaction, and the sender's
      // address its hashing of the public key (in ethereumjs' pure-JS Keccak, cold in a short run).
      tx.cache.senderPubKey = key.publicKey;
      tx.getSenderAddress = () => from;
      // Frozen as createTx leaves a transaction by default: ethereumjs caches the hash only then.
      Object.freeze(tx);
      // The hash is that of the serialization, which the block's transactions trie needs too.
      const serialized = tx.serialize();
      tx.cache.hash ??= keccak256(serialized);
      return { tx, from, hash: bytesToHex(tx.hash()), serialized };
    }
    return this.impersonatedTransaction(data, from);
  }

  /** `key`'s signature of `digest`: kept from an earlier transaction (signatureMemo), or made and kept. */
  private signature(key: UnlockedAccount, digest: Uint8Array): RecoverableSignature {
    const memo = this.settings.signatureMemo;
    const kept = memo?.get(key.address.bytes, digest);
    if (kept !== undefined) return kept;
    const made = signDigest(digest, key.privateKey);
    memo?.set(key.address.bytes, digest, made);
    return made;
  }

  /** An impersonated sender has no key: a placeholder signature keeps the hash defined. */
  private impersonatedTransaction(data: TypedTxData, from: Address): PooledTransaction {
    const fake = { ...data, v: data.type === TransactionType.Legacy ? BigInt(this.settings.chainId) * 2n + 35n : 1n, r: 1n, s: BigInt("0x" + bytesToUnprefixedHex(from.bytes)) || 1n } as TypedTxData;
    const tx = createTx(fake, { common: this.common, freeze: false });
    tx.getSenderAddress = () => from;
    return { tx, from, hash: bytesToHex(tx.hash()) };
  }

  /** Decodes and checks a signed transaction; throws InvalidInputError naming the rule it breaks. */
  async decodeRaw(raw: Uint8Array): Promise<PooledTransaction> {
    const chainId = BigInt(this.settings.chainId);
    const declaredChainId = rawTransactionChainId(raw);
    if (declaredChainId !== undefined && declaredChainId !== chainId) {
      throw new InvalidInputError(`invalid chain id ${declaredChainId} for this node: expected ${this.settings.chainId}`);
    }
    let tx: TypedTransaction;
    try {
      tx = createTxFromRLP(raw, { common: this.common });
    } catch (error) {
      throw new InvalidInputError(`invalid raw transaction: ${(error as Error).message.split(" (")[0]}`);
    }
    if (tx.type === TransactionType.BlobEIP4844 || tx.type === TransactionType.EOACodeEIP7702) {
      throw new InvalidInputError(`transaction type ${tx.type} is not supported by the contract chain`);
    }
    let from: Address;
    try {
      from = tx.getSenderAddress();
    } catch {
      throw new InvalidInputError("invalid transaction signature: the sender cannot be recovered");
    }
    if (tx.type === TransactionType.Legacy && !tx.isSigned()) {
      throw new InvalidInputError("the transaction is not signed");
    }
    const txChainId = tx.type === TransactionType.Legacy ? legacyChainId(tx.v!) : tx.common.chainId();
    if (txChainId !== undefined && txChainId !== chainId) {
      throw new InvalidInputError(`invalid chain id ${txChainId} for this node: expected ${this.settings.chainId}`);
    }
    return { tx, from, hash: bytesToHex(tx.hash()) };
  }
}

/**
 * The chain ID a raw transaction declares, read before full decoding so that a transaction for
 * another chain gets a clear error: typed transactions carry it as their first field, legacy
 * EIP-155 ones fold it into v. Undefined when absent or unreadable (decoding reports those).
 */
function rawTransactionChainId(raw: Uint8Array): bigint | undefined {
  try {
    if (raw.length > 0 && raw[0]! <= 0x7f) {
      const fields = RLP.decode(raw.subarray(1)) as Uint8Array[];
      return bytesToBigInt(fields[0]!);
    }
    const fields = RLP.decode(raw) as Uint8Array[];
    if (fields.length !== 9) return undefined;
    return legacyChainId(bytesToBigInt(fields[6]!));
  } catch {
    return undefined;
  }
}

function legacyChainId(v: bigint): bigint | undefined {
  if (v === 27n || v === 28n) return undefined;
  return (v - 35n) / 2n;
}

/**
 * The transaction signed as ethereumjs' `sign(key, false)` signs it (RFC 6979, v from the
 * recovery id), without its detour through noble's Signature: ethereumjs parses the signature our
 * ecsign hook returns back into r and s with noble's range checks, about 9 ms of a Hardhat 3
 * ERC-20 suite's 66 transactions in a fresh process, where libsecp256k1 has just made them.
 */
function signedWith(unsigned: TypedTransaction, sign: (digest: Uint8Array) => RecoverableSignature): TypedTransaction {
  const { r, s, recovery } = sign(unsigned.getHashedMessageToSign());
  return unsigned.addSignature(BigInt(recovery), bytesToBigInt(r), bytesToBigInt(s), true);
}
