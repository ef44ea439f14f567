/**
 * Logs and filters: eth_getLogs, and the filters clients install and poll (eth_newFilter,
 * eth_newBlockFilter, eth_newPendingTransactionFilter, eth_getFilterChanges, ...). Like geth's
 * filter system, a filter collects what arrives after it was installed (mined blocks, their
 * matching logs, pooled transactions) until the next poll, so a poll reports every block since
 * the last one, also across evm_revert; a log filter then also reports the logs of the blocks
 * the revert removed, again, with `removed: true` (as geth's filters do on a reorg).
 */
import { RpcApi, type RpcApiOptions } from "../../rpc/api";
import { invalidParams, serverError } from "../../rpc/errors";
import type { BlockRecord, LogRecord } from "../chain";
import type { Engine } from "../engine";
import type { LockHeld } from "../engine-lock";
import { checkLogCount, checkLogRange } from "../log-limits";
import { logsOfBlock } from "../state-reads";
import { GenerationalMemo } from "../generational-memo";
import { jsonArrayInSlices } from "../time-slices";
import type { LogFilter } from "../types";
import { formatLog, formatLogJson, q } from "./format";
import * as p from "./params";
import { PreForkHistory } from "./pre-fork";

type Filter = (
  | { kind: "logs"; match: LogFilter; fromBlock?: bigint; toBlock?: bigint; logs: { log: LogRecord; removed: boolean }[] }
  | { kind: "blocks"; hashes: string[] }
  | { kind: "pending"; hashes: string[] }
) & { lastPolled?: number };

/** Like geth, a filter nobody polls for this long is dropped (and stops collecting). */
const FILTER_TIMEOUT_MS = 5 * 60 * 1000;

const HEAD_TAGS = new Set(["latest", "pending", "safe", "finalized"]);

/** The installed filters of one provider, fed with every mined block and every sent transaction. */
export class Filters {
  private readonly filters = new Map<string, Filter>();
  private nextFilterId = 1;

  constructor(private readonly engine: Engine) {
    engine.onBlock((record) => this.noteBlock(record));
    engine.onRemovedBlocks(
      (records) => this.noteRemoved(records),
      () => [...this.filters.values()].some((filter) => filter.kind === "logs"),
    );
  }

  /** Hands a transaction just sent (eth_sendTransaction, eth_sendRawTransaction) to the pending-transaction filters. */
  notePending(hash: string): void {
    for (const filter of this.filters.values()) if (filter.kind === "pending") filter.hashes.push(hash);
  }

  add(filter: Filter): string {
    const id = q(this.nextFilterId++);
    filter.lastPolled = Date.now();
    this.filters.set(id, filter);
    return id;
  }

  remove(id: string): boolean {
    return this.filters.delete(id);
  }

  get(id: string): Filter {
    const filter = this.filters.get(id);
    if (filter === undefined) {
      // geth's words and code: clients (viem, ethers) recognise them and install a new filter.
      throw serverError(`filter not found: ${id} was never created, was uninstalled, or expired after 5 minutes without a poll`);
    }
    return filter;
  }

  /** What the filter collected since its last poll. */
  changes(id: string): unknown[] {
    const filter = this.get(id);
    filter.lastPolled = Date.now();
    if (filter.kind === "logs") {
      const logs = filter.logs;
      filter.logs = [];
      return logs.map(({ log, removed }) => ({ ...formatLog(log), removed }));
    }
    const hashes = filter.hashes;
    filter.hashes = [];
    return hashes;
  }

