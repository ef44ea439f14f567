/**
 * The ingester builds a page's statements (ingest/page-statements.ts) while the page before it
 * is stored, starts a page's SQL transaction while the page before it is being committed (its own
 * rows first, the rows other pages write once that commit is done: store.ts PageOrder), and takes
 * the planner's statistics beside its loops. Pages are still committed one by one, in order, each
 * with its progress: a page built ahead is stored as one built in its transaction, a page that
 * fails leaves none of its rows and takes the page started after it down with it, and `stop`
 * waits for the statistics.
 */
import { expect } from "chai";
import { generateStandInChain, startStandInNode, type StandInChain, type StandInNode } from "../../../bench/explorer-stand-in";
import { openExplorerService, type ExplorerService } from "../../../src/services/explorer";
import { PageDecoder } from "../../../src/services/explorer/ingest/decode-page";
import { Ingester } from "../../../src/services/explorer/ingest/ingester";
import { prepareBatch } from "../../../src/services/explorer/ingest/page-statements";
import { storeBatch } from "../../../src/services/explorer/ingest/store";
import { CHAIN_SIZED_TABLES } from "../../../src/services/explorer/schema";
import type { SqlDatabase, SqlQueries, SqlValue } from "../../../src/services/sql/database";
import { openPostgresDatabase } from "../../../src/services/sql/pg-database";
import { type PostgresServer, startPostgresServer } from "../../helpers/postgres-server";
import { totalsAndRecount } from "./totals-oracle";

const PAGE = 100;

/** Every row of the tables a page writes, as text in order: equal for two databases holding the same. */
async function contents(db: SqlQueries): Promise<Record<string, string>> {
  const tables: Record<string, string> = {};
  for (const table of [...CHAIN_SIZED_TABLES, "asset_totals", "explorer_progress"]) {
    // The progress's time is when it was written, not what.
    const row = table === "explorer_progress" ? "(t.index_name, t.next_index)::text" : "t::text";
    const [found] = await db.query(`SELECT count(*)::int AS n, coalesce(md5(string_agg(${row}, '|' ORDER BY ${row})), '') AS digest FROM ${table} t`);
    tables[table] = `${String(found!.n)} ${String(found!.digest)}`;
  }
  return tables;
}

/** The database, with a hook run on each statement of each page's SQL transaction and on each statement outside one. */
function watched(
  db: SqlDatabase,
  hooks: {
    inPage?: (text: string, page: number, params: readonly SqlValue[]) => Promise<void> | void;
    outside?: (text: string) => Promise<void> | void;
    afterFailedPage?: (page: number) => Promise<void>;
    /** After a statement of a page has run. */
    answered?: (text: string, page: number) => void;
    committed?: (page: number) => void;
  },
): SqlDatabase {
  let pages = 0;
  return {
    description: db.description,
    close: () => db.close(),
    query: async (text, params) => {
      await hooks.outside?.(text);
      return db.query(text, params);
    },
    transaction: async (work) => {
      const page = ++pages;
      try {
        const result = await db.transaction((q) =>
          work({
            query: async (text, params) => {
              await hooks.inPage?.(text, page, params ?? []);
              const rows = await q.query(text, params);
              hooks.answered?.(text, page);
              return rows;
            },
          }),
        );
        hooks.committed?.(page);
        return result;
      } catch (error) {
        await hooks.afterFailedPage?.(page);
        throw error;
      }
    },
  };
}

