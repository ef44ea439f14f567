import type { BlockRecord } from "../engine/chain";
import type { Engine } from "../engine";
import { equalBytes } from "../encoding";
import { ContractChainContainers, LAST_UNWRAPPED_BLOCK } from "./indexer/contract-chain-containers";
import { decodeProposerBlock } from "./indexer/proposer-block";
import type { KeptContainerIds } from "./indexer/stored-container-ids";
import type { ChainAlias } from "../network/chains";
import type { AcceptedTx } from "../xchain/vm";

/**
 * What each chain of the node accepts, as the reference node's acceptor groups announce it to
 * the index and the IPC sockets:
 *
 *   consensus  accepted blocks (or vertices)
 *   decisions  accepted transactions; on a block chain, the same block bytes
 *
 * The contract chain announces its blocks on both (as containers: see
 * `ContractChainContainers`); the exchange chain announces its signed transactions on
 * `decisions` (this simulator accepts them one by one: no vertices, no blocks); the platform
 * chain announces each of its blocks on both, like the contract chain.
 *
 * What a chain accepted before is read from the chain only when a consumer asks, and only from
 * where it asks (a chain kept in `--db-dir` reads its blocks from the store): the node's start
 * does not grow with its chains.
 */
export type AcceptanceStream = "consensus" | "decisions";

export type AcceptingChain = "C" | "X" | "P";

export interface AcceptedContainer {
  readonly id: Uint8Array;
  readonly bytes: Uint8Array;
}

export type AcceptanceListener = (container: AcceptedContainer) => void;

/** The chains the node observes: the engine's block stream and the exchange chain's acceptances. */
export interface AcceptanceSources {
  contract: {
    onBlock(listener: (record: BlockRecord) => void): () => void;
    /** The number of the chain's head block. */
    headNumber(): bigint;
    /** The chain's block at `number` (genesis 0, at most the head), read from its store when not cached. */
    blockAt(number: bigint): BlockRecord;
  };
  exchange: {
    onAccept(listener: (tx: AcceptedTx) => void): () => void;
    /** How many transactions were accepted (genesis included). */
    acceptedCount(): number;
    /** The accepted transaction at `index` in acceptance order (genesis first, flagged), read from its store when not cached. */
    acceptedTxAt(index: number): AcceptedTx | undefined;
  };
  /** The platform chain's blocks (absent: nothing is announced for P). */
  platform?: {
    onAccept(listener: (block: AcceptedContainer) => void): () => void;
    /** The height of the last accepted block (genesis: 0). */
    readonly height: bigint;
    /** The accepted block at `height`, read from its store when not cached. */
    getBlockByHeight(height: bigint): AcceptedContainer | undefined;
  };
  /** Told when a listener throws (a listener must never stop a chain). */
  report(problem: string): void;
}

/** The first `count` containers a consumer holds of a chain's history, the last of them `last`. */
export interface HeldContainers {
  readonly count: bigint;
  readonly last: AcceptedContainer;
}

/** The engine's chain as a source of accepted blocks. */
export function engineBlocks(engine: Engine): AcceptanceSources["contract"] {
  return {
    onBlock: (listener) => engine.onBlock(listener),
    headNumber: () => engine.head.number,
    blockAt: (number) => engine.resolveBlock(number),
  };
}

export class NodeAcceptance {
  private readonly listeners = new Map<string, Set<AcceptanceListener>>();
  private readonly unsubscribe: (() => void)[] = [];
  private readonly containers: ContractChainContainers;
  /** How many containers each chain had accepted when observation began (genesis not included). */
  private readonly countsBefore: Readonly<Record<AcceptingChain, bigint>>;
  /** The exchange chain's genesis transactions (they come first in its acceptance order and are not announced). */
  private readonly exchangeGenesis: number;

