import { decodeCb58, encodeCb58, encodeNodeBytes, EncodingError, NODE_BYTE_ENCODINGS, type NodeByteEncoding } from "../../encoding";
import { RpcApi, describeValue, invalidParams, serverError, type NamedParams } from "../../rpc";
import type { ContainerIndex } from "./container-index";
import { IndexError } from "./errors";
import type { StoredContainer } from "./store";
import { formatNodeTimestamp } from "./timestamp";

/**
 * The index API of one index (`/ext/index/X/tx`, `/ext/index/X/vtx`, `/ext/index/P/block`,
 * `/ext/index/C/block`): `index.getLastAccepted`, `getContainerByIndex`, `getContainerByID`,
 * `getContainerRange`, `getIndex` and `isAccepted`, with the reference node's parameter names,
 * result shapes and error messages (avalanchego `indexer/service.go`).
 *
 * A container is `{id, bytes, timestamp, encoding, index}`: `bytes` in the requested encoding
 * (default hex: 0x + hex + 4-byte checksum), `timestamp` RFC 3339 with nanoseconds in the node's
 * time zone, `index` a decimal string. Encodings: hex, hexc, hexnc and — unlike the reference
 * since v1.8.0, which refuses it — cb58, which the seed's documentation lists and older clients
 * send. IDs are given as `id` (the reference's name) or `containerID` (the seed's).
 */
export function createIndexApi(index: ContainerIndex): RpcApi {
  return new RpcApi({ mapError: indexError }).namedMethods(index, {
    "index.getLastAccepted": getLastAccepted,
    "index.getContainerByIndex": getContainerByIndex,
    "index.getContainerByID": getContainerByID,
    "index.getContainerRange": getContainerRange,
    "index.getIndex": getIndex,
    "index.isAccepted": isAccepted,
  });
}

/** {encoding?}: the container accepted last. */
async function getLastAccepted(index: ContainerIndex, params: NamedParams): Promise<FormattedContainer> {
  return formatContainer(await index.lastAccepted(), encodingOf(params));
}

/** {index, encoding?}: the container accepted at that position. */
async function getContainerByIndex(index: ContainerIndex, params: NamedParams): Promise<FormattedContainer> {
  return formatContainer(await index.byIndex(params.uint("index", 64, 0n)), encodingOf(params));
}

/** {id, encoding?}: the container with that ID. */
async function getContainerByID(index: ContainerIndex, params: NamedParams): Promise<FormattedContainer> {
  return formatContainer(await index.byId(containerId(params)), encodingOf(params));
}

/** {startIndex, numToFetch, encoding?}: consecutive containers from a position. */
async function getContainerRange(index: ContainerIndex, params: NamedParams): Promise<{ containers: FormattedContainer[] }> {
  const encoding = encodingOf(params);
  const containers = await index.range(params.uint("startIndex", 64, 0n), params.uint("numToFetch", 64, 0n));
  return { containers: containers.map((c) => formatContainer(c, encoding)) };
}

/** {id}: the container's position, in decimal. */
async function getIndex(index: ContainerIndex, params: NamedParams): Promise<{ index: string }> {
  return { index: String(await index.indexOf(containerId(params))) };
}

/** {id}: whether the container was accepted. */
async function isAccepted(index: ContainerIndex, params: NamedParams): Promise<{ isAccepted: boolean }> {
  return { isAccepted: await index.isAccepted(containerId(params)) };
}

/** The wire form of a container. */
export interface FormattedContainer {
  id: string;
  bytes: string;
  timestamp: string;
  encoding: NodeByteEncoding;
  index: string;
}

function formatContainer(container: StoredContainer, encoding: NodeByteEncoding): FormattedContainer {
  return {
    id: encodeCb58(container.id),
    bytes: encodeNodeBytes(container.bytes, encoding),
    timestamp: formatNodeTimestamp(container.timestamp),
    encoding,
    index: String(container.index),
  };
}

/** `encoding`: absent is hex, as on the reference node; names are case-insensitive there too. */
function encodingOf(p: NamedParams): NodeByteEncoding {
  const given = p.optionalString("encoding");
  if (given === undefined) return "hex";
  const encoding = NODE_BYTE_ENCODINGS.find((e) => e === given.toLowerCase());
  if (encoding === undefined) throw invalidParams(`invalid encoding ${describeValue(given)}: use "hex" (0x + hex + checksum), "hexnc", "hexc" or "cb58"`);
  return encoding;
}

/** The 32-byte ID named by `id` (or the seed's `containerID`), in cb58. */
function containerId(p: NamedParams): Uint8Array {
  const name = p.given("id") || !p.given("containerID") ? "id" : "containerID";
  const text = p.string(name, "missing parameter id (the container's cb58 ID)");
  let bytes: Uint8Array;
  try {
    bytes = decodeCb58(text);
  } catch (error) {
    if (error instanceof EncodingError) throw invalidParams(`${name} ${describeValue(text)} is not a cb58 ID: ${error.message}`);
    throw error;
  }
  if (bytes.length !== 32) throw invalidParams(`${name} ${describeValue(text)} is not an ID: it holds ${bytes.length} bytes, an ID 32`);
  return bytes;
}

function indexError(error: unknown) {
  return error instanceof IndexError ? serverError(error.message) : undefined;
}
