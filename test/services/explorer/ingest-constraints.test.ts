import { expect } from "chai";
import { migratedExplorerDatabase } from "./migrated-database";

/**
 * The ingester writes a transaction and its rows in one SQL transaction, the transaction first,
 * so the per-row reference checks are gone (schema-ingest-constraints.ts): a row is stored with
 * no lookup and no lock of the row it names. A container stored again is still kept out by the
 * primary key (index, container index).
 */
describe("explorer ingest: rows stored without a reference check per row", function () {
  this.timeout(60_000);
  const db = migratedExplorerDatabase();

  it("stores outputs, their owners, inputs, credentials and address history naming rows not checked", async () => {
    await db().transaction(async (q) => {
      await q.query("INSERT INTO outputs (id, transaction_id, output_index, chain_id, created_on_chain_id, asset_id, output_type, accepted_at) VALUES ('out', 'unstored', 0, 'X', 'X', 'A', 7, 1)");
      await q.query("INSERT INTO output_addresses (output_id, address, position) VALUES ('no-such-output', 'local1someone', 0)");
      await q.query("INSERT INTO transaction_inputs (transaction_id, position, output_id) VALUES ('unstored', 0, 'out')");
      await q.query("INSERT INTO input_credentials (transaction_id, input_position, position, address, public_key, signature) VALUES ('unstored', 0, 0, 'local1someone', '02', '00')");
      await q.query("INSERT INTO address_transactions (address, transaction_id, chain_id, accepted_at, sequence) VALUES ('local1someone', 'unstored', 'X', 1, 1)");
    });
    const [row] = await db().query("SELECT (SELECT count(*) FROM transactions)::int AS transactions, (SELECT count(*) FROM transaction_inputs)::int AS inputs");
    expect(row).to.deep.equal({ transactions: 0, inputs: 1 });
  });

  it("still stores a container index once: a page stored again adds no row", async () => {
    const insert = "INSERT INTO explorer_containers (index_name, container_index, container_id, bytes, accepted_at) VALUES ('X-tx', 0, 'id', '00', 1) ON CONFLICT DO NOTHING";
    await db().query(insert);
    await db().query(insert);
    expect(await db().query("SELECT count(*)::int AS count FROM explorer_containers")).to.deep.equal([{ count: 1 }]);
  });
});
