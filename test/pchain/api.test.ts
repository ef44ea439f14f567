import { expect } from "chai";
import { decodeNodeBytes, encodeCb58 } from "../../src/encoding";
import { decodePBlock, PTypeId } from "../../src/pchain";
import { decodeUtxo } from "../../src/utxo/codec";
import { addressOf, EWOQ, pAddress, type PNode, startWithUser, testKey, USER, xAddress } from "./helpers";

const P_ID = "11111111111111111111111111111111LpoYY";
const UNKNOWN_TX = encodeCb58(new Uint8Array(32).fill(9));

describe("pchain API over HTTP", function () {
  this.timeout(30_000);
  let node: PNode;
  before(async () => {
    node = await startWithUser();
  });
  after(async () => node.close());

  it("is served at /ext/bc/P and at /ext/bc/<P chain ID>", async () => {
    expect(await node.call("platform.getHeight")).to.deep.equal({ height: "0" });
    expect(await node.call("platform.getHeight", {}, `/ext/bc/${P_ID}`)).to.deep.equal({ height: "0" });
  });

  it("blocks: the genesis commit block, then one Banff standard block per transaction, by ID and by height, hex or json", async () => {
    const genesis = await node.call<{ block: string; encoding: string }>("platform.getBlockByHeight", { height: 0 });
    expect(genesis.encoding).to.equal("hex");
    expect(decodePBlock(decodeNodeBytes(genesis.block, "hex")).typeId).to.equal(PTypeId.ApricotCommitBlock);
    const { txID } = await node.call<{ txID: string }>("platform.exportAVAX", { ...USER, to: xAddress(EWOQ), amount: "1000000000" });
    const height = await node.call<{ height: string }>("platform.getHeight");
    const json = await node.call<{ block: { id: string; parentID: string; height: string; txs: { id: string }[] } }>("platform.getBlockByHeight", { height: height.height, encoding: "json" });
    expect(json.block.txs.map((t) => t.id)).to.deep.equal([txID]);
    const byId = await node.call<{ block: string }>("platform.getBlock", { blockID: json.block.id, encoding: "hex" });
    const block = decodePBlock(decodeNodeBytes(byId.block, "hex"));
    expect(block.typeId).to.equal(PTypeId.BanffStandardBlock);
    expect(encodeCb58(block.parentId)).to.equal(json.block.parentID);
    expect((await node.fail("platform.getBlockByHeight", { height: 999 })).code).to.equal(-32000);
    expect((await node.fail("platform.getBlock", { blockID: UNKNOWN_TX })).message).to.match(/not found/);
    expect((await node.fail("platform.getBlock", { blockID: "nope" })).code).to.equal(-32602);
    expect((await node.fail("platform.getBlockByHeight", { height: 0, encoding: "base64" })).code).to.equal(-32602);
  });

  it("getTx and getTxStatus: Committed, Unknown; bad IDs refused", async () => {
    const { txID } = await node.call<{ txID: string }>("platform.exportAVAX", { ...USER, to: xAddress(EWOQ), amount: "1000000000" });
    expect(await node.call("platform.getTxStatus", { txID })).to.deep.equal({ status: "Committed" });
    expect(await node.call("platform.getTxStatus", { txID: UNKNOWN_TX })).to.deep.equal({ status: "Unknown" });
    const json = await node.call<{ tx: { unsignedTx: { destinationChain: string }; id: string } }>("platform.getTx", { txID, encoding: "json" });
    expect(json.tx.id).to.equal(txID);
    expect(json.tx.unsignedTx.destinationChain).to.equal(node.network.network.xChainId);
    const hex = await node.call<{ tx: string; encoding: string }>("platform.getTx", { txID });
    expect(hex.encoding).to.equal("hex");
    expect((await node.fail("platform.getTx", { txID: UNKNOWN_TX })).code).to.equal(-32000);
    expect((await node.fail("platform.getTx", { txID: "bad" })).code).to.equal(-32602);
    expect((await node.fail("platform.getTxStatus", {})).code).to.equal(-32602);
  });

  it("getUTXOs pages like the exchange chain (limit, endIndex → startIndex) and refuses bad addresses", async () => {
    const addresses = [pAddress(EWOQ)];
    const all = await node.call<{ numFetched: string; utxos: string[] }>("platform.getUTXOs", { addresses });
    const first = await node.call<{ numFetched: string; utxos: string[]; endIndex: { address: string; utxo: string } }>("platform.getUTXOs", { addresses, limit: 1 });
    expect(first.numFetched).to.equal("1");
    const second = await node.call<{ utxos: string[] }>("platform.getUTXOs", { addresses, limit: 1, startIndex: first.endIndex });
    expect(second.utxos[0]).to.equal(all.utxos[1]);
    expect(decodeUtxo(decodeNodeBytes(first.utxos[0]!, "hex")).output.addresses).to.deep.equal([EWOQ]);
    expect((await node.fail("platform.getUTXOs", { addresses: [] })).code).to.equal(-32602);
    expect((await node.fail("platform.getUTXOs", { addresses: ["P-local1bad"] })).code).to.equal(-32602);
    expect((await node.fail("platform.getUTXOs", { addresses: [xAddress(EWOQ)] })).message).to.match(/mismatched chainIDs: expected "11111111111111111111111111111111LpoYY" but got/);
    expect((await node.fail("platform.getUTXOs", { addresses, sourceChain: "Z" })).code).to.equal(-32602);
  });

  it("getBalance sums unlocked outputs and lists their UTXO IDs", async () => {
    const reply = await node.call<{ balance: string; unlocked: string; utxoIDs: unknown[]; balances: Record<string, string> }>("platform.getBalance", { addresses: [pAddress(EWOQ)] });
    expect(reply.balance).to.equal(reply.unlocked);
    expect(reply.balances[node.network.network.nativeAsset.id]).to.equal(reply.balance);
    expect(reply.utxoIDs.length > 0).to.equal(true);
    expect((await node.fail("platform.getBalance", { addresses: ["nope"] })).code).to.equal(-32602);
  });

  it("issueTx refuses bytes that do not decode and transactions that break the rules", async () => {
    const malformed = await node.fail("platform.issueTx", { tx: "0x00000000000c0badf00d", encoding: "hex" });
    expect(malformed.code).to.be.oneOf([-32000, -32602]);
    const { txID } = await node.call<{ txID: string }>("platform.exportAVAX", { ...USER, to: xAddress(EWOQ), amount: "1000000000" });
    const { tx } = await node.call<{ tx: string }>("platform.getTx", { txID });
    const again = await node.fail("platform.issueTx", { tx });
    expect(again.data?.rule).to.equal("already-accepted");
  });

  it("issueTx words a repeated transaction as the reference mempool does, like the exchange chain: duplicate tx: <txID>", async () => {
    const { txID } = await node.call<{ txID: string }>("platform.exportAVAX", { ...USER, to: xAddress(EWOQ), amount: "1000000000" });
    const { tx } = await node.call<{ tx: string }>("platform.getTx", { txID });
    expect((await node.fail("platform.issueTx", { tx })).message).to.equal(`duplicate tx: ${txID}`);
  });

  it("keystore methods: createAddress, listAddresses, importKey, exportKey; wrong password refused", async () => {
    const { address } = await node.call<{ address: string }>("platform.createAddress", USER);
    const { addresses } = await node.call<{ addresses: string[] }>("platform.listAddresses", USER);
    expect(addresses).to.include.members([pAddress(EWOQ), address]);
    const { privateKey } = await node.call<{ privateKey: string }>("platform.exportKey", { ...USER, address });
    expect((await node.call<{ address: string }>("platform.importKey", { ...USER, privateKey })).address).to.equal(address);
    expect((await node.fail("platform.listAddresses", { ...USER, password: "wrong-password" })).message).to.match(/incorrect password/);
    expect((await node.fail("platform.exportKey", { ...USER, address: pAddress(addressOf(testKey(50))) })).message).to.match(/not found/);
    expect((await node.fail("platform.importKey", { ...USER, privateKey: "PrivateKey-nope" })).code).to.equal(-32602);
  });

  it("exportAVAX and importAVAX refuse bad requests", async () => {
    expect((await node.fail("platform.exportAVAX", { ...USER, to: xAddress(EWOQ), amount: "0" })).code).to.equal(-32602);
    expect((await node.fail("platform.exportAVAX", { ...USER, to: pAddress(EWOQ), amount: "1" })).code).to.equal(-32602);
    expect((await node.fail("platform.exportAVAX", { ...USER, to: "X-fuji1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqs3zxvc", amount: "1" })).code).to.equal(-32602);
    expect((await node.fail("platform.exportAVAX", { ...USER, to: xAddress(EWOQ), amount: (10n ** 18n).toString() })).data?.problem).to.equal("insufficient-funds");
    expect((await node.fail("platform.importAVAX", { ...USER, sourceChain: "X", to: pAddress(EWOQ) })).data?.problem).to.equal("nothing-to-import");
    expect((await node.fail("platform.importAVAX", { ...USER, sourceChain: "P", to: pAddress(EWOQ) })).code).to.equal(-32602);
  });

  it("getBlockchains, getBlockchainStatus, getStakingAssetID, getTimestamp", async () => {
    const { blockchains } = await node.call<{ blockchains: { id: string; name: string }[] }>("platform.getBlockchains");
    expect(blockchains.map((b) => b.id)).to.deep.equal([node.network.network.xChainId, node.network.network.cChainId]);
    expect(await node.call("platform.getBlockchainStatus", { blockchainID: node.network.network.xChainId })).to.deep.equal({ status: "Validating" });
    expect(await node.call("platform.getBlockchainStatus", { blockchainID: UNKNOWN_TX })).to.deep.equal({ status: "UnknownChain" });
    expect(await node.call("platform.getStakingAssetID")).to.deep.equal({ assetID: node.network.network.nativeAsset.id });
    expect((await node.call<{ timestamp: string }>("platform.getTimestamp")).timestamp).to.match(/^\d{4}-\d\d-\d\dT/);
  });

  it("evm_snapshot / evm_revert put the platform chain back too", async () => {
    const id = await node.call<string>("evm_snapshot", [], "/ext/bc/C/rpc");
    const before = await node.call("platform.getHeight");
    await node.call("platform.exportAVAX", { ...USER, to: xAddress(EWOQ), amount: "1000000000" });
    await node.call("evm_revert", [id], "/ext/bc/C/rpc");
    expect(await node.call("platform.getHeight")).to.deep.equal(before);
  });
});
