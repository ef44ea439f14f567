/** The platform chain's transactions: reading one, its status, and issuing a signed one. */
import type { ByteEncoding } from "../bytes";
import type { Endpoint } from "../call";
import { issueTx as issueSignedTx } from "../chain-methods";
import { compact, type JsonObject } from "../json";
import type { EncodedBytes, RequestOptions } from "../types";

export const PLATFORM_TX_STATUSES = ["Committed", "Aborted", "Processing", "Dropped", "Unknown"] as const;
export type PlatformTxStatus = (typeof PLATFORM_TX_STATUSES)[number];

export interface PlatformGetTxParameters {
  txID: string;
  encoding?: "hex" | "json";
}

/** A transaction: hex bytes, or with encoding `json` the transaction as an object. */
export interface PlatformTx {
  tx: string | JsonObject;
  encoding: string;
}

export interface PlatformGetTxStatusParameters {
  txID: string;
}

export interface PlatformIssueTxParameters {
  tx: EncodedBytes;
  encoding?: ByteEncoding;
}

export function getTx(chain: Endpoint, parameters: PlatformGetTxParameters, options?: RequestOptions): Promise<PlatformTx> {
  return chain.call(
    "getTx",
    (args) => compact({ txID: args.string(args.object(parameters).txID, "txID"), encoding: parameters.encoding }),
    (r) => ({
      tx: r.get("encoding").string() === "json" ? r.get("tx").object() : r.get("tx").string(),
      encoding: r.get("encoding").string(),
    }),
    options,
  );
}

export function getTxStatus(
  chain: Endpoint,
  parameters: PlatformGetTxStatusParameters,
  options?: RequestOptions,
): Promise<PlatformTxStatus> {
  return chain.call(
    "getTxStatus",
    (args) => ({ txID: args.string(args.object(parameters).txID, "txID") }),
    (r) => r.get("status").oneOf(PLATFORM_TX_STATUSES),
    options,
  );
}

/** Sends a signed transaction; returns its txID. */
export function issueTx(chain: Endpoint, parameters: PlatformIssueTxParameters, options?: RequestOptions): Promise<string> {
  return issueSignedTx(chain, parameters, options);
}
