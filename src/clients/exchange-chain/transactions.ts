/**
 * The exchange chain's transactions: reading one (`getTx`, `getTxStatus`), an address's history
 * (`getAddressTxs`, `iterateAddressTxs`), issuing a signed one (`issueTx`) and waiting for it
 * to be accepted (`waitForTxStatus`).
 */
import type { ByteEncoding } from "../bytes";
import type { Endpoint, WaitOptions } from "../call";
import { issueTx as issueSignedTx } from "../chain-methods";
import { Reader } from "../internal";
import { compact, type JsonObject, type JsonValue, parseJsonLossless } from "../json";
import type { EncodedBytes, RequestOptions } from "../types";

/** Status of an exchange-chain transaction. */
export type XvmTxStatus = "Accepted" | "Processing" | "Rejected" | "Unknown";
export const XVM_TX_STATUSES: readonly XvmTxStatus[] = ["Accepted", "Processing", "Rejected", "Unknown"];

export interface GetAddressTxsParameters {
  readonly address: string;
  /** ID or alias: only transactions changing the balance of this asset. */
  readonly assetID: string;
  /** The `cursor` of the previous page; omitted for the first page. */
  readonly cursor?: bigint;
  /** Default 1024. */
  readonly pageSize?: number;
}

export interface AddressTxsPage {
  readonly txIDs: readonly string[];
  /** Pass as `cursor` to get the next page. */
  readonly cursor: bigint;
}

export type IterateAddressTxsParameters = GetAddressTxsParameters;

/** Encodings of `getTx`: the byte encodings, or `json` for a decoded transaction object. */
export type TxEncoding = ByteEncoding | "json";

export interface GetTxParameters<E extends TxEncoding = TxEncoding> {
  readonly txID: string;
  /** Default cb58. */
  readonly encoding?: E;
}

/** Result of `getTx`: bytes in cb58 or hex, or with `json` the transaction as an object. */
export type GetTxResult<E extends TxEncoding = ByteEncoding> = E extends "json"
  ? { readonly tx: JsonObject; readonly encoding: "json" }
  : { readonly tx: string; readonly encoding: ByteEncoding };

export interface GetTxStatusParameters {
  readonly txID: string;
}

export interface IssueTxParameters {
  /** The signed transaction: a string in `encoding`, or bytes (encoded by the client, hex by default). */
  readonly tx: EncodedBytes;
  readonly encoding?: ByteEncoding;
}

export type WaitForTxStatusOptions = WaitOptions<XvmTxStatus>;

/** One page of an address's transactions (needs transaction indexing on the node). */
export function getAddressTxs(
  chain: Endpoint,
  parameters: GetAddressTxsParameters,
  options?: RequestOptions,
): Promise<AddressTxsPage> {
  return chain.call(
    "getAddressTxs",
    (args) =>
      compact({
        address: args.string(args.object(parameters).address, "address"),
        cursor: args.optionalUint64(parameters.cursor, "cursor"),
        assetID: args.string(parameters.assetID, "assetID"),
        pageSize: args.optionalInteger(parameters.pageSize, "pageSize", 1, Number.MAX_SAFE_INTEGER),
      }),
    (r) => ({ txIDs: r.get("txIDs").stringArray(), cursor: r.get("cursor").uint64() }),
    options,
  );
}

/** Every transaction ID of an address, page after page, each once. */
export async function* iterateAddressTxs(
  chain: Endpoint,
  parameters: IterateAddressTxsParameters,
  options?: RequestOptions,
): AsyncGenerator<string, void, undefined> {
  const pageSize = parameters.pageSize ?? 1024;
  const seen = new Set<string>();
  let cursor = parameters.cursor;
  for (;;) {
    const page = await getAddressTxs(chain, { ...parameters, cursor }, options);
    for (const txID of page.txIDs) {
      if (seen.has(txID)) continue;
      seen.add(txID);
      yield txID;
    }
    if (page.txIDs.length === 0 || page.txIDs.length < pageSize || page.cursor === cursor) return;
    cursor = page.cursor;
  }
}

/** A transaction: its bytes (cb58 or hex), or with encoding `json` the decoded object. */
export function getTx(
  chain: Endpoint,
  parameters: GetTxParameters,
  options?: RequestOptions,
): Promise<GetTxResult<ByteEncoding> | GetTxResult<"json">> {
  return chain.call(
    "getTx",
    (args) =>
      compact({
        txID: args.string(args.object(parameters).txID, "txID"),
        encoding: args.encoding(parameters.encoding, "encoding", ["cb58", "hex", "json"] as const),
      }),
    (r) => readTx(r, parameters.encoding),
    options,
  );
}

function readTx(r: Reader, requested: TxEncoding | undefined): GetTxResult<ByteEncoding> | GetTxResult<"json"> {
  const encoding = r.encodingMember(["cb58", "hex", "json"] as const, requested ?? "cb58");
  if (encoding !== "json") return { tx: r.get("tx").string(), encoding };
  const tx = r.get("tx");
  if (typeof tx.value !== "string") return { tx: tx.object(), encoding };
  // Some nodes send the JSON form as a string holding the object.
  let parsed: JsonValue;
  try {
    parsed = parseJsonLossless(tx.value);
  } catch {
    return tx.fail("a transaction object (encoding json)");
  }
  return { tx: new Reader(tx.context, parsed, tx.where).object(), encoding };
}

export function getTxStatus(chain: Endpoint, parameters: GetTxStatusParameters, options?: RequestOptions): Promise<XvmTxStatus> {
  return chain.call(
    "getTxStatus",
    (args) => ({ txID: args.string(args.object(parameters).txID, "txID") }),
    (r) => r.get("status").oneOf(XVM_TX_STATUSES),
    options,
  );
}

/** Sends a signed transaction; returns its txID. */
export function issueTx(chain: Endpoint, parameters: IssueTxParameters, options?: RequestOptions): Promise<string> {
  return issueSignedTx(chain, parameters, options);
}

/**
 * Polls `getTxStatus` until the transaction is Accepted. Throws {@link TxRejectedError} when it
 * is Rejected and {@link TxWaitTimeoutError} (with the last status) after `timeoutMs`.
 */
export async function waitForTxStatus(chain: Endpoint, txID: string, options?: WaitForTxStatusOptions): Promise<"Accepted"> {
  await chain.waitForStatus<XvmTxStatus, { status: XvmTxStatus }>({
    waiter: "waitForTxStatus",
    statusMethod: "getTxStatus",
    txID,
    poll: async () => ({ status: await getTxStatus(chain, { txID }, { signal: options?.signal }) }),
    accepted: "Accepted",
    failed: ["Rejected"],
    options,
  });
  return "Accepted";
}
