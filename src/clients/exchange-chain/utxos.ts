/** The exchange chain's UTXOs: one page (`getUTXOs`), or every page (`iterateUTXOs`). */
import type { ByteEncoding } from "../bytes";
import type { Endpoint } from "../call";
import type { RequestOptions, UTXOIndex, UTXOPage } from "../types";
import { getUTXOPage, iterateUTXOPagesOf } from "../utxos";

export interface GetUTXOsParameters {
  readonly addresses: readonly string[];
  /** At most 1024 (also the default); larger values act as 1024. */
  readonly limit?: number;
  /** The `endIndex` of the previous page. */
  readonly startIndex?: UTXOIndex;
  /** Set to get the atomic UTXOs exported from that chain to this one. */
  readonly sourceChain?: string;
  readonly encoding?: ByteEncoding;
}

export type IterateUTXOsParameters = GetUTXOsParameters;

export function getUTXOs(chain: Endpoint, parameters: GetUTXOsParameters, options?: RequestOptions): Promise<UTXOPage> {
  return getUTXOPage(chain, parameters, false, options);
}

export function iterateUTXOs(
  chain: Endpoint,
  parameters: IterateUTXOsParameters,
  options?: RequestOptions,
): AsyncGenerator<string, void, undefined> {
  return iterateUTXOPagesOf(chain, parameters, false, options);
}
