import type { DurableStore } from "../../storage";
import { IndexError } from "./errors";

/**
 * The index's completeness rules, for a node that keeps its state (`--db-dir`), as the reference
 * node applies them: an index holds every container its chain accepted, or it is marked
 * incomplete, and a node never makes an index incomplete unless told it may
 * (`--index-allow-incomplete`).
 *
 * - Indexing covers the containers accepted from the moment it is enabled: a fresh data
 *   directory started with `--index-enabled` has a complete index.
 * - A node that indexed before and restarts with indexing still on indexes the containers its
 *   chains accepted while the index did not see them (a stop between a block's commit and its
 *   index entry): the index stays complete.
 * - Starting with indexing off after it was on is refused unless incomplete indexes are allowed;
 *   when allowed, the indexes are marked incomplete (containers will be accepted unseen).
 * - Starting with indexing on for a chain whose index is incomplete, or that ran before without
 *   indexing, is refused unless incomplete indexes are allowed.
 */

/** What the data directory remembers of a chain's index between starts. */
export interface IndexHistory {
  /** The node ran with indexing on at its last start. */
  readonly previouslyIndexing: boolean;
  /** Containers were accepted that the index does not hold. */
  readonly incomplete: boolean;
}

/** What this start does for one chain's index. */
export interface IndexStartPlan {
  /** Index the chain's containers the index does not hold yet (the index was on before). */
  readonly catchUp: boolean;
  /** The history to record for the next start. */
  readonly record: IndexHistory;
}

export interface IndexStartSettings {
  /** `--index-enabled`. */
  readonly enabled: boolean;
  /** `--index-allow-incomplete`. */
  readonly allowIncomplete: boolean;
  /** The data directory held a node's data before this start. */
  readonly hasRunBefore: boolean;
}

/** Decides this start for chain `alias`'s index from its `history` (absent: never recorded); throws `IndexError` to refuse. */
export function planIndexStart(alias: string, history: IndexHistory | undefined, settings: IndexStartSettings): IndexStartPlan {
  const previouslyIndexing = history?.previouslyIndexing ?? false;
  const { enabled, allowIncomplete, hasRunBefore } = settings;
  if (!enabled) {
    if (previouslyIndexing && !allowIncomplete) {
      throw new IndexError(
        "incomplete",
        `running would cause index for chain ${alias} to become incomplete but incomplete indices are disabled: ` +
          "this node indexed before; start it with --index-enabled, or add --index-allow-incomplete to go on without the index",
      );
    }
    return { catchUp: false, record: { previouslyIndexing: false, incomplete: (history?.incomplete ?? false) || hasRunBefore || previouslyIndexing } };
  }
  const incomplete = (history?.incomplete ?? false) || (hasRunBefore && !previouslyIndexing);
  if (incomplete && !allowIncomplete) {
    throw new IndexError(
      "incomplete",
      `index for chain ${alias} is incomplete but incomplete indices are disabled: ` +
        "containers were accepted while indexing was off; add --index-allow-incomplete to index from now on, or start from a fresh --db-dir",
    );
  }
  return { catchUp: previouslyIndexing, record: { previouslyIndexing: true, incomplete } };
}

const historyKey = (alias: string): string => `history/${alias}`;

export async function readIndexHistory(store: DurableStore, alias: string): Promise<IndexHistory | undefined> {
  const bytes = await store.get(historyKey(alias));
  if (bytes === undefined) return undefined;
  const parsed = JSON.parse(new TextDecoder().decode(bytes)) as Partial<IndexHistory>;
  return { previouslyIndexing: parsed.previouslyIndexing === true, incomplete: parsed.incomplete === true };
}

/** Stages `history` (the caller commits). */
export function stageIndexHistory(store: DurableStore, alias: string, history: IndexHistory): void {
  store.put(historyKey(alias), new TextEncoder().encode(JSON.stringify(history)));
}
