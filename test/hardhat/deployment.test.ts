import { expect } from "chai";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import hre from "hardhat";
import { createNativeProvider } from "../../src";
import { ensureWrapperDeployed, type WrapperSpec } from "../../src/deploy/wrapper-deployment";

const SPEC: WrapperSpec = { key: "test", name: "Wrapped Test", symbol: "WTST", decimals: 9, assetId: "0x" + "b2".repeat(32) };

describe("wrapper deployment driven by config", () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), "nativekit-deployments-"));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("deploys once, records it, and reuses the record on the next run", async () => {
    const provider = await createNativeProvider();
    const artifact = await hre.artifacts.readArtifact("WrappedNativeAsset");
    const first = await ensureWrapperDeployed({ provider, network: "testnet", directory, spec: SPEC, artifact });
    expect(first.deployed).to.equal(true);
    const record = JSON.parse(await readFile(path.join(directory, "testnet", "test.json"), "utf8"));
    expect(record.address).to.equal(first.record.address);
    const second = await ensureWrapperDeployed({ provider, network: "testnet", directory, spec: SPEC, artifact });
    expect(second.deployed).to.equal(false);
    expect(second.record.address).to.equal(first.record.address);
    expect(second.reason).to.match(/already deployed/);
  });

  it("deploys again when the record belongs to another chain instance", async () => {
    const artifact = await hre.artifacts.readArtifact("WrappedNativeAsset");
    await ensureWrapperDeployed({ provider: await createNativeProvider({ genesisTimestamp: 1_700_000_000 }), network: "local", directory, spec: SPEC, artifact });
    const again = await ensureWrapperDeployed({ provider: await createNativeProvider({ genesisTimestamp: 1_700_000_001 }), network: "local", directory, spec: SPEC, artifact });
    expect(again.deployed).to.equal(true);
    expect(again.reason).to.match(/another chain/);
  });

  it("refuses to reuse a record made for another asset", async () => {
    const provider = await createNativeProvider();
    const artifact = await hre.artifacts.readArtifact("WrappedNativeAsset");
    await ensureWrapperDeployed({ provider, network: "local", directory, spec: SPEC, artifact });
    try {
      await ensureWrapperDeployed({ provider, network: "local", directory, spec: { ...SPEC, assetId: "0x" + "b3".repeat(32) }, artifact });
      expect.fail("should refuse");
    } catch (error) {
      expect((error as Error).message).to.match(/delete the record/);
    }
  });

  it("rejects a key that is not a plain file name", async () => {
    const provider = await createNativeProvider();
    const artifact = await hre.artifacts.readArtifact("WrappedNativeAsset");
    try {
      await ensureWrapperDeployed({ provider, network: "local", directory, spec: { ...SPEC, key: "../escape" }, artifact });
      expect.fail("should refuse");
    } catch (error) {
      expect((error as Error).message).to.match(/may use only letters/);
    }
  });
});