describe("explorer ingest: a page's statements built while the page before it is stored", function () {
  this.timeout(180_000);
  let chain: StandInChain;
  let node: StandInNode;
  const opened: ExplorerService[] = [];
  const open = async () => {
    const explorer = await openExplorerService({ nodeUrl: node.url, autoStart: false });
    opened.push(explorer);
    return explorer;
  };

  /** Ingests the whole stand-in chain through `database` (the explorer's, watched), in pages of PAGE; the ingester stopped after. */
  const ingestAll = async (explorer: ExplorerService, database: SqlDatabase): Promise<void> => {
    const ingester = new Ingester({ database, node: explorer.node, context: explorer.context, pageSize: PAGE, pollIntervalMs: 10, decodeThreads: 0 });
    await ingester.start();
    try {
      await ingester.waitUntilCaughtUp(120_000);
    } finally {
      await ingester.stop();
    }
  };

  before(async () => {
    // 1,200 transactions of 50 senders: pages of 100 spend outputs of the page before them.
    chain = generateStandInChain(1200, 50);
    node = await startStandInNode(chain, chain.containers.length);
  });
  afterEach(async () => {
    for (const explorer of opened.splice(0)) await explorer.close();
  });
  after(async () => {
    await node?.close();
  });

  it("stores every page built before the pages ahead of it were stored as pages built in their SQL transaction", async () => {
    const [built, ahead] = [await open(), await open()];
    const decoder = new PageDecoder(built.context, built.node, built.database);
    const read = async (start: number) => {
      const decoded = await decoder.decode("X-tx", await built.node.index("X-tx").getContainerRange(BigInt(start), PAGE));
      return { decoded, prepared: prepareBatch("X-tx", decoded.containers, decoded.extra) };
    };
    // As the ingester does: each page read, decoded and built before the page before it is stored.
    let next = await read(0);
    for (let start = 0; start < chain.containers.length; start += PAGE) {
      const { decoded: p, prepared } = next;
      if (start + PAGE < chain.containers.length) next = await read(start + PAGE);
      await built.database.transaction((q) => storeBatch(q, "X-tx", p.containers, p.extra));
      await ahead.database.transaction((q) => storeBatch(q, "X-tx", p.containers, p.extra, prepared));
    }
    const expected = await contents(built.database);
    expect(expected.transactions).to.match(/^1201 /);
    expect(await contents(ahead.database)).to.deep.equal(expected);
  });

  it("refuses to store a page with the statements built for another", async () => {
    const explorer = await open();
    const decoder = new PageDecoder(explorer.context, explorer.node, explorer.database);
    const first = await decoder.decode("X-tx", await explorer.node.index("X-tx").getContainerRange(0n, PAGE));
    const second = await decoder.decode("X-tx", await explorer.node.index("X-tx").getContainerRange(BigInt(PAGE), PAGE));
    const error = await explorer.database.transaction((q) => storeBatch(q, "X-tx", second.containers, second.extra, prepareBatch("X-tx", first.containers, first.extra))).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(Error);
    expect((error as Error).message).to.equal("the statements prepared are of another page");
    const [row] = await explorer.database.query("SELECT count(*)::int AS n FROM explorer_containers");
    expect(row).to.deep.equal({ n: 0 });
  });

  it("leaves none of a failing page's rows and stores no page after it, then stores each page once, in order", async () => {
    const explorer = await open();
    const failedPage = 4;
    const progress: { page: number; next: SqlValue }[] = [];
    const failedPages = new Set<number>();
    let failedOnce = false;
    let leftAfterFailure: unknown;
    const database = watched(explorer.database, {
      inPage: (text, page, params) => {
        // A statement sent without awaiting, in the middle of the page: the page's answers needed before it were met.
        if (page === failedPage && !failedOnce && text.startsWith("INSERT INTO address_transactions")) {
          failedOnce = true;
          throw new Error("the database failed this page");
        }
        if (text.startsWith("INSERT INTO explorer_progress")) progress.push({ page, next: params[1]! });
      },
      afterFailedPage: async (page) => {
        failedPages.add(page);
        const [row] = await explorer.database.query("SELECT count(*)::int AS containers, max(container_index)::int AS last FROM explorer_containers");
        leftAfterFailure = row;
      },
    });
    await ingestAll(explorer, database);
    expect(failedOnce).to.equal(true);
    // Three pages stored before the one that failed, nothing of it and nothing after it.
    expect(leftAfterFailure).to.deep.equal({ containers: 3 * PAGE, last: 3 * PAGE - 1 });
    const [stored] = await explorer.database.query("SELECT count(*)::int AS containers, count(DISTINCT container_index)::int AS distinct_indexes, max(container_index)::int AS last FROM explorer_containers");
    expect(stored).to.deep.equal({ containers: chain.containers.length, distinct_indexes: chain.containers.length, last: chain.containers.length - 1 });
    // The progress of each page committed once, in order (the failed attempt's rolled back with its rows).
    expect(failedPages).to.deep.equal(new Set([failedPage]));
    expect(progress.filter((p) => !failedPages.has(p.page)).map((p) => p.next)).to.deep.equal(Array.from({ length: chain.containers.length / PAGE }, (_, i) => String((i + 1) * PAGE)));
    const { kept, recounted } = await totalsAndRecount(explorer.database);
    expect(kept).to.deep.equal(recounted);
  });

  describe("on a PostgreSQL server, where two pages' SQL transactions run at once", () => {
    let server: PostgresServer;
    let databases = 0;
    before(async () => {
      server = await startPostgresServer();
    });
    after(async () => {
      await server?.stop();
    });
    /** An explorer on a database of its own on the server. */
    const openOnServer = async () => {
      const name = `overlap_${++databases}`;
      const admin = await openPostgresDatabase(server.url);
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.close();
      }
      const explorer = await openExplorerService({ nodeUrl: node.url, autoStart: false, databaseUrl: server.url.replace(/\/postgres$/, `/${name}`) });
      opened.push(explorer);
      return explorer;
    };
    /** `seen` answers true once `signal` is called, or false after 10 s (the test then fails on what did not happen). */
    const signalled = () => {
      let signal!: () => void;
      const seen = new Promise<boolean>((resolve) => (signal = () => resolve(true)));
      return { signal, seen: Promise.race([seen, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000))]) };
    };

    it("stores a page's own rows while the page before it is committed, links its spends only after that commit, and stores what pages stored one by one store", async () => {
      const [pipelined, oneByOne] = [await openOnServer(), await openOnServer()];
      const events: string[] = [];
      const ownRowsOf3 = signalled();
      const database = watched(pipelined.database, {
        inPage: async (text, page) => {
          if (text.startsWith("UPDATE outputs")) events.push(`links ${page}`);
          // Page 2 holds its commit until page 3 has stored its transactions.
          if (page === 2 && text.startsWith("INSERT INTO explorer_progress")) events.push((await ownRowsOf3.seen) ? "page 3 stored its transactions before page 2 committed" : "page 3 stored nothing while page 2 waited");
        },
        answered: (text, page) => {
          if (text.startsWith("INSERT INTO transactions")) events.push(`own rows ${page}`);
          if (text.startsWith("INSERT INTO transactions") && page === 3) ownRowsOf3.signal();
        },
        committed: (page) => events.push(`committed ${page}`),
      });
      await ingestAll(pipelined, database);
      const pages = chain.containers.length / PAGE;
      const at = (event: string) => events.indexOf(event);
      expect(events).to.include("page 3 stored its transactions before page 2 committed");
      expect(events.filter((e) => e.startsWith("committed"))).to.deep.equal(Array.from({ length: pages }, (_, i) => `committed ${i + 1}`));
      for (let page = 2; page <= pages; page++) expect(at(`links ${page}`), `page ${page}'s links`).to.be.greaterThan(at(`committed ${page - 1}`));
      // The same pages stored one after another, each in its SQL transaction.
      const decoder = new PageDecoder(oneByOne.context, oneByOne.node, oneByOne.database);
      for (let start = 0; start < chain.containers.length; start += PAGE) {
        const p = await decoder.decode("X-tx", await oneByOne.node.index("X-tx").getContainerRange(BigInt(start), PAGE));
        await oneByOne.database.transaction((q) => storeBatch(q, "X-tx", p.containers, p.extra));
      }
      expect(await contents(pipelined.database)).to.deep.equal(await contents(oneByOne.database));
      const { kept, recounted } = await totalsAndRecount(pipelined.database);
      expect(kept).to.deep.equal(recounted);
    });

    it("rolls back the page that stored its own rows after a page that then failed, and stores every page once, in order", async () => {
      const explorer = await openOnServer();
      const ownRowsOf5 = signalled();
      const failedPages = new Set<number>();
      const progress: { page: number; next: SqlValue }[] = [];
      let failedOnce = false;
      let ownRowsOf5Stored = false;
      const database = watched(explorer.database, {
        answered: (text, page) => {
          if (text.startsWith("INSERT INTO transactions") && page === 5) ownRowsOf5.signal();
        },
        inPage: async (text, page, params) => {
          if (page === 4 && !failedOnce && text.startsWith("INSERT INTO explorer_progress")) {
            ownRowsOf5Stored = await ownRowsOf5.seen;
            failedOnce = true;
            throw new Error("the database failed this page");
          }
          if (text.startsWith("INSERT INTO explorer_progress")) progress.push({ page, next: params[1]! });
        },
        afterFailedPage: async (page) => {
          failedPages.add(page);
        },
      });
      await ingestAll(explorer, database);
      expect({ failedOnce, ownRowsOf5Stored }).to.deep.equal({ failedOnce: true, ownRowsOf5Stored: true });
      expect(failedPages).to.deep.equal(new Set([4, 5]));
      expect(progress.filter((p) => !failedPages.has(p.page)).map((p) => p.next)).to.deep.equal(Array.from({ length: chain.containers.length / PAGE }, (_, i) => String((i + 1) * PAGE)));
      const [stored] = await explorer.database.query("SELECT count(*)::int AS containers, max(container_index)::int AS last FROM explorer_containers");
      expect(stored).to.deep.equal({ containers: chain.containers.length, last: chain.containers.length - 1 });
      const { kept, recounted } = await totalsAndRecount(explorer.database);
      expect(kept).to.deep.equal(recounted);
    });
  });

  it("stores pages while the planner's statistics are taken, and stops only once they are", async () => {
    const explorer = await open();
    let analyzing = false;
    let analyzed = false;
    let pagesDuringAnalyze = 0;
    const database = watched(explorer.database, {
      outside: async (text) => {
        if (!text.startsWith("ANALYZE")) return;
        analyzing = true;
        await new Promise((resolve) => setTimeout(resolve, 1000));
        analyzing = false;
        analyzed = true;
      },
      inPage: (text) => {
        if (analyzing && text.startsWith("INSERT INTO explorer_progress")) pagesDuringAnalyze++;
      },
    });
    await ingestAll(explorer, database);
    // The statistics taken after 1,000 containers, before the last pages were stored: stop waited for them.
    expect(analyzed).to.equal(true);
    expect(pagesDuringAnalyze).to.be.greaterThan(0);
  });
});