  /** Called for every mined block: hands it to the installed filters. */
  private noteBlock(record: BlockRecord): void {
    const now = Date.now();
    for (const [id, filter] of this.filters) {
      if (now - (filter.lastPolled ?? now) > FILTER_TIMEOUT_MS) {
        this.filters.delete(id);
        continue;
      }
      if (filter.kind === "blocks") filter.hashes.push(record.hash);
      else if (filter.kind === "logs") {
        if (filter.fromBlock !== undefined && record.number < filter.fromBlock) continue;
        if (filter.toBlock !== undefined && record.number > filter.toBlock) continue;
        if (record.transactions.length === 0) continue;
        // The block is already on the chain when listeners run: match its logs like eth_getLogs.
        for (const log of this.engine.getLogs({ ...filter.match, fromBlock: record.number, toBlock: record.number })) filter.logs.push({ log, removed: false });
      }
    }
  }

  /** Called when evm_revert or hardhat_reset takes blocks off the chain: their logs leave again, flagged removed. */
  private noteRemoved(records: readonly BlockRecord[]): void {
    for (const filter of this.filters.values()) {
      if (filter.kind !== "logs") continue;
      const match = { ...filter.match, fromBlock: filter.fromBlock ?? 0n, toBlock: filter.toBlock ?? records[records.length - 1]!.number };
      for (const record of records) for (const log of logsOfBlock(record, match)) filter.logs.push({ log, removed: true });
    }
  }
}

/**
 * Logs whose JSON a node keeps (about 400 bytes each: 8 MB at most per generation): a log never
 * changes, and a client polling a range asks for the same ones again and again.
 */
const LOG_JSON_MEMO_SIZE = 20_000;

/** What the log and filter methods use: the engine, its installed filters, the remote's history on a fork, and the logs' JSON. */
interface FiltersContext {
  readonly engine: Engine;
  readonly filters: Filters;
  readonly preFork: PreForkHistory;
  readonly logJsonMemo: GenerationalMemo<LogRecord, string>;
}

export function filtersApi(engine: Engine, options: RpcApiOptions<LockHeld>, filters: Filters): RpcApi<LockHeld> {
  const context: FiltersContext = { engine, filters, preFork: new PreForkHistory(engine), logJsonMemo: new GenerationalMemo(LOG_JSON_MEMO_SIZE) };
  return RpcApi.scoped(options).positionalMethods(context, {
    "eth_getLogs": [1, getLogs],
    "eth_newFilter": [1, newFilter],
    "eth_newBlockFilter": [0, newBlockFilter],
    "eth_newPendingTransactionFilter": [[0, 1], newPendingTransactionFilter],
    "eth_uninstallFilter": [1, uninstallFilter],
    "eth_getFilterChanges": [1, getFilterChanges],
    "eth_getFilterLogs": [1, getFilterLogs],
  });
}

/** [filter]: the matching logs of a range, within the engine's limits (range checked before any block is read). */
async function getLogs(context: FiltersContext, [criteria]: unknown[]): Promise<unknown> {
  const { engine } = context;
  const filter = logFilterOf(engine, criteria);
  checkLogRange(filter.fromBlock, filter.toBlock, engine.options);
  // On a fork, the part of the range up to the fork block is the remote's.
  const remote = engine.fork === undefined ? [] : await context.preFork.logs(criteria as Record<string, unknown>, filter.fromBlock, filter.toBlock);
  checkLogCount(remote.length, engine.options);
  const local = engine.queryLogs(filter);
  checkLogCount(remote.length + local.length, engine.options);
  return answerLogs(context, remote, local);
}

/** [filter]: installs a log filter; its ID. */
function newFilter({ engine, filters }: FiltersContext, [criteria]: unknown[]): string {
  return filters.add(newLogFilter(engine, criteria));
}

function newBlockFilter({ filters }: FiltersContext): string {
  return filters.add({ kind: "blocks", hashes: [] });
}

function newPendingTransactionFilter({ filters }: FiltersContext): string {
  return filters.add({ kind: "pending", hashes: [] });
}

/** [filterId]: whether it was installed. */
function uninstallFilter({ filters }: FiltersContext, [id]: unknown[]): boolean {
  return filters.remove(String(id));
}

/** [filterId]: what the filter collected since its last poll. */
function getFilterChanges({ filters }: FiltersContext, [id]: unknown[]): unknown[] {
  return filters.changes(String(id));
}

