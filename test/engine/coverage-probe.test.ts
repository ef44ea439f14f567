import { expect } from "chai";
import { CoverageHits__factory, type CoverageHits } from "../../typechain-types";
import { COVERAGE_ADDRESS, CoverageProbe } from "../../src/engine/coverage-probe";
import { startChain, testAssetId, type TestChain } from "../helpers/chain";

/** The tag CoverageHits sends for `n`: its 32-byte big-endian form, as hex without 0x. */
const tag = (n: number) => n.toString(16).padStart(64, "0");

describe("coverage hits (calls to the coverage address of Hardhat 3's instrumentation)", () => {
  let probe: CoverageProbe;
  let chain: TestChain;
  let contract: CoverageHits;

  beforeEach(async () => {
    probe = new CoverageProbe();
    chain = await startChain({ coverage: probe });
    contract = await new CoverageHits__factory(chain.signers[0]!).deploy();
    await contract.waitForDeployment();
  });

  it("keeps the tags a deployment hit (its constructor's)", () => {
    expect(probe.take()).to.deep.equal([tag(100)]);
  });

  it("keeps the tags of a mined transaction's path, and only those", async () => {
    probe.take();
    await (await contract.store(42n)).wait();
    expect(probe.take().sort()).to.deep.equal([tag(1), tag(2)]);
    await (await contract.store(7n)).wait();
    expect(probe.take().sort()).to.deep.equal([tag(1), tag(3)]);
  });

  it("keeps a tag hit many times once per take, and gives nothing when nothing ran", async () => {
    probe.take();
    expect(await contract.repeat(5n)).to.equal(0n);
    expect(probe.take()).to.deep.equal([tag(4)]);
    expect(probe.take()).to.deep.equal([]);
  });

  it("keeps the hits of an eth_call that reverts, and of a gas estimate", async () => {
    probe.take();
    await chain.rpc("eth_call", [{ to: await contract.getAddress(), data: contract.interface.encodeFunctionData("failAfterHit") }, "latest"]).catch(() => undefined);
    expect(probe.take()).to.deep.equal([tag(5)]);
    await contract.store.estimateGas(1n);
    expect(probe.take().sort()).to.deep.equal([tag(1), tag(3)]);
  });

  it("keeps the hits of a contract that calls the nativeAssetCall precompile", async () => {
    const asset = testAssetId(7);
    await chain.rpc("nativekit_setAssetBalance", [await contract.getAddress(), asset, "0x64"]);
    probe.take();
    await (await contract.forward(chain.signers[1]!.address, BigInt(asset), 10n)).wait();
    expect(probe.take()).to.deep.equal([tag(8)]);
  });

  it("leaves the return data of the call before a hit in place, as Hardhat's network does", async () => {
    // bytesOf(7) returns 96 bytes (offset, length, one padded word); an empty call would leave 0.
    expect(await contract.returnDataAfterHit(7n)).to.equal(96n);
  });

  it("costs a transaction the gas an uninstrumented call to an empty account costs, and keeps its refund", async () => {
    const plain = await startChain();
    const plainContract = await new CoverageHits__factory(plain.signers[0]!).deploy();
    const gasOf = async (c: CoverageHits, call: (c: CoverageHits) => Promise<{ wait(): Promise<{ gasUsed: bigint } | null> }>) => (await (await call(c)).wait())!.gasUsed;
    for (const target of [contract, plainContract]) await (await target.store(42n)).wait();
    const [observedStore, plainStore] = [await gasOf(contract, (c) => c.store(43n)), await gasOf(plainContract, (c) => c.store(43n))];
    expect(observedStore).to.equal(plainStore);
    // clear() zeroes the slot: its refund is lost if a hit resets the caller's refund counter.
    const [observedClear, plainClear] = [await gasOf(contract, (c) => c.clear()), await gasOf(plainContract, (c) => c.clear())];
    expect(observedClear).to.equal(plainClear);
  });

  for (const [what, near] of [
    ["its last", COVERAGE_ADDRESS.toLowerCase().slice(0, -2) + "bf"],
    ["its first", "0xc1" + COVERAGE_ADDRESS.toLowerCase().slice(4)],
  ]) {
    it(`takes a call to an address that differs from the coverage address only in ${what} byte for an ordinary call`, async () => {
      probe.take();
      await (await chain.signers[0]!.sendTransaction({ to: near, data: "0x" + tag(9), gasLimit: 100_000 })).wait();
      expect(probe.take()).to.deep.equal([]);
      await (await chain.signers[0]!.sendTransaction({ to: COVERAGE_ADDRESS, data: "0x" + tag(9), gasLimit: 100_000 })).wait();
      expect(probe.take()).to.deep.equal([tag(9)]);
    });
  }
});

describe("a chain without a coverage probe", () => {
  it("runs calls to the coverage address as calls to an empty account (the return data is cleared)", async () => {
    const chain = await startChain();
    const contract = await new CoverageHits__factory(chain.signers[0]!).deploy();
    expect(await contract.returnDataAfterHit(7n)).to.equal(0n);
  });
});
