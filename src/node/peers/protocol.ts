/**
 * The peer protocol of nativekit nodes (on each node's staking port), a design of this
 * simulator, not the reference node's wire protocol:
 *
 * - transport: TLS where each side presents its staking certificate, so each learns the other's
 *   node ID from the certificate itself (NodeID = hash of the certificate, see `staking.ts`);
 * - framing: one JSON object per line; bytes are 0x-hex;
 * - the client says `hello` first; the server answers `hello` or `refused` (then closes);
 * - `follow {from}`: the server sends every container it accepted from position `from` of its
 *   acceptance log (the global order across the C, X and P chains), then each new one as it
 *   accepts it;
 * - `forward`: a request the client's user sent it (a transaction) for the server to answer;
 * - `ping` / `pong` keep the link's liveness and its last-sent / last-received times.
 */
import type { ChainLetter } from "./acceptance-log";

/** The protocol's version: a node refuses a peer speaking another. */
export const PEER_PROTOCOL_VERSION = 1;

export interface Hello {
  type: "hello";
  protocol: number;
  nodeID: string;
  networkID: number;
  /** `nativekit/<version>` (info.getNodeVersion's version). */
  version: string;
  /** `--public-ip`:`--staking-port`. */
  publicIP: string;
  /** The node's HTTP API, `http://host:port`. */
  httpUrl: string;
  /** How many containers the node has accepted (the length of its acceptance log). */
  accepted: number;
  /** Accepted containers per chain (genesis not counted). */
  heights: Record<ChainLetter, number>;
  /** The contract chain's genesis block hash: nodes of one network share it. */
  genesis: string;
  /** Whether the node produces blocks (no bootstrap peers) or follows one. */
  producer: boolean;
}

export interface Refused {
  type: "refused";
  reason: string;
}

export interface Follow {
  type: "follow";
  /** Position in the sender's log to start from (0: the first container after genesis). */
  from: number;
  /** The ID (0x-hex) of the sender's container at `from - 1`: the server refuses a follower whose chain differs. */
  lastId?: string;
}

/** One accepted container, at position `seq` of the sender's acceptance log. */
export interface ContainerMessage {
  type: "container";
  seq: number;
  chain: ChainLetter;
  /** Container ID and bytes, as the index serves them. */
  id: string;
  bytes: string;
  /** For a contract-chain block with atomic transactions: their signed bytes, in block order. */
  atomic?: string[];
}

export interface Forward {
  type: "forward";
  rid: number;
  /** The HTTP path the request came to (e.g. `/ext/bc/C/rpc`). */
  path: string;
  method: string;
  params: unknown;
}

export interface Forwarded {
  type: "forwarded";
  rid: number;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
  /** The length of the sender's acceptance log once the request was answered. */
  accepted: number;
}

export interface Ping {
  type: "ping";
}

export interface Pong {
  type: "pong";
}

export type PeerMessage = Hello | Refused | Follow | ContainerMessage | Forward | Forwarded | Ping | Pong;

const TYPES = new Set<PeerMessage["type"]>(["hello", "refused", "follow", "container", "forward", "forwarded", "ping", "pong"]);

/** Encodes a message as one line. */
export function encodeMessage(message: PeerMessage): string {
  return `${JSON.stringify(message)}\n`;
}

/** Reads one line; throws naming what is wrong (the link is then closed). */
export function decodeMessage(line: string): PeerMessage {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error(`a peer message is not JSON: ${line.slice(0, 80)}`);
  }
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof type !== "string" || !TYPES.has(type as PeerMessage["type"])) throw new Error(`unknown peer message type ${JSON.stringify(type)}`);
  return value as PeerMessage;
}
