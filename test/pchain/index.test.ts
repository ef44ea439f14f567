import { expect } from "chai";
import { decodeNodeBytes } from "../../src/encoding";
import { EWOQ, type PNode, startWithUser, USER, xAddress } from "./helpers";

/** /ext/index/P/block: each platform block accepted after genesis, its bytes as the chain serves them. */
describe("pchain blocks in the index (/ext/index/P/block)", function () {
  this.timeout(60_000);
  let node: PNode;
  before(async () => {
    node = await startWithUser({ management: { indexEnabled: true } });
  });
  after(async () => node.close());

  it("indexes each accepted platform block from 0, under its block ID, genesis not indexed", async () => {
    const { txID } = await node.call<{ txID: string }>("platform.exportAVAX", { ...USER, to: xAddress(EWOQ), amount: "1000000000" });
    const { height } = await node.call<{ height: string }>("platform.getHeight");
    const block = await node.call<{ block: string }>("platform.getBlockByHeight", { height, encoding: "hex" });
    const last = await node.call<{ id: string; bytes: string; index: string }>("index.getLastAccepted", { encoding: "hex" }, "/ext/index/P/block");
    expect(last.index).to.equal("0");
    expect(decodeNodeBytes(last.bytes, "hex")).to.deep.equal(decodeNodeBytes(block.block, "hex"));
    const byHeight = await node.call<{ block: { id: string } }>("platform.getBlockByHeight", { height, encoding: "json" });
    expect(last.id).to.equal(byHeight.block.id);
    const json = await node.call<{ block: { txs: { id: string }[] } }>("platform.getBlockByHeight", { height, encoding: "json" });
    expect(json.block.txs.map((t) => t.id)).to.deep.equal([txID]);
  });
});
