import { expect } from "chai";
import { generateStandInChain, startStandInNode, type StandInNode } from "../../../bench/explorer-stand-in";
import { migrateExplorer, openExplorerService, type ExplorerService } from "../../../src/services/explorer";
import { PageDecoder } from "../../../src/services/explorer/ingest/decode-page";
import { storeBatch } from "../../../src/services/explorer/ingest/store";
import type { SqlDatabase } from "../../../src/services/sql/database";
import { openPgliteDatabase } from "../../../src/services/sql/pglite-database";
import { copyAsAnotherWriter, keptLedger, keptSupplies, keptTotals, ledgerFromOutputs, totalsAndRecount } from "./totals-oracle";

/** Any created output's redeemer left out: those the reader takes as they stand, and they change as later pages spend them. */
const WITHOUT_REDEEMERS = `regexp_replace(%s, '"redeemingTransactionID" : "[^"]*"', '', 'g')`;
const withoutRedeemers = (column: string) => WITHOUT_REDEEMERS.replace("%s", column);

/**
 * The documents the ingester writes itself (ingest/documents.ts) are the text the database's
 * `explorer_transaction_json` answers for the same rows, byte for byte: the reader passes them on
 * as they are. The per-minute aggregates it moves (ingest/minute-aggregates.ts) are those the
 * rows sum to, as migration 4 computed them from the rows. The running totals it moves
 * (ingest/running-totals.ts: every address's received, sent, balance, UTXOs and transactions
 * per chain and over all chains, the ledger of counted transactions, every asset's supply) equal
 * a recount from the rows, and what the triggers of migrations 2 and 3 keep for the same rows
 * written by another writer.
 */
