import { expect } from "chai";
import type { SqlDatabase } from "../../../src/services/explorer";
import type { OutputRow, TransactionRow } from "../../../src/services/explorer/ingest/rows";
import { storeTransactions } from "../../../src/services/explorer/ingest/store";
import { migratedExplorerDatabase } from "./migrated-database";

const X = "2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed";
const ASSET = "2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe";

function tx(id: string, fields: Partial<TransactionRow>): TransactionRow {
  return { id, chainId: X, type: "base", memo: "", txFee: 0n, genesis: false, acceptedAt: 1000, blockId: null, sourceChainId: null, destinationChainId: null, bytes: "00", inputs: [], outputs: [], credentials: [], assets: [], ...fields };
}

function output(txId: string, outputIndex: number): OutputRow {
  return { id: `${txId}-out${outputIndex}`, transactionId: txId, outputIndex, chainId: X, createdOnChainId: X, assetId: ASSET, outputType: 7, amount: 5n, locktime: 0n, threshold: 1, groupId: 0, payload: null, stake: false, addresses: ["local1someone"] };
}

/** The block (page of the table) a row's current version is in. */
const blockOf = async (database: SqlDatabase, outputId: string) => String((await database.query("SELECT (ctid::text::point)[0]::int AS block FROM outputs WHERE id = $1", [outputId]))[0]!.block);

/**
 * A spend (ingest/store.ts) sets an output's redeemer: no index holds that column and the
 * table's pages keep room (schema-ingest-spends.ts), so the spent version is written on the
 * unspent one's page, a heap-only update, with no new entry in any of the table's indexes.
 */
describe("explorer ingest: an output marked spent is rewritten in place", function () {
  this.timeout(60_000);
  const db = migratedExplorerDatabase((database) => database.query("INSERT INTO chains (id, alias, vm, network_id) VALUES ($1, 'X', 'avm', 1)", [X]));

  it("writes the spent version of an output on the page of its unspent one", async () => {
    // Enough outputs for several pages: the first page is as full as the table fills its pages.
    await db().transaction((q) => storeTransactions(q, [tx("creator", { outputs: Array.from({ length: 200 }, (_, i) => output("creator", i)) })]));
    const before = await blockOf(db(), "creator-out0");
    await db().transaction((q) => storeTransactions(q, [tx("spender", { acceptedAt: 2000, inputs: [{ position: 0, outputId: "creator-out0", transactionId: "creator", outputIndex: 0, assetId: ASSET, amount: 5n }] })]));
    const [spent] = await db().query("SELECT redeeming_transaction_id FROM outputs WHERE id = 'creator-out0'");
    expect(spent!.redeeming_transaction_id).to.equal("spender");
    expect(await blockOf(db(), "creator-out0")).to.equal(before);
  });
});
