import { expect } from "chai";
import { EWOQ, FEE, pAddress, type PNode, startWithUser, testKey, addressOf, xAddress, cAddress } from "./helpers";

const AVAX_UNIT = 10n ** 9n;
const P_START = 30_000_000n * AVAX_UNIT;

describe("pchain: atomic transfers with the exchange and contract chains", function () {
  this.timeout(30_000);
  let node: PNode;
  beforeEach(async () => {
    node = await startWithUser();
  });
  afterEach(async () => node.close());

  const pBalance = async (address: string): Promise<bigint> => BigInt((await node.call<{ balance: string }>("platform.getBalance", { addresses: [address] })).balance);

  it("funds the local test key on P at genesis", async () => {
    expect(await pBalance(pAddress(EWOQ))).to.equal(P_START);
  });

  it("X → P: xvm.export to a P- address, then platform.importAVAX", async () => {
    const amount = 5n * AVAX_UNIT;
    await node.call("xvm.export", { username: "alice", password: "Corr3ct-Horse-Battery", to: pAddress(EWOQ), amount: amount.toString(), assetID: "AVAX" }, "/ext/bc/X");
    const utxos = await node.call<{ numFetched: string }>("platform.getUTXOs", { addresses: [pAddress(EWOQ)], sourceChain: "X" });
    expect(utxos.numFetched).to.equal("1");
    const reply = await node.call<{ txID: string }>("platform.importAVAX", { username: "alice", password: "Corr3ct-Horse-Battery", sourceChain: "X", to: pAddress(EWOQ) });
    expect(await node.call("platform.getTxStatus", { txID: reply.txID })).to.deep.equal({ status: "Committed" });
    expect(await pBalance(pAddress(EWOQ))).to.equal(P_START + amount - FEE);
  });

  it("P → X: platform.exportAVAX to an X- address, then xvm.import from P", async () => {
    const bob = addressOf(testKey(2));
    const amount = 7n * AVAX_UNIT;
    await node.call("platform.exportAVAX", { username: "alice", password: "Corr3ct-Horse-Battery", to: xAddress(EWOQ), amount: amount.toString() });
    expect(await pBalance(pAddress(EWOQ))).to.equal(P_START - amount - FEE);
    await node.call("xvm.import", { username: "alice", password: "Corr3ct-Horse-Battery", sourceChain: "P", to: xAddress(bob) }, "/ext/bc/X");
    const x = await node.call<{ balance: string }>("xvm.getBalance", { address: xAddress(bob), assetID: "AVAX" }, "/ext/bc/X");
    expect(BigInt(x.balance)).to.equal(amount - FEE);
  });

  it("C → P and P → C: avax.export / platform.importAVAX, platform.exportAVAX / avax.import", async () => {
    const evm = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC";
    const user = { username: "alice", password: "Corr3ct-Horse-Battery" };
    await node.call("avax.export", { ...user, to: pAddress(EWOQ), amount: (3n * AVAX_UNIT).toString(), assetID: "AVAX" }, "/ext/bc/C/avax");
    await node.call("platform.importAVAX", { ...user, sourceChain: "C", to: pAddress(EWOQ) });
    const afterImport = await pBalance(pAddress(EWOQ));
    expect(afterImport > P_START).to.equal(true);
    await node.call("platform.exportAVAX", { ...user, to: cAddress(EWOQ), amount: (2n * AVAX_UNIT).toString() });
    expect(await pBalance(pAddress(EWOQ))).to.equal(afterImport - 2n * AVAX_UNIT - FEE);
    const before = BigInt(await node.call<string>("eth_getBalance", [evm, "latest"], "/ext/bc/C/rpc"));
    await node.call("avax.import", { ...user, sourceChain: "P", to: evm }, "/ext/bc/C/avax");
    const after = BigInt(await node.call<string>("eth_getBalance", [evm, "latest"], "/ext/bc/C/rpc"));
    expect(after > before).to.equal(true);
  });
});