describe("explorer ingest: the documents, per-minute aggregates and running totals the ingester writes", function () {
  this.timeout(180_000);
  let node: StandInNode;
  let explorer: ExplorerService;

  before(async () => {
    const chain = generateStandInChain(1200, 50);
    node = await startStandInNode(chain, chain.containers.length);
    // Pages of 200: the spent outputs are in the same page and in pages stored before.
    explorer = await openExplorerService({ nodeUrl: node.url, pollIntervalMs: 50, pageSize: 200 });
    await explorer.ingester.waitUntilCaughtUp(150_000);
  });
  after(async () => {
    await explorer?.close();
    await node?.close();
  });

  it("writes one complete document per transaction, equal to the database's record of its rows", async () => {
    const [row] = await explorer.database.query(
      `SELECT count(*)::int AS documents, count(*) FILTER (WHERE d.complete)::int AS complete,
              count(*) FILTER (WHERE ${withoutRedeemers("d.doc")} <> ${withoutRedeemers("explorer_transaction_json(d.id)::text")})::int AS different,
              (SELECT count(*)::int FROM transactions) AS transactions
         FROM transaction_documents d`,
    );
    expect(row!.transactions).to.be.greaterThan(1200);
    expect(row).to.deep.equal({ documents: row!.transactions, complete: row!.transactions, different: 0, transactions: row!.transactions });
  });

  it("shows each spent output redeemed by the transaction spending it", async () => {
    const rows = await explorer.database.query("SELECT doc FROM transaction_documents");
    let inputs = 0;
    for (const { doc } of rows) {
      const record = JSON.parse(String(doc)) as { id: string; inputs: { output: { redeemingTransactionID: string } }[] };
      for (const input of record.inputs) {
        expect(input.output.redeemingTransactionID).to.equal(record.id);
        inputs++;
      }
    }
    expect(inputs).to.be.at.least(1200);
  });

  it("keeps the per-minute aggregates the rows sum to", async () => {
    const differences = async (kept: string, summed: string) => {
      const [row] = await explorer.database.query(`SELECT (SELECT count(*) FROM (${kept}) k)::int AS kept,
          (SELECT count(*) FROM ((${kept}) EXCEPT (${summed})) a)::int + (SELECT count(*) FROM ((${summed}) EXCEPT (${kept})) b)::int AS different`);
      return row;
    };
    const outputs = await differences(
      "SELECT minute, chain_id, asset_id, volume, outputs, transactions, owners FROM explorer_minute_outputs",
      `WITH sums AS (SELECT o.accepted_at - o.accepted_at % 60000 AS minute, o.created_on_chain_id AS chain_id, o.asset_id, sum(o.amount) AS volume,
                            count(*) AS outputs, count(DISTINCT o.transaction_id) AS transactions FROM outputs o GROUP BY 1, 2, 3),
            owners AS (SELECT o.accepted_at - o.accepted_at % 60000 AS minute, o.created_on_chain_id AS chain_id, o.asset_id, count(DISTINCT oa.address) AS owners
                         FROM output_addresses oa JOIN outputs o ON o.id = oa.output_id GROUP BY 1, 2, 3)
       SELECT s.minute, s.chain_id, s.asset_id, s.volume, s.outputs, s.transactions, coalesce(w.owners, 0) FROM sums s LEFT JOIN owners w USING (minute, chain_id, asset_id)`,
    );
    const transactions = await differences(
      "SELECT minute, chain_id, transactions, txfee FROM explorer_minute_transactions",
      "SELECT t.accepted_at - t.accepted_at % 60000, t.chain_id, count(*), sum(t.tx_fee) FROM transactions t GROUP BY 1, 2",
    );
    const owners = await differences(
      "SELECT minute, chain_id, asset_id, address FROM explorer_minute_owners",
      "SELECT DISTINCT o.accepted_at - o.accepted_at % 60000, o.created_on_chain_id, o.asset_id, oa.address FROM output_addresses oa JOIN outputs o ON o.id = oa.output_id",
    );
    // 1,200 containers 100 ms apart: two minutes and more.
    expect(outputs!.kept).to.be.greaterThan(2);
    expect(transactions!.kept).to.be.greaterThan(2);
    expect(owners!.kept).to.be.greaterThan(100);
    expect([outputs!.different, transactions!.different, owners!.different]).to.deep.equal([0, 0, 0]);
  });

  it("writes a page's documents, aggregates and totals in the page's SQL transaction, the documents before its commit", async () => {
    const fresh = await openExplorerService({ nodeUrl: node.url, autoStart: false });
    try {
      const decoder = new PageDecoder(fresh.context, fresh.node, fresh.database);
      const decoded = await decoder.decode("X-tx", await fresh.node.index("X-tx").getContainerRange(0n, 100));
      const ids = [...decoded.containers.flatMap((c) => c.transactions), ...decoded.extra].map((t) => t.id);
      const beforeCommit = await fresh.database.transaction(async (q) => {
        await storeBatch(q, "X-tx", decoded.containers, decoded.extra);
        // The minute and running-total triggers stood aside: the aggregates and totals checked above are the ingester's.
        const [taken] = await q.query("SELECT current_setting('explorer.ingester_aggregates', true) AS aggregates, current_setting('explorer.ingester_totals', true) AS totals");
        expect(taken).to.deep.equal({ aggregates: "on", totals: "on" });
        return (await q.query("SELECT count(*)::int AS n FROM transaction_documents WHERE id = ANY($1::text[])", [`{${ids.join(",")}}`]))[0]!.n;
      });
      expect(ids.length).to.equal(100);
      expect(beforeCommit).to.equal(ids.length);
      const { kept, recounted } = await totalsAndRecount(fresh.database);
      expect(kept[0]!.length).to.be.greaterThan(0);
      expect(kept).to.deep.equal(recounted);
    } finally {
      await fresh.close();
    }
  });

  it("keeps each output's one owner on its row, as its owners' rows name it", async () => {
    const [row] = await explorer.database.query(
      `SELECT count(*)::int AS outputs, count(o.sole_owner)::int AS kept,
              count(*) FILTER (WHERE o.sole_owner IS DISTINCT FROM (SELECT CASE WHEN count(*) = 1 THEN min(oa.address) END FROM output_addresses oa WHERE oa.output_id = o.id))::int AS different
         FROM outputs o`,
    );
    expect(row!.outputs).to.be.greaterThan(2400);
    expect(row).to.deep.equal({ outputs: row!.outputs, kept: row!.outputs, different: 0 });
  });

  it("keeps no sole owner for an output with two owners or none: its owners are read from their rows", async () => {
    const fresh = await openExplorerService({ nodeUrl: node.url, autoStart: false });
    try {
      const decoder = new PageDecoder(fresh.context, fresh.node, fresh.database);
      const decoded = await decoder.decode("X-tx", await fresh.node.index("X-tx").getContainerRange(0n, 10));
      const [first, second, third] = decoded.containers.flatMap((c) => c.transactions).flatMap((t) => t.outputs);
      first!.addresses = [first!.addresses[0]!, "local1another"];
      second!.addresses = [];
      await fresh.database.transaction((q) => storeBatch(q, "X-tx", decoded.containers, decoded.extra));
      const rows = await fresh.database.query("SELECT id, sole_owner FROM outputs WHERE id = ANY($1::text[]) ORDER BY array_position($1::text[], id)", [`{${first!.id},${second!.id},${third!.id}}`]);
      expect(rows).to.deep.equal([
        { id: first!.id, sole_owner: null },
        { id: second!.id, sole_owner: null },
        { id: third!.id, sole_owner: third!.addresses[0] },
      ]);
    } finally {
      await fresh.close();
    }
  });

  it("keeps the totals, the ledger and the supplies the rows recount to", async () => {
    const { kept, recounted } = await totalsAndRecount(explorer.database);
    // 50 senders and a hot address, each on the chain and over all chains.
    expect(kept[0]!.length).to.be.at.least(100);
    expect(kept[2]!.length).to.equal(1);
    expect(kept).to.deep.equal(recounted);
  });

  it("writes no ledger row for a transaction whose inputs its page linked (every one here spends outputs stored before it)", async () => {
    expect(await ledgerFromOutputs(explorer.database)).to.have.length.at.least(2400);
    expect(await keptLedger(explorer.database)).to.deep.equal([]);
  });

  it("records each transaction touching an address with its ingestion sequence, for the history's order", async () => {
    const [row] = await explorer.database.query(
      "SELECT count(*)::int AS touched, count(*) FILTER (WHERE at.sequence <> t.sequence)::int AS unordered FROM address_transactions at JOIN transactions t ON t.id = at.transaction_id",
    );
    expect(row!.touched).to.be.at.least(2400);
    expect(row!.unordered).to.equal(0);
  });

  it("keeps what the triggers keep for the same rows written by another writer", async () => {
    let other: SqlDatabase | undefined;
    try {
      other = await openPgliteDatabase(undefined);
      await migrateExplorer(other);
      await other.transaction((q) => copyAsAnotherWriter(explorer.database, q));
      expect(await keptTotals(other)).to.deep.equal(await keptTotals(explorer.database));
      // The triggers keep a ledger row per counted row; the ingester only those of transactions still open.
      expect(await keptLedger(other)).to.deep.equal(await ledgerFromOutputs(explorer.database));
      expect(await keptSupplies(other)).to.deep.equal(await keptSupplies(explorer.database));
    } finally {
      await other?.close();
    }
  });
});
