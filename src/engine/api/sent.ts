/**
 * A transaction sent through the API (eth_sendTransaction, eth_sendRawTransaction,
 * personal_sendTransaction, eth_sendUnsignedTransaction): submitted to the engine, then handed to
 * the pending-transaction filters and subscriptions.
 */
import type { Engine } from "../engine";
import type { LockHeld } from "../engine-lock";
import type { PooledTransaction } from "../types";
import type { Filters } from "./filters";
import type { SubscriptionHub } from "./subscriptions";

/** Who hears of every transaction sent: the polled filters and the subscriptions of lasting connections. */
export interface SentTransactionWatchers {
  readonly filters: Filters;
  readonly subscriptions: SubscriptionHub;
}

/**
 * Submits `pooled` and tells the watchers; its hash. With `held` (the method runs inside the
 * engine's lock), its block may be sealed after the answer (see Engine.submit).
 */
export async function submitSent(engine: Engine, watchers: SentTransactionWatchers, pooled: PooledTransaction, held?: LockHeld): Promise<string> {
  const hash = await engine.submit(pooled, held);
  watchers.filters.notePending(hash);
  watchers.subscriptions.notePending(pooled);
  return hash;
}