/** [filterId]: every log an installed log filter matches, from its start to the head, within the engine's limits. */
function getFilterLogs(context: FiltersContext, [id]: unknown[]): Promise<unknown> | readonly unknown[] {
  const { engine } = context;
  const filter = context.filters.get(String(id));
  if (filter.kind !== "logs") throw invalidParams(`filter ${String(id)} is not a log filter`);
  const head = engine.chain.height;
  const from = filter.fromBlock ?? head;
  const to = filter.toBlock === undefined || filter.toBlock > head ? head : filter.toBlock;
  return from > to ? [] : answerLogs(context, [], engine.queryLogs({ ...filter.match, fromBlock: from, toBlock: to }));
}

/**
 * Writing ten thousand logs as JSON takes tens of milliseconds: a node (whose cheap reads do
 * not queue, see `unqueuedReads`) gives others turns in between, by answering JSON text made
 * in slices; an in-process provider answers the values, in one piece as Hardhat's network.
 */
function answerLogs(context: FiltersContext, remote: readonly unknown[], local: readonly LogRecord[]): Promise<unknown> | readonly unknown[] {
  if (!context.engine.options.unqueuedReads) return [...remote, ...local.map(formatLog)];
  return jsonArrayInSlices<unknown>([...remote, ...local], (log, index) => (index < remote.length ? JSON.stringify(log) : logJson(context, log as LogRecord)));
}

function logJson({ logJsonMemo }: FiltersContext, log: LogRecord): string {
  let json = logJsonMemo.get(log);
  if (json === undefined) logJsonMemo.set(log, (json = formatLogJson(log)));
  return json;
}

function logFilterOf(engine: Engine, criteria: unknown): LogFilter {
  return p.logFilter(criteria, engine.chain.height, (hash) => engine.resolveBlock({ hash }).number);
}

/**
 * A log filter as geth installs one: addresses and topics match new logs; fromBlock/toBlock,
 * when numbers (or a hash), bound the blocks whose logs are collected; a head tag or nothing
 * leaves that side open.
 */
function newLogFilter(engine: Engine, criteria: unknown): Filter {
  const match = logFilterOf(
    engine,
    typeof criteria === "object" && criteria !== null && !Array.isArray(criteria)
      ? { ...(criteria as Record<string, unknown>), fromBlock: undefined, toBlock: undefined, blockHash: undefined }
      : criteria,
  );
  const given = criteria as Record<string, unknown>;
  let fromBlock: bigint | undefined;
  let toBlock: bigint | undefined;
  if (given.blockHash !== undefined && given.blockHash !== null) {
    if (given.fromBlock !== undefined || given.toBlock !== undefined) {
      throw invalidParams("a filter with blockHash cannot also have fromBlock or toBlock");
    }
    fromBlock = toBlock = engine.resolveBlock({ hash: p.hash(given.blockHash, "filter.blockHash") }).number;
  } else {
    fromBlock = filterBound(engine, given.fromBlock, "filter.fromBlock");
    toBlock = filterBound(engine, given.toBlock, "filter.toBlock");
    if (fromBlock !== undefined && toBlock !== undefined && fromBlock > toBlock) {
      throw invalidParams(`filter.fromBlock ${fromBlock} is after filter.toBlock ${toBlock}`);
    }
  }
  return { kind: "logs", match, fromBlock, toBlock, logs: [] };
}

/** A log filter's fromBlock or toBlock: a block number, or undefined for an open side (a head tag or nothing). */
function filterBound(engine: Engine, value: unknown, name: string): bigint | undefined {
  if (value === undefined || value === null || (typeof value === "string" && HEAD_TAGS.has(value))) return undefined;
  const selector = p.blockSelector(value, name);
  if (selector === "earliest") return 0n;
  if (typeof selector === "bigint") return selector;
  if (typeof selector === "object") return engine.resolveBlock(selector).number;
  return undefined;
}
