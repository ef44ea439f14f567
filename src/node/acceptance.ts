import type { BlockRecord } from "../engine/chain";
import { ContractChainContainers } from "./indexer/contract-chain-containers";
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
 */
export type AcceptanceStream = "consensus" | "decisions";

export interface AcceptedContainer {
  readonly id: Uint8Array;
  readonly bytes: Uint8Array;
}

export type AcceptanceListener = (container: AcceptedContainer) => void;

/** The chains the node observes: the engine's block stream and the exchange chain's acceptances. */
export interface AcceptanceSources {
  contract: {
    onBlock(listener: (record: BlockRecord) => void): () => void;
    /** Blocks already on the chain, genesis first. */
    blocks(): Iterable<BlockRecord>;
  };
  exchange: {
    onAccept(listener: (tx: AcceptedTx) => void): () => void;
    /** Transactions already accepted, in acceptance order (genesis first, flagged). */
    acceptedTxs(): readonly AcceptedTx[];
  };
  /** The platform chain's blocks (absent: nothing is announced for P). */
  platform?: {
    onAccept(listener: (block: AcceptedContainer) => void): () => void;
    /** Blocks already accepted, genesis first. */
    acceptedBlocks(): readonly AcceptedContainer[];
  };
  /** Told when a listener throws (a listener must never stop a chain). */
  report(problem: string): void;
}

export class NodeAcceptance {
  private readonly listeners = new Map<string, Set<AcceptanceListener>>();
  private readonly unsubscribe: (() => void)[] = [];

  /** The containers each chain had accepted when observation began (genesis not included). */
  private readonly before: Readonly<Record<"C" | "X" | "P", readonly AcceptedContainer[]>>;

  constructor(private readonly sources: AcceptanceSources) {
    const containers = new ContractChainContainers([]);
    const contractBefore: AcceptedContainer[] = [];
    for (const record of sources.contract.blocks()) {
      const container = containers.containerOf(record);
      if (record.number > 0n) contractBefore.push(container);
    }
    this.before = {
      C: contractBefore,
      X: sources.exchange.acceptedTxs().filter((tx) => !tx.genesis).map((tx) => ({ id: tx.id, bytes: tx.bytes })),
      P: (sources.platform?.acceptedBlocks() ?? []).slice(1).map((block) => ({ id: block.id, bytes: block.bytes })),
    };
    this.unsubscribe.push(
      sources.contract.onBlock((record) => {
        let container: AcceptedContainer;
        try {
          container = containers.containerOf(record);
        } catch (error) {
          sources.report(`contract-chain block ${record.number} not announced: ${error instanceof Error ? error.message : String(error)}`);
          return;
        }
        this.emit("C", "consensus", container);
        this.emit("C", "decisions", container);
      }),
      sources.exchange.onAccept((tx) => this.emit("X", "decisions", { id: tx.id, bytes: tx.bytes })),
    );
    // A platform block is both a consensus container and a decision, as on the contract chain.
    const platform = sources.platform?.onAccept((block) => {
      const container = { id: block.id, bytes: block.bytes };
      this.emit("P", "consensus", container);
      this.emit("P", "decisions", container);
    });
    if (platform !== undefined) this.unsubscribe.push(platform);
  }

  /** The containers `chain` had accepted when this observer was made, in acceptance order. */
  acceptedSoFar(chain: "C" | "X" | "P"): readonly AcceptedContainer[] {
    return this.before[chain];
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
