import { expect } from "chai";
import { storeTransactions } from "../../../src/services/explorer/ingest/store";
import type { OutputRow, TransactionRow } from "../../../src/services/explorer/ingest/rows";
import { migratedExplorerDatabase } from "./migrated-database";
import { totalsAndRecount } from "./totals-oracle";

/**
 * Cross-chain order: the three indexes are read independently, so an import may be stored
 * before the export whose output it spends. Both orders must end with the same links.
 */
const X = "2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed";
const C = "2CA6j5zYzasynPsFeNoqWkmTCt3VScMvXUZHbfDJ8k3oGzAPtU";
const ASSET = "2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe";

function tx(id: string, chainId: string, type: string, fields: Partial<TransactionRow>): TransactionRow {
  return { id, chainId, type, memo: "", txFee: 0n, genesis: false, acceptedAt: 1000, blockId: null, sourceChainId: null, destinationChainId: null, bytes: "00", inputs: [], outputs: [], credentials: [], assets: [], ...fields };
}

function exported(id: string, txId: string): OutputRow {
  return { id, transactionId: txId, outputIndex: 1, chainId: X, createdOnChainId: C, assetId: ASSET, outputType: 7, amount: 5n, locktime: 0n, threshold: 1, groupId: 0, payload: null, stake: false, addresses: ["local1someone"] };
}

describe("explorer ingest: outputs and the inputs spending them, stored in either order", function () {
  this.timeout(60_000);
  // The contract chain known, so the supply counts its exports (running-totals.ts).
  const db = migratedExplorerDatabase((database) => database.query("INSERT INTO chains (id, alias, vm, network_id) VALUES ($1, 'X', 'avm', 1), ($2, 'C', 'evm', 1)", [X, C]));

  const exportTx = (n: number) => tx(`export${n}`, C, "export", { destinationChainId: X, outputs: [exported(`out${n}`, `export${n}`)] });
  const importTx = (n: number) =>
    tx(`import${n}`, X, "import", { acceptedAt: 2000, sourceChainId: C, inputs: [{ position: 0, outputId: `out${n}`, transactionId: `export${n}`, outputIndex: 1, assetId: ASSET, amount: 5n }] });
  const link = async (n: number) => (await db().query("SELECT redeeming_transaction_id, redeemed_at::int AS at FROM outputs WHERE id = $1", [`out${n}`]))[0];

  it("links an output to the import stored after it", async () => {
    await db().transaction((q) => storeTransactions(q, [exportTx(1)]));
    expect(await link(1)).to.deep.equal({ redeeming_transaction_id: null, at: null });
    await db().transaction((q) => storeTransactions(q, [importTx(1)]));
    expect(await link(1)).to.deep.equal({ redeeming_transaction_id: "import1", at: 2000 });
  });

  it("links an output to the import stored before it", async () => {
    await db().transaction((q) => storeTransactions(q, [importTx(2)]));
    await db().transaction((q) => storeTransactions(q, [exportTx(2)]));
    expect(await link(2)).to.deep.equal({ redeeming_transaction_id: "import2", at: 2000 });
  });

  it("stores nothing twice when a batch is stored again", async () => {
    await db().transaction((q) => storeTransactions(q, [exportTx(3), importTx(3)]));
    await db().transaction((q) => storeTransactions(q, [exportTx(3), importTx(3)]));
    const [counts] = await db().query(
      "SELECT (SELECT count(*) FROM transactions WHERE id IN ('export3', 'import3'))::int AS txs, (SELECT count(*) FROM output_addresses WHERE output_id = 'out3')::int AS owners, (SELECT count(*) FROM address_transactions WHERE address = 'local1someone')::int AS touched",
    );
    expect(counts).to.deep.equal({ txs: 2, owners: 1, touched: 3 });
    expect(await link(3)).to.deep.equal({ redeeming_transaction_id: "import3", at: 2000 });
  });

  it("keeps the running totals the rows recount to, whichever of an output and its spender was stored first", async () => {
    const { kept, recounted } = await totalsAndRecount(db());
    // The owner of the three exported outputs, on the exchange chain and over all chains; one asset.
    expect(kept[0]).to.deep.equal([`local1someone  ${ASSET} 15 15 0 0 6`, `local1someone ${X} ${ASSET} 15 15 0 0 6`]);
    expect(kept).to.deep.equal(recounted);
  });

  it("keeps in the ledger only the rows of an import stored before the export it spends (the others were closed in their page)", async () => {
    const [named] = await db().query("SELECT array_agg(DISTINCT transaction_id ORDER BY transaction_id) AS ids FROM address_asset_transactions");
    expect(named!.ids).to.deep.equal(["import2"]);
  });
});
