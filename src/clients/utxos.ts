/** `getUTXOs` paging shared by the exchange-chain and contract-chain clients. @internal */
import { type ByteEncoding, BYTE_ENCODINGS } from "./bytes";
import { Args, invoke, type Reader } from "./internal";
import { compact } from "./json";
import type { Transport } from "./transport";
import { MAX_UTXOS_PER_PAGE, type RequestOptions, type UTXOIndex, type UTXOPage } from "./types";

export interface UTXOQuery {
  readonly addresses: readonly string[];
  readonly limit?: number;
  readonly startIndex?: UTXOIndex;
  readonly sourceChain?: string;
  readonly encoding?: ByteEncoding;
}

export function utxoParams(args: Args, query: UTXOQuery, sourceChainRequired: boolean) {
  args.object(query);
  const addresses = args.stringArray(query.addresses, "addresses", { nonEmpty: true });
  const limit = args.optionalInteger(query.limit, "limit", 0, 0xffff_ffff);
  let startIndex: { address: string; utxo: string } | undefined;
  if (query.startIndex !== undefined) {
    args.object(query.startIndex, "startIndex");
    startIndex = {
      address: args.string(query.startIndex.address, "startIndex.address"),
      utxo: args.string(query.startIndex.utxo, "startIndex.utxo"),
    };
  }
  const sourceChain = sourceChainRequired
    ? args.nonEmptyString(query.sourceChain, "sourceChain")
    : args.optionalString(query.sourceChain, "sourceChain");
  const encoding = args.encoding(query.encoding, "encoding", BYTE_ENCODINGS);
  return compact({ addresses, limit, startIndex, sourceChain, encoding });
}

export function readUTXOPage(r: Reader, requested: ByteEncoding | undefined): UTXOPage {
  const endIndex = r.get("endIndex");
  const sourceChain = r.maybe("sourceChain")?.string();
  return {
    numFetched: r.get("numFetched").count(),
    utxos: r.get("utxos").stringArray(),
    endIndex: { address: endIndex.get("address").string(), utxo: endIndex.get("utxo").string() },
    ...(sourceChain === undefined || sourceChain === "" ? {} : { sourceChain }),
    encoding: r.maybe("encoding")?.encoding(BYTE_ENCODINGS, requested ?? "cb58") ?? requested ?? "cb58",
  };
}

export function getUTXOPage(
  transport: Transport,
  path: string,
  method: string,
  query: UTXOQuery,
  sourceChainRequired: boolean,
  options?: RequestOptions,
): Promise<UTXOPage> {
  const args = new Args(method);
  const params = utxoParams(args, query, sourceChainRequired);
  return invoke(transport, path, method, params, (r) => readUTXOPage(r, query.encoding), options);
}

/**
 * Every UTXO of `query.addresses`, page after page: each page starts at the previous page's
 * `endIndex`; the walk ends when a page holds fewer than the limit (the node's rule). UTXOs seen
 * on an earlier page are not yielded again (pages may repeat them).
 */
export async function* iterateUTXOPages(
  fetchPage: (startIndex: UTXOIndex | undefined) => Promise<UTXOPage>,
  query: UTXOQuery,
): AsyncGenerator<string, void, undefined> {
  const limit =
    query.limit === undefined || query.limit <= 0 || query.limit > MAX_UTXOS_PER_PAGE ? MAX_UTXOS_PER_PAGE : query.limit;
  const seen = new Set<string>();
  let startIndex = query.startIndex;
  for (;;) {
    const page = await fetchPage(startIndex);
    for (const utxo of page.utxos) {
      const key = page.encoding === "hex" ? utxo.toLowerCase() : utxo;
      if (seen.has(key)) continue;
      seen.add(key);
      yield utxo;
    }
    if (page.numFetched < limit) return;
    // A node that does not move its end index would make us loop forever.
    if (
      startIndex !== undefined &&
      page.endIndex.address === startIndex.address &&
      page.endIndex.utxo === startIndex.utxo
    ) {
      return;
    }
    startIndex = page.endIndex;
  }
}
