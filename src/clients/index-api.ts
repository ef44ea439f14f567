/**
 * Client of the index API (`index.*` at `/ext/index/X/tx`, `/ext/index/X/vtx`,
 * `/ext/index/P/block`, `/ext/index/C/block`): the containers a chain accepted, in acceptance
 * order, and an async iterator that walks them page by page.
 *
 * ```ts
 * const txs = createIndexClient({ transport, index: "X/tx" });
 * for await (const c of txs.containers()) console.log(c.index, c.id, c.bytes.length);
 * ```
 */
import { type ByteEncoding, decodeNodeBytes } from "./bytes";
import { NodeApiError } from "./errors";
import { checkTransport, Endpoint } from "./call";
import type { Reader } from "./internal";
import type { Transport } from "./transport";
import type { RequestOptions } from "./types";

/** The indexes a node serves, by the tail of their path. */
export const INDEX_NAMES = ["X/tx", "X/vtx", "P/block", "C/block"] as const;
export type IndexPathName = (typeof INDEX_NAMES)[number];

/** Most containers one `getContainerRange` returns. */
export const MAX_CONTAINERS_PER_PAGE = 1024;

export interface IndexClientOptions {
  transport: Transport;
  /** Which index: "X/tx" (default), "X/vtx", "P/block", "C/block". */
  index?: IndexPathName;
  /** Encoding asked for (default "hex"); the bytes are decoded either way. */
  encoding?: ByteEncoding;
}

export interface IndexContainer {
  /** cb58 ID of the container. */
  readonly id: string;
  /** The container's bytes (decoded, checksum verified). */
  readonly bytes: Uint8Array;
  /** When the node accepted it: RFC 3339 with nanoseconds, as sent. */
  readonly timestamp: string;
  readonly encoding: ByteEncoding;
  /** Position in acceptance order, from 0. */
  readonly index: bigint;
}

export interface ContainerWalk {
  /** First index (default 0). */
  readonly start?: bigint;
  /** Stop after this many containers (default: up to the last accepted when the walk began). */
  readonly limit?: number;
  readonly options?: RequestOptions;
}

export interface IndexClient {
  readonly path: string;
  getLastAccepted(options?: RequestOptions): Promise<IndexContainer>;
  getContainerByIndex(index: bigint, options?: RequestOptions): Promise<IndexContainer>;
  getContainerByID(id: string, options?: RequestOptions): Promise<IndexContainer>;
  /** Containers `startIndex` .. `startIndex + numToFetch - 1` (1 to 1024), cut at the last accepted one. */
  getContainerRange(startIndex: bigint, numToFetch: number, options?: RequestOptions): Promise<IndexContainer[]>;
  getIndex(id: string, options?: RequestOptions): Promise<bigint>;
  isAccepted(id: string, options?: RequestOptions): Promise<boolean>;
  /**
   * Every container from `start` to the last one accepted when the walk begins, fetched 1024 at
   * a time; nothing when the index is empty.
   */
  containers(walk?: ContainerWalk): AsyncIterableIterator<IndexContainer>;
}

export function createIndexClient(options: IndexClientOptions): IndexClient {
  const transport = checkTransport("createIndexClient", options.transport);
  const name = options.index ?? "X/tx";
  if (!(INDEX_NAMES as readonly string[]).includes(name)) {
    throw new TypeError(`createIndexClient: index must be one of ${INDEX_NAMES.join(", ")}, got ${JSON.stringify(name)}`);
  }
  const encoding = options.encoding ?? "hex";
  const api = new Endpoint(transport, `/ext/index/${name}`, "index");
  const path = api.path;
  const readContainer = (r: Reader): IndexContainer => {
    const used = r.get("encoding").encoding<ByteEncoding>(["hex", "cb58"], encoding);
    return {
      id: r.get("id").string(),
      bytes: decodeNodeBytes(r.get("bytes").string(), used),
      timestamp: r.get("timestamp").string(),
      encoding: used,
      index: r.get("index").uint64(),
    };
  };
  const client: IndexClient = {
    path,
    getLastAccepted: (o) => api.call("getLastAccepted", () => ({ encoding }), readContainer, o),
    getContainerByIndex: (i, o) => api.call("getContainerByIndex", (args) => ({ index: args.uint64(i, "index"), encoding }), readContainer, o),
    getContainerByID: (containerId, o) => api.call("getContainerByID", (args) => ({ id: args.nonEmptyString(containerId, "id"), encoding }), readContainer, o),
    getContainerRange: (startIndex, numToFetch, o) =>
      api.call(
        "getContainerRange",
        (args) => ({ startIndex: args.uint64(startIndex, "startIndex"), numToFetch: args.integer(numToFetch, "numToFetch", 1, MAX_CONTAINERS_PER_PAGE), encoding }),
        (r) => r.get("containers").array().map(readContainer),
        o,
      ),
    getIndex: (containerId, o) => api.call("getIndex", (args) => ({ id: args.nonEmptyString(containerId, "id") }), (r) => r.get("index").uint64(), o),
    isAccepted: (containerId, o) => api.call("isAccepted", (args) => ({ id: args.nonEmptyString(containerId, "id") }), (r) => r.get("isAccepted").boolean(), o),
    containers: (walk = {}) => walkContainers(client, walk),
  };
  return client;
}

async function* walkContainers(client: IndexClient, walk: ContainerWalk): AsyncIterableIterator<IndexContainer> {
  let next = walk.start ?? 0n;
  let remaining = walk.limit ?? Number.POSITIVE_INFINITY;
  let last: bigint;
  try {
    last = (await client.getLastAccepted(walk.options)).index;
  } catch (error) {
    if (error instanceof NodeApiError && error.nodeMessage === "no containers have been accepted") return;
    throw error;
  }
  while (next <= last && remaining > 0) {
    const wanted = Math.min(MAX_CONTAINERS_PER_PAGE, remaining, Number(last - next + 1n));
    const page = await client.getContainerRange(next, wanted, walk.options);
    if (page.length === 0) return;
    for (const container of page) yield container;
    next += BigInt(page.length);
    remaining -= page.length;
  }
}
