import { expect } from "chai";
import { SharedMemory } from "../../../src/atomic/shared-memory";
import { decodeCb58, decodePrivateKey, encodeCb58, formatChainAddress } from "../../../src/encoding";
import { createKeystoreApi } from "../../../src/keystore/api";
import { Keystore } from "../../../src/keystore/keystore";
import { LOCAL_NETWORK, LOCAL_TEST_KEY } from "../../../src/network/constants";
import { type Dispatch } from "../../../src/rpc";
import { createExchangeChainApi } from "../../../src/xchain/api";
import {
  type BaseTx,
  compareTransferableOutputs,
  shortIdFromPrivateKey,
  signTx,
  type TransferableInput,
  type TransferableOutput,
  TypeId,
  type UnsignedTx,
  type Utxo,
} from "../../../src/utxo/codec";
import { type LocalGenesisOptions, localGenesis } from "../../../src/xchain/genesis";
import { ExchangeChain, TxRejectedError } from "../../../src/xchain/vm";

export const EWOQ_KEY = decodePrivateKey(LOCAL_TEST_KEY);
export const EWOQ = shortIdFromPrivateKey(EWOQ_KEY);
export const EWOQ_ADDRESS = "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u";
export const AVAX = decodeCb58(LOCAL_NETWORK.nativeAsset.id);
export const AVAX_ID = LOCAL_NETWORK.nativeAsset.id;
export const X_CHAIN = decodeCb58(LOCAL_NETWORK.xChainId);
export const C_CHAIN = decodeCb58(LOCAL_NETWORK.cChainId);
export const FEE = LOCAL_NETWORK.txFee;
/** The ewoq key's genesis UTXO: output 1 of the native asset's creation. */
export const EWOQ_GENESIS_UTXO = { txId: AVAX, outputIndex: 1, amount: 300_000_000n * 10n ** 9n };

/** Deterministic test keys (private key = 31 zero bytes then n). */
export function testKey(n: number): Uint8Array {
  const key = new Uint8Array(32);
  key[31] = n;
  key[30] = 0x42;
  return key;
}
export const addressOf = (key: Uint8Array): Uint8Array => shortIdFromPrivateKey(key);
export const xAddress = (shortId: Uint8Array): string => formatChainAddress(shortId, "local", "X");

export const PASSWORD = "Corr3ct-Horse-Battery";

export interface Fixture {
  chain: ExchangeChain;
  sharedMemory: SharedMemory;
  keystore: Keystore;
  /** The exchange chain's JSON-RPC dispatch (xvm.* and avm.*). */
  x: Dispatch;
  /** The keystore's JSON-RPC dispatch. */
  ks: Dispatch;
  /** Set the chain's clock (Unix seconds). */
  setTime(seconds: bigint): void;
}

export function fixture(options: LocalGenesisOptions = {}): Fixture {
  const sharedMemory = new SharedMemory();
  let now = 1_700_000_000n;
  const chain = new ExchangeChain({ network: LOCAL_NETWORK, sharedMemory, genesis: localGenesis(LOCAL_NETWORK, options), clock: () => now });
  const keystore = new Keystore();
  return {
    chain,
    sharedMemory,
    keystore,
    x: createExchangeChainApi(chain, keystore).dispatch,
    ks: createKeystoreApi(keystore).dispatch,
    setTime: (seconds) => {
      now = seconds;
    },
  };
}

/** A fixture with user "alice" holding the ewoq key; returns the fixture and alice's credentials. */
export async function fundedUser(options: LocalGenesisOptions = {}): Promise<Fixture & { user: { username: string; password: string } }> {
  const f = fixture(options);
  const user = { username: "alice", password: PASSWORD };
  await f.ks("keystore.createUser", user);
  await f.x("xvm.importKey", { ...user, privateKey: LOCAL_TEST_KEY });
  return { ...f, user };
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<{ code: number; message: string; data?: { rule?: string; nodeMessage?: string; problem?: string } }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: number; message: string; data?: { rule?: string; nodeMessage?: string } };
  }
  throw new Error("expected the call to fail, but it succeeded");
}

