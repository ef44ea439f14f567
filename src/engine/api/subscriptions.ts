/**
 * Subscriptions (eth_subscribe / eth_unsubscribe): what a client on a lasting connection (a
 * WebSocket, the in-process provider's events) is pushed as the chain moves, as geth and coreth
 * push it: `newHeads` (block headers), `logs` (matching an eth_getLogs-style address/topics
 * filter), `newPendingTransactions` (hashes, or whole transactions with `true`) and the chain's
 * `newAcceptedTransactions` (hashes, or whole transactions with `true`).
 *
 * The hub is fed once per engine API (engine.onBlock, engine.onRemovedBlocks and the
 * transactions sent); each connection opens its own session, whose subscriptions end with
 * `close()`. Notifications are pushed at once, never collected for polling, so nothing expires.
 *
 * `logs` follows geth's filter system (eth/filters): it delivers logs of blocks that join the
 * chain from now on, never past ones. `fromBlock`/`toBlock` do not replay anything: they only
 * bound the block numbers whose logs are delivered (a `toBlock` in the past delivers nothing
 * more); "latest" (or no bound) leaves that side open, "earliest" is block 0, "pending" is
 * refused, and so are `fromBlock` after `toBlock` and a numbered `toBlock` with an open
 * `fromBlock` (geth: "invalid from and to block combination"). `blockHash` is checked, then
 * ignored, as geth does. When evm_revert or hardhat_reset takes blocks off the chain, their
 * matching logs are sent again with `removed: true`, oldest block first (geth's order on a
 * reorg); newHeads then reports the blocks of the new branch as they are mined.
 */
import { RpcApi, type RpcApiOptions } from "../../rpc/api";
import { invalidParams, RpcError, RpcErrorCode } from "../../rpc/errors";
import type { Dispatch, JsonRpcNotification, RpcSession } from "../../rpc/types";
import { randomBytes } from "node:crypto";
import type { BlockRecord } from "../chain";
import type { Engine } from "../engine";
import type { LockHeld } from "../engine-lock";
import { logsOfBlock } from "../state-reads";
import type { LogFilter, PooledTransaction } from "../types";
import { formatBlock, formatLog, formatMinedTransaction, formatTransaction } from "./format";
import * as p from "./params";

/** The kinds of subscription served, by the name eth_subscribe takes. */
const SUBSCRIPTION_KINDS = ["newHeads", "logs", "newPendingTransactions", "newAcceptedTransactions"] as const;

type Subscription =
  | { kind: "newHeads" }
  | { kind: "logs"; match: LogFilter }
  | { kind: "newPendingTransactions"; full: boolean }
  | { kind: "newAcceptedTransactions"; full: boolean };

/** The shape of every notification: `params.subscription` is the ID eth_subscribe returned. */
function subscriptionNotification(subscription: string, result: unknown): JsonRpcNotification {
  return { jsonrpc: "2.0", method: "eth_subscription", params: { subscription, result } };
}

/** The error eth_subscribe answers where no lasting connection exists (HTTP), as geth's. */
export function notificationsNotSupported(): RpcError {
  return new RpcError(RpcErrorCode.MethodNotFound, "notifications not supported: subscribe over a WebSocket (e.g. /ext/bc/C/ws)");
}

/** Every open session of one engine API, fed with each block joining the chain and each transaction sent. */
export class SubscriptionHub {
  private readonly sessions = new Set<SubscriptionSession>();

  constructor(
    private readonly engine: Engine,
    private readonly options: RpcApiOptions<LockHeld>,
  ) {
    engine.onBlock((record) => {
      for (const session of this.sessions) session.noteBlock(record);
    });
    engine.onRemovedBlocks(
      (records) => {
        for (const session of this.sessions) session.noteRemoved(records);
      },
      () => [...this.sessions].some((session) => session.hasLogsSubscription()),
    );
  }

  /** Hands a transaction just accepted by eth_sendTransaction / eth_sendRawTransaction to the sessions. */
  notePending(pooled: PooledTransaction): void {
    for (const session of this.sessions) session.notePending(pooled);
  }

  /**
   * A connection's session: `push` receives its notifications until `close()`; the methods
   * other than eth_subscribe / eth_unsubscribe go to `api`.
   */
  open(push: (notification: JsonRpcNotification) => void, api: Dispatch): SubscriptionSession {
    const session = new SubscriptionSession(this.engine, api, this.options, push, () => this.sessions.delete(session));
    this.sessions.add(session);
    return session;
  }
}

/** One connection's subscriptions, and its dispatch: eth_subscribe / eth_unsubscribe here, the rest to the API. */
export class SubscriptionSession implements RpcSession {
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly own: RpcApi<LockHeld>;
  private closed = false;

  constructor(
    private readonly engine: Engine,
    private readonly api: Dispatch,
    options: RpcApiOptions<LockHeld>,
    private readonly push: (notification: JsonRpcNotification) => void,
    private readonly onClose: () => void,
  ) {
    // Run like every engine call (one at a time), so a subscription made after a call was
    // answered never reports that call's block.
    this.own = RpcApi.scoped(options).positionalMethods<SubscriptionSession>(this, {
      "eth_subscribe": [[1, 2], subscribe],
      "eth_unsubscribe": [1, unsubscribe],
    });
  }

