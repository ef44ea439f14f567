/**
 * Follows the node's index API, one loop per index (X transactions, P blocks, C blocks), in
 * order: it asks for the index's last accepted container, reads the containers after the last
 * one stored (`getContainerRange`, up to 1000 at a time), decodes them and stores each page in one
 * SQL transaction with the index's progress; while a full page is stored, the next one is read,
 * decoded and its statements built (page-statements.ts: the node, the decoder and this thread
 * work while the database writes), large pages of the exchange and platform chains on decoding
 * threads (decode-threads.ts) so that the SQL of the page being stored is not held up behind them.
 * Pages are committed one by one, in order, but a page's SQL transaction starts while the one
 * before is still being committed: it stores its own rows (its transactions, outputs, owners,
 * inputs...) meanwhile, and waits for that commit before it links spends and moves the rows other
 * pages write too (store.ts PageOrder), so the server works on two pages at once. It polls
 * every `pollIntervalMs` (at once again after a full page). A node that cannot be reached or a database that fails makes the loop wait (with
 * a growing delay, up to 10 s) and read the same page again: nothing is lost or stored twice. A
 * node without indexing (its index routes answer 404) stops the loop with an error naming the flag.
 */
import { type IndexContainer, NodeApiError, NodeConnectionError, NodeHttpError, NodeTimeoutError } from "../../../clients";
import type { SqlDatabase } from "../../sql/database";
import type { ExplorerContext } from "../context";
import { CHAIN_SIZED_TABLES } from "../schema";
import { type DecodedPage, PageDecoder } from "./decode-page";
import { DecodeThreads } from "./decode-threads";
import { EXPLORER_INDEXES, type ExplorerIndexName, type NodeSource } from "./node-source";
import { type PreparedBatch, prepareBatch } from "./page-statements";
import { readProgress, storeBatch } from "./store";

export const DEFAULT_POLL_INTERVAL_MS = 500;
/**
 * Containers per page (the index API answers at most 1024). 1000 rather than 500: a page's fixed
 * costs (its transaction, a statement per table, the triggers' statements) are halved per
 * container. At 100,000 containers (2026-11-27, load 1.4-2.4, three runs each on a server, one on
 * PGlite): a server 2,387-2,737/s against 2,103-2,491/s with 500, PGlite 1,690/s against 1,409/s;
 * runs of the same code differ by up to 10 % on that machine.
 */
export const DEFAULT_PAGE_SIZE = 1000;
const MAX_BACKOFF_MS = 10_000;
const ANALYZE_FIRST_AT = 1000;
/**
 * Tables whose rows are rewritten as pages arrive (running totals, per-minute aggregates, the
 * documents' state, progress, first-seen times), vacuumed every `vacuumEvery` containers stored.
 */
const REWRITTEN_TABLES = ["address_asset_totals", "asset_totals", "explorer_minute_outputs", "explorer_minute_transactions", "explorer_documents_state", "explorer_progress", "addresses", "address_chain"];
const DEFAULT_VACUUM_EVERY = 10_000;

export type IndexState = "starting" | "following" | "caught-up" | "retrying" | "failed" | "stopped";

/** Where one index stands (the JSON of `GET <base>/status`). */
export interface IndexProgress {
  index: ExplorerIndexName;
  /** The next container to read (all before it are stored). */
  nextIndex: string;
  /** The node's last accepted container, when known (null: none accepted yet or not asked yet). */
  lastAccepted: string | null;
  behindBy: string | null;
  state: IndexState;
  lastError: string | null;
  /** Containers stored raw because they could not be decoded. */
  undecoded: number;
  updatedAt: string | null;
}

/** The node serves no index: the explorer cannot follow it. */
export class IndexDisabledError extends Error {
  override readonly name = "IndexDisabledError";
  constructor(nodeUrl: string, path: string) {
    super(`the node at ${nodeUrl} serves no index API (${path} answered 404): start the node with --index-enabled`);
  }
}

/**
 * Throws IndexDisabledError when the node serves no index API: checked before anything is
 * opened, so a node started without --index-enabled is told at once. Other errors (a node not
 * reachable yet) are left to the ingester's retries.
 */
export async function checkIndexesServed(node: NodeSource): Promise<void> {
  for (const index of Object.keys(EXPLORER_INDEXES) as ExplorerIndexName[]) {
    try {
      await node.index(index).getLastAccepted();
    } catch (error) {
      if (error instanceof NodeHttpError && error.status === 404) throw new IndexDisabledError(node.url, node.index(index).path);
    }
  }
}

