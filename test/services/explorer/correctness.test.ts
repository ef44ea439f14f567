import { expect } from "chai";
import { checkExplorerAgainstNode, openExplorerService, type ExplorerService } from "../../../src/services/explorer";
import { utxoId } from "../../../src/utxo/codec";
import { decodeCb58, encodeCb58 } from "../../../src/encoding";
import { contractToExchangeChain, createAsset, cTransfer, deployLogger, callLogger, exchangeToContractChain, type FundedNode, newXAddress, platformToExchange, startFundedNode, xSend } from "./helpers";

/**
 * Issue 14 §4 after a journey through the three chains (the flows of src/flows): every balance
 * and every output's spent state the explorer derives equals the node's, and every stored
 * contract-chain block is the node's.
 */
describe("explorer correctness: the tables against the node after a journey through the three chains", function () {
  this.timeout(120_000);
  let node: FundedNode;
  let explorer: ExplorerService;
  const exportsToC: string[] = [];

  before(async () => {
    node = await startFundedNode();
    explorer = await openExplorerService({ nodeUrl: node.url, pollIntervalMs: 50 });
    const friend = await newXAddress(node);
    await xSend(node, friend, 40_000_000n);
    const assetID = await createAsset(node, friend);
    await xSend(node, node.x, 2_500n, assetID);
    exportsToC.push((await exchangeToContractChain(node, 300_000_000n)).exportTxID);
    await cTransfer(node, "0x000000000000000000000000000000000000dEaD", 10n ** 15n);
    const logger = await deployLogger(node);
    await callLogger(node, logger.address);
    await contractToExchangeChain(node, 100_000_000n);
    await platformToExchange(node, 50_000_000n);
    await xSend(node, friend, 1_000_000n);
    await explorer.ingester.waitUntilCaughtUp(60_000);
  });
  after(async () => {
    await explorer?.close();
    await node?.close();
  });

  it("finds every balance, UTXO set and contract-chain block equal to the node's", async () => {
    const report = await checkExplorerAgainstNode(explorer.database, explorer.node, explorer.context);
    expect(report.mismatches).to.deep.equal([]);
    expect(report.checked.balances).to.be.greaterThan(3);
    expect(report.checked.utxos).to.be.greaterThan(3);
    expect(report.checked.cBlocks).to.be.greaterThan(3);
  });

  it("links the outputs exported to the contract chain to its import, read from the block's extra data", async () => {
    const report = await checkExplorerAgainstNode(explorer.database, explorer.node, explorer.context);
    expect(report.unseenImports).to.deep.equal([]);
    const exported = await explorer.database.query(
      "SELECT o.id, t.chain_id, t.type FROM outputs o JOIN transactions t ON t.id = o.redeeming_transaction_id WHERE o.transaction_id = ANY($1::text[]) AND o.chain_id = $2",
      [`{${exportsToC.join(",")}}`, explorer.context.chains.C],
    );
    expect(exported).to.have.length.greaterThan(0);
    for (const row of exported) expect([row.chain_id, row.type]).to.deep.equal([explorer.context.chains.C, "import"]);
  });

  it("detects a balance that differs from the node's", async () => {
    const [victim] = await explorer.database.query("SELECT o.id FROM outputs o WHERE o.chain_id = $1 AND o.redeeming_transaction_id IS NULL AND o.output_type = 7 LIMIT 1", [explorer.context.chains.X]);
    await explorer.database.query("UPDATE outputs SET amount = amount + 1 WHERE id = $1", [String(victim!.id)]);
    try {
      const report = await checkExplorerAgainstNode(explorer.database, explorer.node, explorer.context);
      expect(report.mismatches.join("\n")).to.match(/the node's balance \d+, the explorer's \d+/);
    } finally {
      await explorer.database.query("UPDATE outputs SET amount = amount - 1 WHERE id = $1", [String(victim!.id)]);
    }
  });

  it("keys outputs by the node's UTXO IDs", async () => {
    const [row] = await explorer.database.query("SELECT id, transaction_id, output_index FROM outputs LIMIT 1");
    expect(row!.id).to.equal(encodeCb58(utxoId(decodeCb58(String(row!.transaction_id)), Number(row!.output_index))));
  });
});