  /** `keptContainerIds`: the contract chain's container IDs kept in the node's data directory. */
  constructor(
    private readonly sources: AcceptanceSources,
    options: { keptContainerIds?: KeptContainerIds } = {},
  ) {
    const { contract, exchange, platform } = sources;
    this.containers = new ContractChainContainers([], (number) => contract.blockAt(number), undefined, options.keptContainerIds);
    let genesis = 0;
    while (exchange.acceptedTxAt(genesis)?.genesis === true) genesis++;
    this.exchangeGenesis = genesis;
    this.countsBefore = { C: contract.headNumber(), X: BigInt(exchange.acceptedCount() - genesis), P: platform?.height ?? 0n };
    this.unsubscribe.push(
      contract.onBlock((record) => {
        let container: AcceptedContainer;
        try {
          container = this.containers.containerOf(record);
        } catch (error) {
          sources.report(`contract-chain block ${record.number} not announced: ${error instanceof Error ? error.message : String(error)}`);
          return;
        }
        this.emit("C", "consensus", container);
        this.emit("C", "decisions", container);
      }),
      exchange.onAccept((tx) => this.emit("X", "decisions", { id: tx.id, bytes: tx.bytes })),
    );
    // A platform block is both a consensus container and a decision, as on the contract chain.
    const unsubscribePlatform = platform?.onAccept((block) => {
      const container = { id: block.id, bytes: block.bytes };
      this.emit("P", "consensus", container);
      this.emit("P", "decisions", container);
    });
    if (unsubscribePlatform !== undefined) this.unsubscribe.push(unsubscribePlatform);
  }

  /** How many containers `chain` had accepted when this observer was made (genesis not included). */
  acceptedCount(chain: AcceptingChain): bigint {
    return this.countsBefore[chain];
  }

  /**
   * The containers `chain` had accepted when this observer was made, in acceptance order, each
   * read from the chain as the iteration reaches it (iterate before the chain moves back). Given
   * the containers a consumer `held` (the first `held.count` of them), only those after: when
   * `held.last` is the chain's container at that position; otherwise (the consumer holds
   * something else) every one, as without `held`.
   */
  *acceptedSoFar(chain: AcceptingChain, held?: HeldContainers): Iterable<AcceptedContainer> {
    const from = held !== undefined && this.holds(chain, held) ? held.count : 0n;
    for (let position = from; position < this.countsBefore[chain]; position++) yield this.containerAt(chain, position);
  }

  /**
   * The container at `position` (from 0, genesis not counted) of what `chain` has accepted so
   * far, read from the chain as it is now.
   */
  containerAt(chain: AcceptingChain, position: bigint): AcceptedContainer {
    const missing = () => new RangeError(`chain ${chain} has no accepted container at position ${position}`);
    if (position < 0n) throw missing();
    if (chain === "C") {
      if (position + 1n > this.sources.contract.headNumber()) throw missing();
      const { id, bytes } = this.containers.containerOf(this.sources.contract.blockAt(position + 1n));
      return { id, bytes };
    }
    if (chain === "X") {
      const tx = this.sources.exchange.acceptedTxAt(this.exchangeGenesis + Number(position));
      if (tx === undefined) throw missing();
      return { id: tx.id, bytes: tx.bytes };
    }
    const block = this.sources.platform?.getBlockByHeight(position + 1n);
    if (block === undefined) throw missing();
    return { id: block.id, bytes: block.bytes };
  }

  /** Calls `listener` with every container `chain` accepts on `stream` from now on. */
  on(chain: ChainAlias, stream: AcceptanceStream, listener: AcceptanceListener): () => void {
    const key = `${chain}/${stream}`;
    let set = this.listeners.get(key);
    if (set === undefined) this.listeners.set(key, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Stops observing the chains. */
  close(): void {
    for (const stop of this.unsubscribe.splice(0)) stop();
    this.listeners.clear();
  }

  /**
   * Whether `held` is the start of `chain`'s history: its last container is the chain's at that
   * position. On the contract chain its ID (a hash over every container below it) cannot be
   * recomputed without them, so the block it carries is compared, and its ID remembered as
   * that block's.
   */
  private holds(chain: AcceptingChain, held: HeldContainers): boolean {
    if (held.count < 1n || held.count > this.countsBefore[chain]) return false;
    if (chain !== "C") return equalBytes(this.containerAt(chain, held.count - 1n).id, held.last.id);
    const record = this.sources.contract.blockAt(held.count);
    let carried: Uint8Array;
    if (record.number <= LAST_UNWRAPPED_BLOCK) carried = held.last.bytes;
    else {
      try {
        carried = decodeProposerBlock(held.last.bytes).block;
      } catch {
        return false;
      }
    }
    if (!equalBytes(carried, record.block.serialize())) return false;
    this.containers.remember(record.hash, held.last.id);
    return true;
  }

  private emit(chain: ChainAlias, stream: AcceptanceStream, container: AcceptedContainer): void {
    for (const listener of this.listeners.get(`${chain}/${stream}`) ?? []) {
      try {
        listener(container);
      } catch (error) {
        this.sources.report(`${chain} ${stream} listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}