export interface IngesterOptions {
  database: SqlDatabase;
  node: NodeSource;
  context: ExplorerContext;
  pollIntervalMs?: number;
  pageSize?: number;
  /** Threads decoding large pages of the exchange and platform chains (default: one fewer than the cores, 2 to 4; 0: on the ingest thread). */
  decodeThreads?: number;
  /** Called with each error a loop meets (it goes on retrying unless the error is fatal). */
  onError?: (index: ExplorerIndexName, error: Error) => void;
  /** Containers stored between two vacuums of the tables rewritten in place (default 10,000). */
  vacuumEvery?: number;
}

/** A page whose SQL transaction has started (Ingester.storePage). */
interface PageStore {
  /** The index after the page's last container. */
  end: bigint;
  size: number;
  undecoded: number;
  /** Resolves once the page's own rows are stored (the next page may start); rejects when the page failed first. */
  ownRowsStored: Promise<void>;
  committed: Promise<void>;
}

interface Loop {
  progress: IndexProgress;
  next: bigint;
  running?: Promise<void>;
  fatal?: Error;
}

export class Ingester {
  private readonly loops = new Map<ExplorerIndexName, Loop>();
  private readonly decoder: PageDecoder;
  private readonly decodeThreads: DecodeThreads;
  private readonly pollIntervalMs: number;
  private readonly pageSize: number;
  private stopping = false;
  private wake: (() => void)[] = [];
  private readonly listeners = new Set<() => void>();
  private storedSinceStart = 0;
  private analyzedAt = 0;
  private vacuumedAt = 0;
  /** The statistics being taken (refreshStatistics), off the loops' path; `stop` waits for it. */
  private analyzing: Promise<void> | undefined;

  constructor(private readonly options: IngesterOptions) {
    this.decodeThreads = new DecodeThreads(options.decodeThreads);
    this.decoder = new PageDecoder(options.context, options.node, options.database, this.decodeThreads);
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    for (const index of Object.keys(EXPLORER_INDEXES) as ExplorerIndexName[]) {
      this.loops.set(index, { next: 0n, progress: { index, nextIndex: "0", lastAccepted: null, behindBy: null, state: "starting", lastError: null, undecoded: 0, updatedAt: null } });
    }
  }

  /** Starts following every index from where the database stands. */
  async start(): Promise<void> {
    if ([...this.loops.values()].some((l) => l.running !== undefined)) return;
    this.stopping = false;
    const stored = await readProgress(this.options.database);
    for (const [index, loop] of this.loops) {
      loop.next = stored.get(index) ?? 0n;
      loop.fatal = undefined;
      loop.progress.nextIndex = loop.next.toString();
      loop.progress.state = "starting";
      loop.running = this.follow(index, loop).finally(() => (loop.running = undefined));
    }
  }

