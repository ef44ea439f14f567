import { expect } from "chai";
import { openExplorerService, type ExplorerService } from "../../../src/services/explorer";
import { callLogger, contractToExchangeChain, createAsset, cTransfer, deployLogger, exchangeToContractChain, type FundedNode, LOG_TOPIC, newXAddress, platformToExchange, startFundedNode, xSend } from "./helpers";

const bare = (address: string) => address.replace(/^[XPC]-/, "");

describe("explorer ingest: the three chains of a node with indexing, into PGlite", function () {
  this.timeout(60_000);
  let node: FundedNode;
  let explorer: ExplorerService;

  before(async () => {
    node = await startFundedNode();
    explorer = await openExplorerService({ nodeUrl: node.url, pollIntervalMs: 50 });
  });
  after(async () => {
    await explorer?.close();
    await node?.close();
  });

  const caughtUp = () => explorer.ingester.waitUntilCaughtUp(30_000);
  const one = async (sql: string, params: (string | number)[] = []) => (await explorer.database.query(sql, params))[0];

  it("stores an exchange-chain send: its inputs, outputs, signer with public key, and fee", async () => {
    const to = await newXAddress(node);
    const txID = await xSend(node, to, 5_000_000n);
    await caughtUp();
    const tx = await one("SELECT type, tx_fee::text AS fee, chain_id FROM transactions WHERE id = $1", [txID]);
    expect(tx).to.deep.equal({ type: "base", fee: "1000000", chain_id: explorer.context.chains.X });
    const received = await one("SELECT o.amount::text AS amount FROM outputs o JOIN output_addresses a ON a.output_id = o.id WHERE o.transaction_id = $1 AND a.address = $2", [txID, bare(to)]);
    expect(received).to.deep.equal({ amount: "5000000" });
    const signer = await one("SELECT c.address, a.public_key FROM input_credentials c JOIN addresses a ON a.address = c.address WHERE c.transaction_id = $1", [txID]);
    expect(signer!.address).to.equal(bare(node.x));
    expect(signer!.public_key).to.match(/^0[23][0-9a-f]{64}$/);
    const spent = await one("SELECT count(*)::int AS n FROM outputs WHERE redeeming_transaction_id = $1", [txID]);
    expect(spent!.n).to.be.greaterThan(0);
  });

  it("vacuums the tables it rewrites in place and those that only grow as containers are stored (PGlite has no autovacuum)", async () => {
    const vacuuming = await openExplorerService({ nodeUrl: node.url, pollIntervalMs: 50, vacuumEvery: 1 });
    try {
      await xSend(node, await newXAddress(node), 2_500_000n);
      await vacuuming.ingester.waitUntilCaughtUp(30_000);
      const rows = await vacuuming.database.query(
        "SELECT relname, last_vacuum IS NOT NULL AS vacuumed FROM pg_stat_user_tables WHERE relname IN ('address_asset_totals', 'output_addresses', 'transactions') ORDER BY relname",
      );
      expect(rows).to.deep.equal(["address_asset_totals", "output_addresses", "transactions"].map((relname) => ({ relname, vacuumed: true })));
    } finally {
      await vacuuming.close();
    }
  });

  it("stores the native asset from the genesis and a created asset with its initial holder", async () => {
    const native = await one("SELECT symbol, alias, denomination FROM assets WHERE id = $1", [explorer.context.nativeAssetId]);
    expect(native).to.deep.equal({ symbol: "AVAX", alias: "AVAX", denomination: 9 });
    const assetID = await createAsset(node, node.x);
    await caughtUp();
    expect(await one("SELECT name, symbol, denomination, variable_cap, nft FROM assets WHERE id = $1", [assetID])).to.deep.equal({ name: "Test Coin", symbol: "TST", denomination: 2, variable_cap: 0, nft: 0 });
    expect(await one("SELECT type FROM transactions WHERE id = $1", [assetID])).to.deep.equal({ type: "create_asset" });
    expect(await one("SELECT sum(amount)::text AS supply FROM outputs WHERE asset_id = $1", [assetID])).to.deep.equal({ supply: "100000" });
  });

  it("links an exchange-chain export to the contract chain with the atomic UTXO it leaves there", async () => {
    const { exportTxID } = await exchangeToContractChain(node, 200_000_000n);
    await caughtUp();
    const exported = await one("SELECT t.destination_chain_id, o.chain_id, o.amount::text AS amount FROM transactions t JOIN outputs o ON o.transaction_id = t.id WHERE t.id = $1 AND o.chain_id <> t.chain_id", [exportTxID]);
    expect(exported).to.deep.equal({ destination_chain_id: explorer.context.chains.C, chain_id: explorer.context.chains.C, amount: "200000000" });
  });

  it("stores a contract-chain export when the exchange chain imports it, linked both ways", async () => {
    const { exportTxID, importTxID } = await contractToExchangeChain(node, 50_000_000n);
    await caughtUp();
    expect(await one("SELECT chain_id, type, destination_chain_id FROM transactions WHERE id = $1", [exportTxID])).to.deep.equal({ chain_id: explorer.context.chains.C, type: "export", destination_chain_id: explorer.context.chains.X });
    const redeemed = await one("SELECT count(*)::int AS n FROM outputs WHERE transaction_id = $1 AND redeeming_transaction_id = $2", [exportTxID, importTxID]);
    expect(redeemed!.n).to.equal(1);
  });

  it("stores contract-chain blocks, transfers with receipts, and a contract's logs", async () => {
    const transfer = await cTransfer(node, "0x000000000000000000000000000000000000dEaD", 12345n);
    const { address, deployHash } = await deployLogger(node);
    const call = await callLogger(node, address);
    await caughtUp();
    expect(await one("SELECT value::text AS value, status, to_addr FROM c_transactions WHERE hash = $1", [transfer])).to.deep.equal({ value: "12345", status: 1, to_addr: "0x000000000000000000000000000000000000dead" });
    expect(await one("SELECT contract_address FROM c_transactions WHERE hash = $1", [deployHash])).to.deep.equal({ contract_address: address });
    expect(await one("SELECT address, topics FROM c_logs WHERE transaction_hash = $1", [call])).to.deep.equal({ address, topics: JSON.stringify([LOG_TOPIC]) });
    const head = await node.provider.getBlock("latest");
    expect(await one("SELECT hash FROM c_blocks WHERE number = $1", [head!.number])).to.deep.equal({ hash: head!.hash!.toLowerCase() });
  });

  it("stores a platform block's export and the exchange chain's import of it", async () => {
    const { exportTxID, importTxID } = await platformToExchange(node, 30_000_000n);
    await caughtUp();
    expect(await one("SELECT type, block_id IS NOT NULL AS in_block FROM transactions WHERE id = $1", [exportTxID])).to.deep.equal({ type: "pvm_export", in_block: true });
    expect(await one("SELECT count(*)::int AS n FROM outputs WHERE transaction_id = $1 AND redeeming_transaction_id = $2", [exportTxID, importTxID])).to.deep.equal({ n: 1 });
  });

  it("reports each index caught up, with nothing behind and no error", async () => {
    await caughtUp();
    for (const p of explorer.ingester.progress()) {
      expect(p.lastError, p.index).to.equal(null);
      expect(p.behindBy === null || p.behindBy === "0", p.index).to.equal(true);
      expect(p.undecoded, p.index).to.equal(0);
    }
  });
});
