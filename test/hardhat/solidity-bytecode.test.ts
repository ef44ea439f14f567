import { expect } from "chai";
import fc from "fast-check";
import hre from "hardhat";
import { instructionIndexes, isJumpDestination, matchesCompiled, metadataRange } from "../../src/hardhat/solidity/bytecode";
import { loadContractIdentifier } from "../../src/hardhat/solidity/contract-identifier";
import { decodeSourceMap } from "../../src/hardhat/solidity/source-map";
import { DEMO_ASSET } from "./fixtures";

describe("bytecode and source maps, for recognising contracts and lines", () => {
  it("a source map entry's empty fields repeat the previous entry's", () => {
    expect(decodeSourceMap("10:5:1:i;;:7;3::0:o;::-1")).to.deep.equal([
      { start: 10, length: 5, file: 1, jump: "i" },
      { start: 10, length: 5, file: 1, jump: "i" },
      { start: 10, length: 7, file: 1, jump: "i" },
      { start: 3, length: 7, file: 0, jump: "o" },
      { start: 3, length: 7, file: -1, jump: "o" },
    ]);
  });

  it("PUSH data belongs to its PUSH: instruction indexes skip it, and a 0x5b in it is no JUMPDEST", () => {
    // PUSH2 0x5b5b, JUMPDEST, PUSH1 0x5b, STOP
    const code = Uint8Array.from([0x61, 0x5b, 0x5b, 0x5b, 0x60, 0x5b, 0x00]);
    const indexes = instructionIndexes(code);
    expect([...indexes]).to.deep.equal([0, 0, 0, 1, 2, 2, 3]);
    expect([1, 2, 3, 5].map((pc) => isJumpDestination(code, indexes, pc))).to.deep.equal([false, false, true, false]);
  });

  it("the metadata solc appends is found from the length in its last two bytes", () => {
    const code = Uint8Array.from([0x60, 0x00, 0xa2, 0x01, 0x02, 0x03, 0x00, 0x04]);
    expect(metadataRange(code)).to.deep.equal([2, 6]);
    expect(metadataRange(Uint8Array.from([0x60, 0x00, 0x00, 0x09]))).to.equal(undefined);
  });

  it("code matches its compiled form whatever the masked bytes hold, and not when another byte differs", () => {
    const sample = fc
      .record({ compiled: fc.uint8Array({ minLength: 8, maxLength: 64 }), start: fc.nat(), length: fc.integer({ min: 1, max: 8 }), fill: fc.uint8Array({ minLength: 8, maxLength: 8 }), flip: fc.nat() })
      .map(({ compiled, start, length, fill, flip }) => {
        const at = start % compiled.length;
        const masked: [number, number] = [at, Math.min(length, compiled.length - at)];
        return { compiled, masked, fill, flip: flip % compiled.length };
      });
    fc.assert(
      fc.property(sample, ({ compiled, masked, fill, flip }) => {
        const deployed = compiled.slice();
        for (let i = 0; i < masked[1]; i++) deployed[masked[0] + i] = fill[i]!;
        expect(matchesCompiled(deployed, compiled, [masked])).to.equal(true);
        const inMask = flip >= masked[0] && flip < masked[0] + masked[1];
        if (!inMask) {
          deployed[flip] = deployed[flip]! ^ 0xff;
          expect(matchesCompiled(deployed, compiled, [masked])).to.equal(false);
        }
      }),
    );
  });

  it("a deployed contract is recognised by its runtime code, immutables filled in, and by its creation code with constructor arguments", async () => {
    const wrapper = await hre.ethers.deployContract("WrappedNativeAsset", ["Wrapped Demo", "WDEMO", 6, BigInt(DEMO_ASSET)]);
    const contracts = await loadContractIdentifier(hre.config.paths.artifacts);
    const runtime = hre.ethers.getBytes(await hre.ethers.provider.getCode(await wrapper.getAddress()));
    const creation = hre.ethers.getBytes(wrapper.deploymentTransaction()!.data);
    expect(contracts.identify(runtime, "runtime")?.fqn).to.equal("contracts/WrappedNativeAsset.sol:WrappedNativeAsset");
    expect(contracts.identify(creation, "creation")?.fqn).to.equal("contracts/WrappedNativeAsset.sol:WrappedNativeAsset");
    expect(contracts.identify(runtime, "runtime")?.functionSignature(hre.ethers.getBytes("0xa9059cbb"))).to.equal("transfer(address,uint256)");
  });

  it("code the project did not compile is not recognised", async () => {
    const contracts = await loadContractIdentifier(hre.config.paths.artifacts);
    expect(contracts.identify(Uint8Array.from([0x60, 0x00, 0x60, 0x00, 0xfd]), "runtime")).to.equal(undefined);
  });

  it("a project without build infos recognises nothing, without failing", async () => {
    const contracts = await loadContractIdentifier("/nonexistent/artifacts");
    expect(contracts.size).to.equal(0);
  });
});
