/**
 * The UTXO paging core shared by the chain clients: {@link getUTXOPage} (one page: the query's
 * checks, the request, the page read back) and {@link iterateUTXOPagesOf} (every page, by the
 * node's endIndex / startIndex rules). @internal
 */
import { BYTE_ENCODINGS, type ByteEncoding } from "./bytes";
import type { Endpoint } from "./call";
import type { Args, Reader } from "./internal";
import { compact, type JsonObject } from "./json";
import { MAX_UTXOS_PER_PAGE, type RequestOptions, type UTXOIndex, type UTXOPage } from "./types";

/** What both chains' `getUTXOs` take. */
export interface UTXOQuery {
  readonly addresses: readonly string[];
  readonly limit?: number;
  readonly startIndex?: UTXOIndex;
  readonly sourceChain?: string;
  readonly encoding?: ByteEncoding;
}

/**
 * One page of the UTXOs of `parameters.addresses` from the API at `endpoint` (its `getUTXOs`
 * method). `sourceChainRequired`: the contract chain only holds atomic UTXOs, so it needs the
 * chain they came from.
 */
export function getUTXOPage(
  endpoint: Endpoint,
  parameters: UTXOQuery,
  sourceChainRequired: boolean,
  options?: RequestOptions,
): Promise<UTXOPage> {
  return endpoint.call(
    "getUTXOs",
    (args) => utxoParams(args, parameters, sourceChainRequired),
    (r) => readUTXOPage(r, parameters.encoding),
    options,
  );
}

/** Every UTXO of `parameters.addresses`, page after page by {@link getUTXOPage}, each once. */
export function iterateUTXOPagesOf(
  endpoint: Endpoint,
  parameters: UTXOQuery,
  sourceChainRequired: boolean,
  options?: RequestOptions,
): AsyncGenerator<string, void, undefined> {
  return iterateUTXOPages(
    (startIndex) => getUTXOPage(endpoint, { ...parameters, startIndex }, sourceChainRequired, options),
    parameters,
  );
}

function utxoParams(args: Args, query: UTXOQuery, sourceChainRequired: boolean): JsonObject {
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

function readUTXOPage(r: Reader, requested: ByteEncoding | undefined): UTXOPage {
  const endIndex = r.get("endIndex");
  const sourceChain = r.maybe("sourceChain")?.string();
  return {
    numFetched: r.get("numFetched").count(),
    utxos: r.get("utxos").stringArray(),
    endIndex: { address: endIndex.get("address").string(), utxo: endIndex.get("utxo").string() },
    ...(sourceChain === undefined || sourceChain === "" ? {} : { sourceChain }),
    encoding: r.encodingMember(BYTE_ENCODINGS, requested ?? "cb58"),
  };
}

/**
 * Every UTXO of `query.addresses`, page after page: each page starts at the previous page's
 * `endIndex`; the walk ends when a page holds fewer than the limit (the node's rule). UTXOs seen
 * on an earlier page are not yielded again (pages may repeat them).
 */
async function* iterateUTXOPages(
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
