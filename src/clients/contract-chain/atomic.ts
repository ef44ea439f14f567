/**
 * The contract chain's atomic transactions (its extras API): `export` to and `import` from
 * another chain, reading one (`getAtomicTx`, `getAtomicTxStatus`), issuing a signed one and
 * waiting for it to be accepted.
 */
import { UINT256_MAX } from "../../encoding";
import { BYTE_ENCODINGS, type ByteEncoding } from "../bytes";
import type { Endpoint, WaitOptions } from "../call";
import { issueTx as issueSignedTx } from "../chain-methods";
import type { Args, Reader } from "../internal";
import { compact } from "../json";
import type { Credentials, EncodedBytes, RequestOptions } from "../types";

/** Status of an atomic transaction on the contract chain. */
export type AtomicTxStatus = "Accepted" | "Processing" | "Dropped" | "Unknown";
export const ATOMIC_TX_STATUSES: readonly AtomicTxStatus[] = ["Accepted", "Processing", "Dropped", "Unknown"];

export interface CvmExportParameters {
  readonly credentials: Credentials;
  /** Exchange-chain address, e.g. `X-local1…`. */
  readonly to: string;
  readonly amount: bigint;
  /** ID, or the native asset's alias. */
  readonly assetID: string;
  /**
   * Base fee (wei per gas) to pay; the node's suggestion when omitted. Sent as a 0x hex quantity,
   * the form the reference node accepts (`*hexutil.Big`).
   */
  readonly baseFee?: bigint;
}

export interface CvmImportParameters {
  readonly credentials: Credentials;
  /** The 0x address to credit; the user's keys must own the atomic UTXOs (same key as the export's `to`). */
  readonly to: string;
  /** ID or alias of the chain the funds come from, e.g. `X`. */
  readonly sourceChain: string;
  /** As for export: 0x hex quantity, the node's suggestion when omitted. */
  readonly baseFee?: bigint;
}

export interface GetAtomicTxParameters {
  readonly txID: string;
  readonly encoding?: ByteEncoding;
}

export interface AtomicTx {
  readonly tx: string;
  readonly encoding: ByteEncoding;
  /** Height of the block that accepted it; absent while not Accepted. */
  readonly blockHeight?: bigint;
}

export interface GetAtomicTxStatusParameters {
  readonly txID: string;
}

export interface AtomicTxStatusResult {
  readonly status: AtomicTxStatus;
  /** Present when Accepted. */
  readonly blockHeight?: bigint;
}

export interface CvmIssueTxParameters {
  readonly tx: EncodedBytes;
  readonly encoding?: ByteEncoding;
}

export type WaitForAtomicTxStatusOptions = WaitOptions<AtomicTxStatus>;

/** An optional base fee, sent as a 0x hex quantity. */
function baseFeeParam(args: Args, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "bigint") return args.type("baseFee", "a bigint (wei)", value);
  if (value < 0n || value > UINT256_MAX) throw new RangeError(`${args.method}: baseFee must be from 0 to 2^256-1, got ${value}`);
  return `0x${value.toString(16)}`;
}

function readBlockHeight(r: Reader): { blockHeight?: bigint } {
  const height = r.maybe("blockHeight");
  return height === undefined ? {} : { blockHeight: height.uint64() };
}

/** `export`: first step of a transfer to the exchange chain; returns the txID. */
export function exportToChain(extras: Endpoint, parameters: CvmExportParameters, options?: RequestOptions): Promise<string> {
  return extras.call(
    "export",
    (args) =>
      compact({
        to: args.string(args.object(parameters).to, "to"),
        amount: args.uint64(parameters.amount, "amount"),
        assetID: args.string(parameters.assetID, "assetID"),
        baseFee: baseFeeParam(args, parameters.baseFee),
        ...args.credentials(parameters.credentials),
      }),
    (r) => r.get("txID").string(),
    options,
  );
}

/** `import`: completes a transfer from another chain; returns the txID. */
export function importFromChain(extras: Endpoint, parameters: CvmImportParameters, options?: RequestOptions): Promise<string> {
  return extras.call(
    "import",
    (args) =>
      compact({
        to: args.string(args.object(parameters).to, "to"),
        sourceChain: args.nonEmptyString(parameters.sourceChain, "sourceChain"),
        baseFee: baseFeeParam(args, parameters.baseFee),
        ...args.credentials(parameters.credentials),
      }),
    (r) => r.get("txID").string(),
    options,
  );
}

export function getAtomicTx(extras: Endpoint, parameters: GetAtomicTxParameters, options?: RequestOptions): Promise<AtomicTx> {
  return extras.call(
    "getAtomicTx",
    (args) =>
      compact({
        txID: args.string(args.object(parameters).txID, "txID"),
        encoding: args.encoding(parameters.encoding, "encoding", BYTE_ENCODINGS),
      }),
    (r) => ({
      tx: r.get("tx").string(),
      encoding: r.encodingMember(BYTE_ENCODINGS, parameters.encoding ?? "cb58"),
      ...readBlockHeight(r),
    }),
    options,
  );
}

export function getAtomicTxStatus(
  extras: Endpoint,
  parameters: GetAtomicTxStatusParameters,
  options?: RequestOptions,
): Promise<AtomicTxStatusResult> {
  return extras.call(
    "getAtomicTxStatus",
    (args) => ({ txID: args.string(args.object(parameters).txID, "txID") }),
    (r) => ({ status: r.get("status").oneOf(ATOMIC_TX_STATUSES), ...readBlockHeight(r) }),
    options,
  );
}

/** Sends a signed atomic transaction; returns its txID. */
export function issueTx(extras: Endpoint, parameters: CvmIssueTxParameters, options?: RequestOptions): Promise<string> {
  return issueSignedTx(extras, parameters, options);
}

/**
 * Polls `getAtomicTxStatus` until Accepted (resolves with the block height). Throws
 * {@link TxRejectedError} when Dropped and {@link TxWaitTimeoutError} after `timeoutMs`;
 * Processing and Unknown keep it waiting.
 */
export async function waitForAtomicTxStatus(
  extras: Endpoint,
  txID: string,
  options?: WaitForAtomicTxStatusOptions,
): Promise<AtomicTxStatusResult> {
  return extras.waitForStatus<AtomicTxStatus, AtomicTxStatusResult>({
    waiter: "waitForAtomicTxStatus",
    statusMethod: "getAtomicTxStatus",
    txID,
    poll: () => getAtomicTxStatus(extras, { txID }, { signal: options?.signal }),
    accepted: "Accepted",
    failed: ["Dropped"],
    options,
  });
}
