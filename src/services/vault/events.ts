/**
 * "The wallet is notified": what happens to an alias's transactions, published to whoever
 * follows that alias (the Server-Sent Events streams of `http-api.ts`). In-process only: a
 * second vault process on the same database has its own followers and its own events.
 */
import type { MultisigTxView } from "./view";

export type VaultEventType = "created" | "signed" | "issued" | "cancelled";

export interface VaultEvent {
  type: VaultEventType;
  transaction: MultisigTxView;
}

export class VaultEvents {
  private readonly followers = new Map<string, Set<(event: VaultEvent) => void>>();

  /** Calls `listener` with every later event of `alias`; returns the function that stops it. */
  follow(alias: string, listener: (event: VaultEvent) => void): () => void {
    const set = this.followers.get(alias) ?? new Set();
    set.add(listener);
    this.followers.set(alias, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.followers.delete(alias);
    };
  }

  publish(event: VaultEvent): void {
    for (const listener of this.followers.get(event.transaction.alias) ?? []) listener(event);
  }
}
