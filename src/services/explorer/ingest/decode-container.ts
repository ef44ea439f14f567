/**
 * One container of the exchange-chain or platform-chain index decoded into rows, with nothing
 * asked of the node or the database: the same function runs on the ingest thread and on the
 * decoding threads (decode-threads.ts). A container that cannot be decoded (an unknown
 * transaction type) keeps its raw bytes and the reason.
 */
import type { ExplorerContext } from "../context";
import { decodeExchangeTx } from "./exchange-tx";
import { hexOf, millisOf } from "./outputs";
import { decodePlatformBlock } from "./platform-block";
import type { DecodedContainer } from "./rows";

/** The indexes whose containers decode without the node (the contract chain's need its receipts). */
export type SelfContainedIndex = "X-tx" | "P-block";

/** What a decoder needs of an index container (the client's IndexContainer has more). */
export interface RawContainer {
  readonly index: bigint;
  readonly id: string;
  readonly bytes: Uint8Array;
  readonly timestamp: string;
}

export function decodeSelfContained(context: ExplorerContext, name: SelfContainedIndex, container: RawContainer): DecodedContainer {
  const acceptedAt = millisOf(container.timestamp);
  const decoded: DecodedContainer = { index: container.index, id: container.id, bytes: hexOf(container.bytes), acceptedAt, transactions: [] };
  try {
    if (name === "X-tx") decoded.transactions.push(decodeExchangeTx(context, container.bytes, acceptedAt));
    else {
      const { block, transactions } = decodePlatformBlock(context, container.bytes, acceptedAt);
      decoded.pBlock = block;
      decoded.transactions.push(...transactions);
    }
  } catch (error) {
    decoded.problem = error instanceof Error ? error.message : String(error);
  }
  return decoded;
}