  /** Stops every loop once its current page is stored (or dropped). */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const wake of this.wake.splice(0)) wake();
    await Promise.all([...this.loops.values()].map((l) => l.running));
    await this.analyzing;
    await this.decodeThreads.close();
  }

  progress(): IndexProgress[] {
    return [...this.loops.values()].map((l) => ({ ...l.progress }));
  }

  /**
   * Resolves once every index has stored what the node had accepted when this was called;
   * rejects when a loop fails for good (no index API) or after `timeoutMs` (default 60 s).
   */
  async waitUntilCaughtUp(timeoutMs = 60_000): Promise<void> {
    const targets = new Map<ExplorerIndexName, bigint>();
    for (const index of this.loops.keys()) {
      const last = await this.lastAccepted(index);
      if (last !== null) targets.set(index, last + 1n);
    }
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const failed = [...this.loops.values()].find((l) => l.fatal !== undefined);
      if (failed !== undefined) throw failed.fatal!;
      if ([...targets].every(([index, target]) => this.loops.get(index)!.next >= target)) return;
      if (Date.now() > deadline) {
        const behind = [...targets].filter(([index, target]) => this.loops.get(index)!.next < target).map(([index, target]) => `${index} at ${this.loops.get(index)!.next} of ${target}`);
        throw new Error(`the explorer did not catch up with the node within ${timeoutMs} ms (${behind.join(", ")}; last errors: ${this.progress().map((p) => p.lastError ?? "none").join("; ")})`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, 100);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.listeners.add(done);
      });
      this.listeners.clear();
    }
  }

  private async lastAccepted(index: ExplorerIndexName): Promise<bigint | null> {
    try {
      return (await this.options.node.index(index).getLastAccepted()).index;
    } catch (error) {
      if (error instanceof NodeApiError && error.nodeMessage === "no containers have been accepted") return null;
      if (error instanceof NodeHttpError && error.status === 404) throw new IndexDisabledError(this.options.node.url, this.options.node.index(index).path);
      throw error;
    }
  }

  /**
   * Reads and decodes the containers from `start`, at most a page, up to `last`, and builds the
   * statements the page's SQL transaction will send that need none of its answers: for the page
   * read ahead, while the page before is stored (its SQL runs on the server meanwhile).
   */
  private readPage(index: ExplorerIndexName, start: bigint, last: bigint): Promise<{ page: IndexContainer[]; decoded: DecodedPage; prepared: PreparedBatch }> {
    const wanted = Number(last - start + 1n < BigInt(this.pageSize) ? last - start + 1n : BigInt(this.pageSize));
    return this.options.node
      .index(index)
      .getContainerRange(start, wanted)
      .then(async (page) => {
        const decoded = await this.decoder.decode(index, page);
        // Built after the answers that arrived during the decode (of the page being stored) are handled, not before them.
        await new Promise((resolve) => setImmediate(resolve));
        return { page, decoded, prepared: prepareBatch(index, decoded.containers, decoded.extra) };
      });
  }

  /**
   * Starts storing a page in a SQL transaction of its own, ordered after `before` (the page
   * before it, perhaps still committing): its own rows are stored at once, the rows other pages
   * write once `before` is committed (store.ts PageOrder).
   */
  private storePage(index: ExplorerIndexName, start: bigint, page: { page: IndexContainer[]; decoded: DecodedPage; prepared: PreparedBatch }, before: PageStore | undefined): PageStore {
    let ownRowsStored!: () => void;
    const ownStored = new Promise<void>((resolve) => (ownRowsStored = resolve));
    const { containers, extra } = page.decoded;
    const committed = this.options.database.transaction((tx) => storeBatch(tx, index, containers, extra, page.prepared, { after: before?.committed, ownRowsStored }));
    committed.catch(() => undefined); // met by whoever awaits the commit
    return {
      end: start + BigInt(page.page.length),
      size: page.page.length,
      undecoded: containers.filter((c) => c.problem !== undefined).length,
      // A page that fails before its own rows are stored fails here too.
      ownRowsStored: Promise.race([ownStored, committed.then(() => undefined)]),
      committed,
    };
  }

  /** Waits for a page's commit and moves the loop's progress past it. */
  private async committed(loop: Loop, store: PageStore): Promise<void> {
    await store.committed;
    loop.next = store.end;
    loop.progress.undecoded += store.undecoded;
    // Only an optimisation: a failure here is the next page's to meet.
    await this.refreshStatistics(store.size).catch(() => undefined);
  }

  private async follow(index: ExplorerIndexName, loop: Loop): Promise<void> {
    let failures = 0;
    // The page after the one being stored, read meanwhile.
    let ahead: { start: bigint; read: ReturnType<Ingester["readPage"]> } | undefined;
    // The node's last accepted container, asked while the page before was stored (a round trip
    // to the node less between two pages); a failure is met here, as when asked here.
    let lastAsked: Promise<bigint | null> | undefined;
    // The pages whose SQL transactions have started and are not known to be committed, oldest
    // first (at most two: a page starts once the one before has stored its own rows, and the
    // loop then waits for the commit of the one before that). They commit in order.
    const storing: PageStore[] = [];
    while (!this.stopping) {
      let fullPage = false;
      try {
        const asked = lastAsked ?? this.lastAccepted(index);
        lastAsked = undefined;
        const last = await asked;
        loop.progress.lastAccepted = last === null ? null : last.toString();
        const from = storing.at(-1)?.end ?? loop.next;
        if (last !== null && from <= last) {
          // A loop retrying says so until a page is stored again.
          if (failures === 0) loop.progress.state = "following";
          const read = ahead !== undefined && ahead.start === from ? ahead.read : this.readPage(index, from, last);
          ahead = undefined;
          const page = await read;
          const after = from + BigInt(page.page.length);
          if (page.page.length === this.pageSize && after <= last) {
            ahead = { start: after, read: this.readPage(index, after, last) };
            // Its failure, if any, is met when the loop comes to it (and the page is read again).
            ahead.read.catch(() => undefined);
            lastAsked = this.lastAccepted(index);
            lastAsked.catch(() => undefined);
          }
          const store = this.storePage(index, from, page, storing.at(-1));
          storing.push(store);
          // The page before commits while this one stores its own rows.
          while (storing.length > 1) await this.committed(loop, storing.shift()!);
          await store.ownRowsStored;
          fullPage = page.page.length === this.pageSize;
        }
        // Nothing more to read at once: the last page is committed before the loop reports or waits.
        if (!fullPage) while (storing.length > 0) await this.committed(loop, storing.shift()!);
        loop.progress.nextIndex = loop.next.toString();
        loop.progress.behindBy = last === null ? null : (last + 1n > loop.next ? last + 1n - loop.next : 0n).toString();
        loop.progress.state = last === null || loop.next > last ? "caught-up" : "following";
        loop.progress.lastError = null;
        loop.progress.updatedAt = new Date().toISOString();
        failures = 0;
        for (const listener of this.listeners) listener();
      } catch (error) {
        ahead = undefined;
        lastAsked = undefined;
        // A page that failed fails every page after it (each waits for the one before): they are
        // all rolled back before the loop reads again from the last page committed.
        for (const store of storing.splice(0)) await this.committed(loop, store).catch(() => undefined);
        const err = error instanceof Error ? error : new Error(String(error));
        loop.progress.lastError = describe(err);
        this.options.onError?.(index, err);
        if (err instanceof IndexDisabledError) {
          loop.fatal = err;
          loop.progress.state = "failed";
          for (const listener of this.listeners) listener();
          return;
        }
        loop.progress.state = "retrying";
        failures++;
      }
      if (fullPage) continue;
      const delay = failures === 0 ? this.pollIntervalMs : Math.min(MAX_BACKOFF_MS, this.pollIntervalMs * 2 ** Math.min(failures, 10));
      await this.sleep(delay);
    }
    // Stopping: the pages started are committed (or fail) before the loop ends.
    for (const store of storing.splice(0)) await this.committed(loop, store).catch(() => undefined);
    loop.progress.nextIndex = loop.next.toString();
    loop.progress.state = "stopped";
  }

  /**
   * The planner's statistics of the tables, taken again each time this ingester has doubled
   * what it stored (from 1000 containers): PGlite runs no autovacuum, and a plan made for tables
   * believed empty scans them whole once they are not. Taken beside the loops, not awaited by
   * them: on a server it runs on a connection of its own while the next pages are stored (to
   * 100,000 containers its 7 runs took 292 ms each on average, 8 % of the server's statement
   * time, with the loop waiting); PGlite's one connection runs it before the next page's
   * transaction, as when awaited.
   */
  private async refreshStatistics(stored: number): Promise<void> {
    this.storedSinceStart += stored;
    await this.vacuumRewrittenTables();
    if (this.analyzing !== undefined || this.storedSinceStart < Math.max(ANALYZE_FIRST_AT, 2 * this.analyzedAt)) return;
    this.analyzedAt = this.storedSinceStart;
    this.analyzing = this.options.database
      .query(`ANALYZE ${[...CHAIN_SIZED_TABLES, "asset_totals"].join(", ")}`)
      .then(
        () => undefined,
        () => undefined, // only an optimisation: taken again at the next doubling
      )
      .finally(() => (this.analyzing = undefined));
  }

  /**
   * Each page rewrites the running totals of the addresses it touched, so a hot address leaves a
   * dead row version (and index entries) per page. PGlite runs no autovacuum: unvacuumed, an asset's
   * holders (read in balance order) were read through 42 MB of dead index entries at 100,000
   * containers. A server's autovacuum does the same; this is cheap there (few pages changed).
   *
   * On PGlite the tables that only grow are vacuumed too: without a visibility map every
   * index-only read (an aggregates window's owners, the lists' keys) also reads each row's page.
   * At 100,000 containers (2026-11-27, a scratch probe) the aggregates' SQL took 3.4-3.6 ms before
   * such a vacuum and 3.0-3.5 after. Each vacuum reads only the pages written since the last.
   */
  private async vacuumRewrittenTables(): Promise<void> {
    if (this.storedSinceStart - this.vacuumedAt < (this.options.vacuumEvery ?? DEFAULT_VACUUM_EVERY)) return;
    this.vacuumedAt = this.storedSinceStart;
    const growing = this.options.database.autovacuums === true ? [] : CHAIN_SIZED_TABLES.filter((t) => !REWRITTEN_TABLES.includes(t));
    await this.options.database.query(`VACUUM ${[...REWRITTEN_TABLES, ...growing].join(", ")}`);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.wake = this.wake.filter((w) => w !== wake);
        resolve();
      }, ms);
      this.wake.push(wake);
    });
  }
}

function describe(error: Error): string {
  if (error instanceof NodeConnectionError || error instanceof NodeTimeoutError) return `the node cannot be reached (${error.message}); retrying`;
  return error.message;
}
