/**
 * The node's acceptance log: every container its chains accepted (contract-chain blocks,
 * exchange-chain transactions, platform-chain blocks), in ONE order across the chains — the
 * order they were accepted in. A follower must apply them in that order: an exchange-chain
 * export has to be accepted before the contract-chain import that spends it.
 *
 * Each chain keeps its own containers, read from it when an entry is asked for (a start reads no
 * block); the log keeps only the order (which chain came next), under `o/<position>` in the
 * node's data directory, so a restarted node knows it again (a start reads that order: one byte
 * per container). A node
 * stopped between a chain's commit and the log's write finds the chain ahead of the log: the
 * missing containers are put at the end, platform first, then exchange, then contract (a
 * follower only misses its last one; on a producer this is a guess the log says it made).
 */
import type { DurableStore } from "../../storage";
import type { AcceptedContainer, NodeAcceptance } from "../acceptance";

export type ChainLetter = "C" | "X" | "P";

export const CHAIN_LETTERS: readonly ChainLetter[] = ["C", "X", "P"];

export interface LoggedContainer extends AcceptedContainer {
  /** Position in the log, from 0. */
  readonly seq: number;
  readonly chain: ChainLetter;
}

const ORDER_PREFIX = "o/";
const POSITION_DIGITS = 12;

export class AcceptanceLog {
  private readonly order: ChainLetter[] = [];
  /** Position of each entry of `order` in its chain's accepted containers. */
  private readonly positions: number[] = [];
  /** Containers accepted per chain (genesis not counted). */
  private readonly counts: Record<ChainLetter, number> = { C: 0, X: 0, P: 0 };
  private readonly listeners = new Set<(entry: LoggedContainer) => void>();
  private readonly stop: (() => void)[] = [];

  private constructor(
    private readonly acceptance: NodeAcceptance,
    private readonly store: DurableStore | undefined,
    private readonly report: (problem: string) => void,
  ) {}

  /** The log of what `acceptance` saw and sees, its order read from (and written to) `store`. */
  static async open(acceptance: NodeAcceptance, store: DurableStore | undefined, report: (problem: string) => void): Promise<AcceptanceLog> {
    const log = new AcceptanceLog(acceptance, store, report);
    for (const chain of CHAIN_LETTERS) log.counts[chain] = Number(acceptance.acceptedCount(chain));
    const seen: Record<ChainLetter, number> = { C: 0, X: 0, P: 0 };
    if (store !== undefined) {
      for await (const [, value] of store.entries(ORDER_PREFIX)) {
        const chain = String.fromCharCode(value[0] ?? 0) as ChainLetter;
        if (!CHAIN_LETTERS.includes(chain) || seen[chain] >= log.counts[chain]) break;
        log.order.push(chain);
        log.positions.push(seen[chain]++);
      }
    }
    const missing = (["P", "X", "C"] as const).flatMap((chain) => Array.from({ length: log.counts[chain] - seen[chain] }, () => chain));
    if (missing.length > 0 && store !== undefined && log.order.length > 0) {
      report(`acceptance log: ${missing.length} container(s) accepted but not in the log; appended in the order P, X, C`);
    }
    for (const chain of missing) log.record(chain, seen[chain]++);
    await store?.commit();
    log.stop.push(
      acceptance.on("C", "consensus", (c) => log.append("C", c)),
      acceptance.on("X", "decisions", (c) => log.append("X", c)),
      acceptance.on("P", "consensus", (c) => log.append("P", c)),
    );
    return log;
  }

  get length(): number {
    return this.order.length;
  }

  /** Accepted containers per chain. */
  heights(): Record<ChainLetter, number> {
    return { ...this.counts };
  }

  /** The entry at `seq`, its container read from its chain. */
  entry(seq: number): LoggedContainer {
    const chain = this.order[seq];
    if (chain === undefined) throw new RangeError(`no container at position ${seq} of the acceptance log (length ${this.order.length})`);
    const container = this.acceptance.containerAt(chain, BigInt(this.positions[seq]!));
    return { seq, chain, id: container.id, bytes: container.bytes };
  }

  /** Calls `listener` with every container logged from now on; returns the function that stops it. */
  onAppend(listener: (entry: LoggedContainer) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    for (const stop of this.stop.splice(0)) stop();
    this.listeners.clear();
  }

  private append(chain: ChainLetter, container: AcceptedContainer): void {
    const seq = this.record(chain, this.counts[chain]++);
    this.store?.commit().catch((error: unknown) => this.report(`acceptance log: position ${seq} not written: ${error instanceof Error ? error.message : String(error)}`));
    const entry: LoggedContainer = { seq, chain, id: container.id, bytes: container.bytes };
    for (const listener of this.listeners) {
      try {
        listener(entry);
      } catch (error) {
        this.report(`acceptance log listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  private record(chain: ChainLetter, position: number): number {
    const seq = this.order.length;
    this.order.push(chain);
    this.positions.push(position);
    this.store?.put(`${ORDER_PREFIX}${String(seq).padStart(POSITION_DIGITS, "0")}`, new Uint8Array([chain.charCodeAt(0)]));
    return seq;
  }
}
