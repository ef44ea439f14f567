import { expect } from "chai";
import { openExplorerService, type ExplorerService } from "../../../src/services/explorer";
import { alive } from "../../helpers/processes";
import { startPostgresServer, type PostgresServer } from "../../helpers/postgres-server";
import { cTransfer, type FundedNode, newXAddress, startFundedNode, xSend } from "./helpers";
import { expectIndexedAsTheNode } from "./ingest-checks";
import { totalsAndRecount } from "./totals-oracle";

describe("explorer ingest: a real PostgreSQL server, and one that goes away and comes back", function () {
  this.timeout(120_000);
  let node: FundedNode;
  let postgres: PostgresServer;
  let explorer: ExplorerService;

  before(async () => {
    node = await startFundedNode();
    postgres = await startPostgresServer();
    explorer = await openExplorerService({ nodeUrl: node.url, databaseUrl: postgres.url, pollIntervalMs: 50 });
  });
  after(async () => {
    await explorer?.close();
    await node?.close();
    const pid = postgres?.pid;
    await postgres?.stop();
    if (pid !== undefined) expect(alive(pid)).to.equal(false);
  });

  it("stores the node's transactions and blocks through pg, as it does in PGlite", async () => {
    const txID = await xSend(node, await newXAddress(node), 2_000_000n);
    const hash = await cTransfer(node, "0x000000000000000000000000000000000000bEEF", 7n);
    await explorer.ingester.waitUntilCaughtUp(30_000);
    expect(explorer.database.description).to.match(/^PostgreSQL at postgres:\/\//);
    expect(await explorer.database.query("SELECT type FROM transactions WHERE id = $1", [txID])).to.deep.equal([{ type: "base" }]);
    expect(await explorer.database.query("SELECT value::text AS value FROM c_transactions WHERE hash = $1", [hash])).to.deep.equal([{ value: "7" }]);
    await expectIndexedAsTheNode(explorer, node);
  });

  it("keeps the running totals, their ledger and the supplies the rows recount to, through pg", async () => {
    await xSend(node, await newXAddress(node), 1_500_000n);
    await explorer.ingester.waitUntilCaughtUp(30_000);
    const { kept, recounted } = await totalsAndRecount(explorer.database);
    expect(kept[0]!.length).to.be.at.least(4);
    expect(kept).to.deep.equal(recounted);
  });

  it("vacuums the tables it rewrites in place as containers are stored, leaves those that only grow to the server's autovacuum, and stores the same", async () => {
    const vacuuming = await openExplorerService({ nodeUrl: node.url, databaseUrl: postgres.url, pollIntervalMs: 50, vacuumEvery: 1 });
    try {
      await xSend(node, await newXAddress(node), 2_500_000n);
      await vacuuming.ingester.waitUntilCaughtUp(30_000);
      const rows = await vacuuming.database.query("SELECT relname, last_vacuum IS NOT NULL AS vacuumed FROM pg_stat_user_tables WHERE relname IN ('address_asset_totals', 'output_addresses') ORDER BY relname");
      expect(rows).to.deep.equal([
        { relname: "address_asset_totals", vacuumed: true },
        { relname: "output_addresses", vacuumed: false },
      ]);
      await expectIndexedAsTheNode(vacuuming, node);
    } finally {
      await vacuuming.close();
    }
  });

  it("reports the outage in the status, then stores what was accepted meanwhile once the server is back, nothing lost or doubled", async () => {
    await explorer.ingester.waitUntilCaughtUp(30_000);
    await postgres.pause();
    const during = [await xSend(node, await newXAddress(node), 3_000_000n), await xSend(node, await newXAddress(node), 4_000_000n)];
    const hash = await cTransfer(node, "0x000000000000000000000000000000000000bEEF", 9n);
    for (let i = 0; i < 200 && explorer.ingester.progress().every((p) => p.lastError === null); i++) await new Promise((r) => setTimeout(r, 50));
    const failing = explorer.ingester.progress().find((p) => p.lastError !== null);
    expect(failing?.state).to.equal("retrying");
    await postgres.resume();
    await explorer.ingester.waitUntilCaughtUp(60_000);
    for (const txID of during) expect(await explorer.database.query("SELECT count(*)::int AS n FROM transactions WHERE id = $1", [txID])).to.deep.equal([{ n: 1 }]);
    expect(await explorer.database.query("SELECT count(*)::int AS n FROM c_transactions WHERE hash = $1", [hash])).to.deep.equal([{ n: 1 }]);
    await expectIndexedAsTheNode(explorer, node);
    expect(explorer.ingester.progress().every((p) => p.lastError === null)).to.equal(true);
  });
});
