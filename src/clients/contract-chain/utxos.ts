/** The contract chain's atomic UTXOs, exported to it from another chain: one page, or every page. */
import type { ByteEncoding } from "../bytes";
import type { Endpoint } from "../call";
import type { RequestOptions, UTXOIndex, UTXOPage } from "../types";
import { getUTXOPage, iterateUTXOPagesOf } from "../utxos";

export interface CvmGetUTXOsParameters {
  /** Addresses with the `C-` prefix. */
  readonly addresses: readonly string[];
  /** Required here: the chain the atomic UTXOs were exported from, e.g. `X`. */
  readonly sourceChain: string;
  readonly limit?: number;
  readonly startIndex?: UTXOIndex;
  readonly encoding?: ByteEncoding;
}

export type CvmIterateUTXOsParameters = CvmGetUTXOsParameters;

/** One page of atomic UTXOs exported to this chain from `sourceChain`. */
export function getUTXOs(extras: Endpoint, parameters: CvmGetUTXOsParameters, options?: RequestOptions): Promise<UTXOPage> {
  return getUTXOPage(extras, parameters, true, options);
}

/** Every such UTXO, page after page, each once. */
export function iterateUTXOs(
  extras: Endpoint,
  parameters: CvmIterateUTXOsParameters,
  options?: RequestOptions,
): AsyncGenerator<string, void, undefined> {
  return iterateUTXOPagesOf(extras, parameters, true, options);
}