/** Expects issueTx to throw a TxRejectedError for `rule`; returns it. */
export function expectRejected(chain: ExchangeChain, bytes: Uint8Array, rule: string, nodeMessage?: string): TxRejectedError {
  let thrown: unknown;
  try {
    chain.issueTx(bytes);
  } catch (error) {
    thrown = error;
  }
  expect(thrown, "expected issueTx to reject the transaction").to.be.instanceOf(TxRejectedError);
  const error = thrown as TxRejectedError;
  expect(error.rule, error.message).to.equal(rule);
  if (nodeMessage !== undefined) expect(error.nodeMessage).to.equal(nodeMessage);
  return error;
}

export function transferOut(assetId: Uint8Array, amount: bigint, owners: Uint8Array[], options: { threshold?: number; locktime?: bigint } = {}): TransferableOutput {
  return {
    assetId,
    output: {
      typeId: TypeId.Secp256k1TransferOutput,
      amount,
      locktime: options.locktime ?? 0n,
      threshold: options.threshold ?? 1,
      addresses: [...owners].sort((a, b) => Buffer.compare(a, b)),
    },
  };
}

export function transferIn(utxo: { txId: Uint8Array; outputIndex: number }, assetId: Uint8Array, amount: bigint, signatureIndices: number[] = [0]): TransferableInput {
  return { txId: utxo.txId, outputIndex: utxo.outputIndex, assetId, input: { typeId: TypeId.Secp256k1TransferInput, amount, signatureIndices } };
}

/**
 * A BaseTx built by hand, as an external client library builds it: spends the ewoq genesis
 * UTXO, pays `amount` AVAX to `to`, change back to ewoq, fee burnt.
 */
export function externalSend(to: Uint8Array, amount: bigint, overrides: Partial<BaseTx> = {}): BaseTx {
  const outputs = [transferOut(AVAX, amount, [to]), transferOut(AVAX, EWOQ_GENESIS_UTXO.amount - amount - FEE, [EWOQ])];
  outputs.sort(compareTransferableOutputs);
  return {
    typeId: TypeId.BaseTx,
    networkId: LOCAL_NETWORK.networkId,
    blockchainId: X_CHAIN,
    outputs,
    inputs: [transferIn(EWOQ_GENESIS_UTXO, AVAX, EWOQ_GENESIS_UTXO.amount)],
    memo: new Uint8Array(0),
    ...overrides,
  };
}

/** A UTXO of ewoq's to spend next. */
export interface Spendable {
  txId: Uint8Array;
  outputIndex: number;
  amount: bigint;
}

/**
 * Ewoq's BaseTx spending `spend`: 1 nAVAX to `recipient` (without one, only the change), the
 * change back to ewoq, the fee burnt; signed, with the change as the next UTXO to spend.
 */
export function ewoqSend(spend: Spendable, recipient?: Uint8Array): { bytes: Uint8Array; txId: Uint8Array; change: Spendable } {
  const change = spend.amount - (recipient === undefined ? 0n : 1n) - FEE;
  const outputs = [...(recipient === undefined ? [] : [transferOut(AVAX, 1n, [recipient])]), transferOut(AVAX, change, [EWOQ])].sort(compareTransferableOutputs);
  const { bytes, txId } = signed(
    { typeId: TypeId.BaseTx, networkId: LOCAL_NETWORK.networkId, blockchainId: X_CHAIN, outputs, inputs: [transferIn(spend, AVAX, spend.amount)], memo: new Uint8Array(0) },
    [[EWOQ_KEY]],
  );
  const outputIndex = outputs.findIndex((o) => (o.output as { amount: bigint }).amount === change);
  return { bytes, txId, change: { txId, outputIndex, amount: change } };
}

/** Sign with one key list per credential. */
export function signed(tx: UnsignedTx, keys: Uint8Array[][]): { bytes: Uint8Array; txId: Uint8Array } {
  const { bytes, txId } = signTx(tx, keys);
  return { bytes, txId };
}

export const cb58 = encodeCb58;

/** A UTXO the contract chain would put in the exchange chain's inbox when exporting. */
export function atomicUtxo(txId: Uint8Array, outputIndex: number, assetId: Uint8Array, amount: bigint, owner: Uint8Array): Utxo {
  return { txId, outputIndex, assetId, output: { typeId: TypeId.Secp256k1TransferOutput, amount, locktime: 0n, threshold: 1, addresses: [owner] } };
}
