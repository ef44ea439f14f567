/**
 * How a follower applies a container its producer accepted: by re-executing and verifying it
 * on its own state, never by copying the producer's result.
 *
 * - contract chain: the block (raw RLP, or wrapped in a proposer block) must extend this
 *   node's head, its transaction list must match its header's transactions root, and running
 *   its transactions (or its atomic transaction, whose signed bytes come beside it: the RLP
 *   does not carry them) on this node's state with the block's own header fields must give the
 *   same block hash, so the same state root, receipts and logs;
 * - exchange chain: the signed transaction goes through the chain's own verification (syntax,
 *   fees, signatures, UTXOs) and is accepted; its ID must be the container's;
 * - platform chain: the block must be the next block of one transaction, whose transaction goes
 *   through the chain's verification (see `PlatformChain.acceptBlock`).
 *
 * A container that fails is refused with a `ReplayRefusedError` naming why. Known gap: a
 * contract-chain block whose re-execution gives another hash has by then been added to this
 * node's chain (the engine cannot take a block back without a snapshot); the follower then
 * stops following and reports unhealthy, and its data directory must not be used again.
 */
import { createBlockFromRLP, type Block } from "@ethereumjs/block";
import { sha256 } from "@noble/hashes/sha2.js";
import type { ContractChainAtomics } from "../../cchain";
import { encodeCb58, equalBytes } from "../../encoding";
import type { Engine } from "../../engine/engine";
import type { ExchangeChain } from "../../xchain/vm";
import type { PlatformChain } from "../../pchain";
import { decodeProposerBlock, proposerBlockId } from "../indexer/proposer-block";
import type { ChainLetter } from "./acceptance-log";

export class ReplayRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReplayRefusedError";
  }
}

/** The chains a follower applies containers to. */
export interface ReplayTarget {
  engine: Engine;
  atomics: ContractChainAtomics;
  exchange: ExchangeChain;
  platform: PlatformChain;
}

export interface ReceivedContainer {
  chain: ChainLetter;
  id: Uint8Array;
  bytes: Uint8Array;
  /** Signed atomic transactions of a contract-chain block. */
  atomic: readonly Uint8Array[];
}

/** Applies one container to `target`, verifying it; throws ReplayRefusedError when it is refused. */
export async function replayContainer(target: ReplayTarget, container: ReceivedContainer): Promise<void> {
  try {
    switch (container.chain) {
      case "C":
        return await replayContractBlock(target, container);
      case "X":
        return await replayExchangeTx(target, container);
      case "P":
        return await replayPlatformBlock(target, container);
    }
  } catch (error) {
    if (error instanceof ReplayRefusedError) throw error;
    throw new ReplayRefusedError(`${container.chain} container ${encodeCb58(container.id)} refused: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const hex = (bytes: Uint8Array): string => `0x${Buffer.from(bytes).toString("hex")}`;

/** The RLP block of a contract-chain container, its ID checked against its bytes. */
function contractBlockOf(engine: Engine, container: ReceivedContainer): Block {
  let rlp = container.bytes;
  let wrapped = false;
  try {
    rlp = decodeProposerBlock(container.bytes).block;
    wrapped = true;
  } catch {
    // Not a proposer block: the raw RLP block (the chain's first).
  }
  const block = createBlockFromRLP(rlp, { common: engine.common, setHardfork: false });
  const expectedId = wrapped ? proposerBlockId(container.bytes) : block.hash();
  if (!equalBytes(expectedId, container.id)) throw new ReplayRefusedError(`C container ${encodeCb58(container.id)} refused: its ID is not the ID of its bytes (${encodeCb58(expectedId)})`);
  return block;
}

async function replayContractBlock(target: ReplayTarget, container: ReceivedContainer): Promise<void> {
  const { engine, atomics } = target;
  const block = contractBlockOf(engine, container);
  const header = block.header;
  const number = header.number;
  const refuse = (why: string) => new ReplayRefusedError(`C block ${number} (${hex(block.hash())}) refused: ${why}`);
  const head = engine.head;
  if (number !== head.number + 1n) throw refuse(`this node's head is block ${head.number}`);
  if (hex(header.parentHash) !== head.hash) throw refuse(`its parent ${hex(header.parentHash)} is not this node's head ${head.hash}`);
  if (!(await block.transactionsTrieIsValid())) throw refuse("its transactions do not match its header's transactions root");
  engine.pinNextHeader({
    timestamp: header.timestamp,
    baseFeePerGas: header.baseFeePerGas ?? 0n,
    gasLimit: header.gasLimit,
    coinbase: header.coinbase.toString() as `0x${string}`,
    mixHash: header.mixHash,
  });
  if (container.atomic.length > 0) {
    // This simulator accepts each atomic transaction in a block of its own, with no other transaction.
    if (container.atomic.length !== 1 || block.transactions.length > 0) throw refuse("a block with an atomic transaction must hold only that one");
    await atomics.acceptHere(container.atomic[0]!);
  } else {
    const pooled = await Promise.all(block.transactions.map((tx) => engine.decodeRawTransaction(tx.serialize())));
    const { rejected } = await engine.serialize(() => engine.mineBlock({ transactions: pooled }));
    if (rejected.length > 0) throw refuse(`transaction ${rejected[0]!.pooled.hash} does not run on this node's state: ${rejected[0]!.error.message}`);
  }
  const mined = engine.head;
  if (mined.hash !== hex(block.hash())) {
    const ours = mined.block.header;
    throw refuse(
      `re-executing it gave block ${mined.hash} (state root ${hex(ours.stateRoot)}, gas used ${ours.gasUsed}) instead (state root ${hex(header.stateRoot)}, gas used ${header.gasUsed}); this node's chain now differs from the producer's`,
    );
  }
}

async function replayExchangeTx(target: ReplayTarget, container: ReceivedContainer): Promise<void> {
  const id = sha256(container.bytes);
  if (!equalBytes(id, container.id)) throw new ReplayRefusedError(`X transaction ${encodeCb58(container.id)} refused: its bytes hash to ${encodeCb58(id)}`);
  await target.engine.serialize(() => target.exchange.accept(container.bytes));
}

async function replayPlatformBlock(target: ReplayTarget, container: ReceivedContainer): Promise<void> {
  const id = sha256(container.bytes);
  if (!equalBytes(id, container.id)) throw new ReplayRefusedError(`P block ${encodeCb58(container.id)} refused: its bytes hash to ${encodeCb58(id)}`);
  await target.engine.serialize(() => target.platform.acceptBlock(container.bytes));
}