  readonly dispatch = (method: string, params: unknown): Promise<unknown> =>
    this.own.has(method) ? this.own.dispatch(method, params) : this.api(method, params);

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.subscriptions.clear();
    this.onClose();
  }

  /** A new subscription of this connection; its ID. */
  subscribe(kind: unknown, option: unknown): string {
    if (this.closed) throw new RpcError(RpcErrorCode.ServerError, "the connection is closed");
    const subscription = this.parse(kind, option);
    // geth's IDs: 16 random bytes in hex; returned exactly as the notifications carry them.
    const id = `0x${randomBytes(16).toString("hex")}`;
    this.subscriptions.set(id, subscription);
    return id;
  }

  /** Ends a subscription; false if this connection has none with that ID. */
  unsubscribe(id: string): boolean {
    return this.subscriptions.delete(id);
  }

  private parse(kind: unknown, option: unknown): Subscription {
    switch (kind) {
      case "newHeads":
        return { kind };
      case "logs":
        return { kind, match: this.logMatch(option) };
      case "newPendingTransactions":
      case "newAcceptedTransactions":
        if (option !== undefined && option !== null && typeof option !== "boolean") {
          throw invalidParams(`${kind} takes an optional boolean (true: whole transactions), got ${JSON.stringify(option)}`);
        }
        return { kind, full: option === true };
      default:
        throw invalidParams(`unknown subscription ${JSON.stringify(kind)}; served: ${SUBSCRIPTION_KINDS.join(", ")}`);
    }
  }

  /**
   * eth_getLogs' address/topics criteria, with geth's rules for a subscription's block bounds
   * (see the module comment); an open bound becomes 0 or {@link NO_UPPER_BOUND}.
   */
  private logMatch(criteria: unknown): LogFilter {
    const o = criteria === undefined || criteria === null ? {} : criteria;
    if (typeof o !== "object" || Array.isArray(o)) throw invalidParams("the logs subscription takes a filter object");
    const { fromBlock, toBlock, blockHash, ...rest } = o as Record<string, unknown>;
    if (blockHash !== undefined && blockHash !== null) {
      if (fromBlock !== undefined || toBlock !== undefined) throw invalidParams("a filter with blockHash cannot also have fromBlock or toBlock");
      p.hash(blockHash, "filter.blockHash");
    }
    const from = subscriptionBound(fromBlock, "filter.fromBlock");
    const to = subscriptionBound(toBlock, "filter.toBlock");
    if (to !== undefined && (from === undefined || from > to)) {
      throw invalidParams(
        `invalid from and to block combination: filter.fromBlock ${from === undefined ? "latest" : from} is after filter.toBlock ${to}`,
      );
    }
    const match = p.logFilter(rest, this.engine.chain.height, () => 0n);
    return { ...match, fromBlock: from ?? 0n, toBlock: to ?? NO_UPPER_BOUND };
  }

  /** Called for every block joining the chain (it is already on it). */
  noteBlock(record: BlockRecord): void {
    for (const [id, subscription] of this.subscriptions) {
      switch (subscription.kind) {
        case "newHeads":
          this.send(id, header(record));
          break;
        case "logs":
          for (const log of logsOfBlock(record, subscription.match)) this.send(id, formatLog(log));
          break;
        case "newAcceptedTransactions":
          for (const mined of record.transactions) this.send(id, subscription.full ? formatMinedTransaction(mined) : mined.hash);
          break;
        case "newPendingTransactions":
          break;
      }
    }
  }

  /** Whether a removed block's logs would be reported on this connection. */
  hasLogsSubscription(): boolean {
    for (const subscription of this.subscriptions.values()) if (subscription.kind === "logs") return true;
    return false;
  }

  /** Called with the blocks a revert or reset took off the chain, oldest first. */
  noteRemoved(records: readonly BlockRecord[]): void {
    for (const [id, subscription] of this.subscriptions) {
      if (subscription.kind !== "logs") continue;
      for (const record of records) {
        for (const log of logsOfBlock(record, subscription.match)) this.send(id, { ...formatLog(log), removed: true });
      }
    }
  }

  notePending(pooled: PooledTransaction): void {
    for (const [id, subscription] of this.subscriptions) {
      if (subscription.kind !== "newPendingTransactions") continue;
      this.send(id, subscription.full ? formatTransaction(pooled.tx, pooled.hash, pooled.from.toString()) : pooled.hash);
    }
  }

  private send(id: string, result: unknown): void {
    // A subscription dropped by an earlier notification's consumer (it unsubscribed, or the connection closed) gets no more.
    if (this.closed || !this.subscriptions.has(id)) return;
    this.push(subscriptionNotification(id, result));
  }
}

/** [kind, option?]: eth_subscribe on this connection. */
function subscribe(session: SubscriptionSession, [kind, option]: unknown[]): string {
  return session.subscribe(kind, option);
}

/** [subscriptionId]: eth_unsubscribe on this connection. */
function unsubscribe(session: SubscriptionSession, [id]: unknown[]): boolean {
  return session.unsubscribe(String(id));
}

/** The largest block number (geth's are uint64): the upper bound of a subscription without toBlock. */
const NO_UPPER_BOUND = 2n ** 64n - 1n;

/** A subscription's fromBlock or toBlock: a number, or undefined for "latest" (open). */
function subscriptionBound(value: unknown, name: string): bigint | undefined {
  const selector = p.blockSelector(value, name);
  if (typeof selector === "bigint") return selector;
  if (selector === "earliest") return 0n;
  if (selector === "pending") throw invalidParams(`${name}: pending logs are not supported`);
  if (typeof selector === "object") throw invalidParams(`${name} must be a block number or tag, not a block hash`);
  // latest, safe, finalized: accepted blocks are final on this chain, so all mean the head.
  return undefined;
}

/** The logs of `record` that `match` selects, its block bounds included. */
/** A newHeads result: the block as eth_getBlockByNumber gives it, without its transactions (as geth's header). */
function header(record: BlockRecord): Record<string, unknown> {
  const { transactions: _transactions, uncles: _uncles, ...rest } = formatBlock(record, false);
  return rest;
}
