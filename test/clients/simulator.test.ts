import { expect } from "chai";

import { createContractChainClient, createTransport, NodeApiError } from "../../src/clients";
import { NodeChains } from "../../src/node/node-chains";
import { type HttpNode, startHttpNode } from "../../src/node/http-server";
import { rejectionOf } from "./fake-node";

const HOLDER = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC";
const ASSET = "0x" + "a1".repeat(32);

describe("clients against the simulator's HTTP node (EVM helpers)", () => {
  let node: HttpNode;
  before(async () => {
    const local = await NodeChains.create({ assetBalances: [{ address: HOLDER, assetId: ASSET, amount: 123_456n }] });
    node = await startHttpNode({ port: 0, routes: local.routes });
  });
  after(() => node.close());

  const cvm = () => createContractChainClient({ transport: createTransport({ url: node.url }) });

  it("getAssetBalance reads a genesis asset balance as a bigint", async () => {
    expect(await cvm().getAssetBalance(HOLDER, ASSET)).to.equal(123_456n);
  });

  it("baseFee and maxPriorityFeePerGas return bigints", async () => {
    expect(await cvm().baseFee()).to.be.a("bigint");
    expect(await cvm().maxPriorityFeePerGas()).to.be.a("bigint");
  });

  it("a block that does not exist comes back as the node's error, verbatim", async () => {
    const error = await rejectionOf(cvm().getAssetBalance(HOLDER, ASSET, 1_000_000n));
    expect(error).to.be.instanceOf(NodeApiError);
    expect(error.message).to.match(/^eth_getAssetBalance failed: .+ \(code -?\d+\)$/);
  });
});
