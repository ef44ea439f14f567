import { expect } from "chai";
import type { NodeClient } from "../../src/clients";
import { LOCAL_NETWORK, LOCAL_TEST_KEY, LOCAL_TEST_KEY_X_BALANCE } from "../../src/network/constants";
import { formatChainAddress, parseChainAddress, privateKeyToAddresses } from "../../src/encoding";
import type { HttpNode } from "../../src/node/http-server";
import { startLocalNode, type LocalNode } from "../helpers/local-node";

const ewoq = privateKeyToAddresses(LOCAL_TEST_KEY, "local");
const ewoqOnC = (() => {
  const { hrp, shortId } = parseChainAddress(ewoq.exchange);
  return formatChainAddress(shortId, hrp, "C");
})();
const credentials = { username: "snapshotter", password: "a-fine-password-7" };
const RECIPIENT = "0x000000000000000000000000000000000000c0de";

/**
 * evm_snapshot, evm_revert and hardhat_reset sent to a local network's contract-chain endpoint
 * move the whole network: the exchange chain and the atomic memory between the chains too.
 */
describe("snapshots of a local network take the exchange chain and atomic memory along", () => {
  let node: HttpNode;
  let client: NodeClient;
  let rpc: LocalNode["rpc"];

  beforeEach(async () => {
    ({ node, client, rpc } = await startLocalNode());
    // The keystore is the node's, not the chains': it is left alone by snapshots.
    await client.keystore.createUser(credentials);
    await client.xvm.importKey({ credentials, privateKey: LOCAL_TEST_KEY });
    await client.cvm.importKey({ credentials, privateKey: LOCAL_TEST_KEY });
  });
  afterEach(async () => {
    await node.close();
  });

  const xBalance = async () => (await client.xvm.getBalance({ address: ewoq.exchange, assetID: "AVAX" })).balance;
  const cBalance = async () => BigInt(await rpc<string>("eth_getBalance", [RECIPIENT, "latest"]));
  const atomicUtxosOnC = async () => (await client.cvm.getUTXOs({ addresses: [ewoqOnC], sourceChain: "X" })).numFetched;

  async function exportToC(amount: bigint): Promise<string> {
    const { txID } = await client.xvm.export({ credentials, to: ewoqOnC, amount, assetID: "AVAX" });
    await client.xvm.waitForTxStatus(txID);
    return txID;
  }

  it("evm_revert undoes an exchange-chain export and the atomic UTXO it left for the contract chain", async () => {
    const snapshot = await rpc<string>("evm_snapshot");
    const exportTxID = await exportToC(2_000_000_000n);
    expect(await atomicUtxosOnC()).to.equal(1);
    expect(await xBalance()).to.be.lessThan(LOCAL_TEST_KEY_X_BALANCE);

    expect(await rpc<boolean>("evm_revert", [snapshot])).to.equal(true);
    expect(await xBalance()).to.equal(LOCAL_TEST_KEY_X_BALANCE);
    expect(await atomicUtxosOnC()).to.equal(0);
    expect(await client.xvm.getTxStatus({ txID: exportTxID })).to.equal("Unknown");
  });

  it("evm_revert undoes a whole transfer: both chains and the memory are as at the snapshot", async () => {
    const snapshot = await rpc<string>("evm_snapshot");
    await exportToC(3_000_000_000n);
    await client.cvm.import({ credentials, to: RECIPIENT, sourceChain: "X" });
    expect(await cBalance()).to.be.greaterThan(0n);

    await rpc("evm_revert", [snapshot]);
    expect(await cBalance()).to.equal(0n);
    expect(await xBalance()).to.equal(LOCAL_TEST_KEY_X_BALANCE);
    expect(await atomicUtxosOnC()).to.equal(0);
  });

  it("after a revert the network carries on from the snapshot: the same transfer can be made again, once", async () => {
    const snapshot = await rpc<string>("evm_snapshot");
    await exportToC(1_000_000_000n);
    await rpc("evm_revert", [snapshot]);

    await exportToC(1_000_000_000n);
    await client.cvm.import({ credentials, to: RECIPIENT, sourceChain: "X" });
    expect(await atomicUtxosOnC()).to.equal(0);
    // One coin left the exchange chain (plus its fee), not two.
    expect(await xBalance()).to.equal(LOCAL_TEST_KEY_X_BALANCE - 1_000_000_000n - LOCAL_NETWORK.txFee);
  });

  it("a later snapshot is restored exactly, with what happened before it kept", async () => {
    await exportToC(1_000_000_000n);
    const utxosAfterFirst = await client.xvm.getUTXOs({ addresses: [ewoq.exchange] });
    const snapshot = await rpc<string>("evm_snapshot");
    await exportToC(1_000_000_000n);
    expect(await atomicUtxosOnC()).to.equal(2);

    await rpc("evm_revert", [snapshot]);
    // The same UTXOs, listed in the same order.
    expect(await client.xvm.getUTXOs({ addresses: [ewoq.exchange] })).to.deep.equal(utxosAfterFirst);
    expect(await atomicUtxosOnC()).to.equal(1);
  });

  it("hardhat_reset takes the exchange chain and the memory back to genesis", async () => {
    await exportToC(1_000_000_000n);
    await rpc("hardhat_reset");
    expect(await xBalance()).to.equal(LOCAL_TEST_KEY_X_BALANCE);
    expect(await atomicUtxosOnC()).to.equal(0);
    // Twice in a row works the same (the genesis state is restored from a copy each time).
    await exportToC(1_000_000_000n);
    await rpc("hardhat_reset");
    expect(await xBalance()).to.equal(LOCAL_TEST_KEY_X_BALANCE);
  });
});
