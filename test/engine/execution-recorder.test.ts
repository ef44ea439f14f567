import { expect } from "chai";
import { getBytes } from "ethers";
import { CoverageHits__factory, ForwardingProxy__factory, type CoverageHits } from "../../typechain-types";
import { type ExecutionReport, ExecutionRecorder } from "../../src/engine/execution-recorder";
import { encodeNativeAssetCallInput, NATIVE_ASSET_CALL_ADDRESS } from "../../src/encoding/precompile";
import { startChain, testAssetId, type TestChain } from "../helpers/chain";

/** A report with its byte arrays as hex, to compare with what the chain answers. */
function readable(report: ExecutionReport): Record<string, unknown> {
  const hex = (bytes: Uint8Array) => "0x" + Buffer.from(bytes).toString("hex");
  if (report.kind === "create") return { ...report, input: hex(report.input) };
  return { ...report, input: hex(report.input), code: hex(report.code), proxyChain: report.proxyChain.map(hex) };
}

describe("execution reports for gas statistics (what Hardhat 3's --gas-stats measures)", () => {
  let recorder: ExecutionRecorder;
  let chain: TestChain;
  let contract: CoverageHits;
  let address: string;
  let code: string;

  beforeEach(async () => {
    recorder = new ExecutionRecorder();
    chain = await startChain({ executions: recorder });
    contract = await new CoverageHits__factory(chain.signers[0]!).deploy();
    await contract.waitForDeployment();
    address = await contract.getAddress();
    code = (await chain.rpc("eth_getCode", [address, "latest"])) as string;
  });

  it("reports a deployment with its creation input, the deployed code's size and the receipt's gas", async () => {
    const deployment = contract.deploymentTransaction()!;
    const receipt = (await deployment.wait())!;
    expect(recorder.take().map(readable)).to.deep.equal([{ kind: "create", input: deployment.data, runtimeSize: getBytes(code).length, gasUsed: receipt.gasUsed }]);
  });

  it("reports a mined call with its call data, the code at its address and the receipt's gas", async () => {
    recorder.take();
    const sent = await contract.store(42n);
    const receipt = (await sent.wait())!;
    expect(recorder.take().map(readable)).to.deep.equal([{ kind: "call", input: sent.data, code, proxyChain: [], gasUsed: receipt.gasUsed }]);
  });

  it("reports an eth_call with the gas the same call uses mined", async () => {
    const data = contract.interface.encodeFunctionData("repeat", [3n]);
    recorder.take();
    await chain.rpc("eth_call", [{ from: chain.signers[0]!.address, to: address, data }, "latest"]);
    const [called] = recorder.take();
    const receipt = (await (await chain.signers[0]!.sendTransaction({ to: address, data })).wait())!;
    expect(readable(called!)).to.deep.equal({ kind: "call", input: data, code, proxyChain: [], gasUsed: receipt.gasUsed });
  });

  it("reports no gas estimate, and no failed transaction or call", async () => {
    recorder.take();
    await contract.store.estimateGas(5n);
    const failing = contract.interface.encodeFunctionData("failAfterHit");
    await chain.rpc("eth_call", [{ to: address, data: failing }, "latest"]).catch(() => undefined);
    await chain.rpc("eth_sendTransaction", [{ from: chain.signers[0]!.address, to: address, data: failing, gas: "0x30000" }]).catch(() => undefined);
    expect(await chain.rpc("eth_blockNumber")).to.equal("0x2"); // the failed transaction was mined
    expect(recorder.take()).to.deep.equal([]);
  });

  it("reports a call through a proxy with the codes it went through, the proxy's first", async () => {
    const proxy = await new ForwardingProxy__factory(chain.signers[0]!).deploy(address);
    const proxyAddress = await proxy.getAddress();
    const proxyCode = (await chain.rpc("eth_getCode", [proxyAddress, "latest"])) as string;
    recorder.take();
    const sent = await CoverageHits__factory.connect(proxyAddress, chain.signers[0]!).store(42n);
    const receipt = (await sent.wait())!;
    expect(recorder.take().map(readable)).to.deep.equal([{ kind: "call", input: sent.data, code: proxyCode, proxyChain: [proxyCode, code], gasUsed: receipt.gasUsed }]);
  });

  it("reports a call through a proxy of a proxy with all three codes", async () => {
    const inner = await new ForwardingProxy__factory(chain.signers[0]!).deploy(address);
    const outer = await new ForwardingProxy__factory(chain.signers[0]!).deploy(await inner.getAddress());
    const codeAt = async (target: { getAddress(): Promise<string> }) => (await chain.rpc("eth_getCode", [await target.getAddress(), "latest"])) as string;
    recorder.take();
    await CoverageHits__factory.connect(await outer.getAddress(), chain.signers[0]!).repeat(1n);
    const [report] = recorder.take().map(readable);
    expect(report!.proxyChain).to.deep.equal([await codeAt(outer), await codeAt(inner), code]);
  });

  it("reports a contract's call of a precompile as that contract's, and a transaction to the precompile without code", async () => {
    const asset = testAssetId(7);
    await chain.rpc("nativekit_setAssetBalance", [address, asset, "0x64"]);
    await chain.rpc("nativekit_setAssetBalance", [chain.signers[0]!.address, asset, "0x64"]);
    recorder.take();
    const forward = await contract.forward(chain.signers[1]!.address, BigInt(asset), 10n);
    const data = encodeNativeAssetCallInput({ to: chain.signers[1]!.address, assetId: asset, amount: 5n });
    await (await chain.signers[0]!.sendTransaction({ to: NATIVE_ASSET_CALL_ADDRESS, data })).wait();
    const reports = recorder.take().map(readable);
    expect(reports.map((r) => [r.kind, r.input, r.code])).to.deep.equal([
      ["call", forward.data, code],
      ["call", data, "0x"],
    ]);
  });

  it("reports nothing of what another chain runs", async () => {
    const plain = await startChain();
    const other = await new CoverageHits__factory(plain.signers[0]!).deploy();
    await (await other.store(1n)).wait();
    recorder.take();
    expect(recorder.take()).to.deep.equal([]);
  });
});
