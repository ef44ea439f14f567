import hre from "hardhat";
import { encodeNativeAssetCallInput, NATIVE_ASSET_CALL_ADDRESS } from "../../src/encoding";

/** The demo asset every test account holds at genesis (see hardhat.config.ts). */
export const DEMO_ASSET = "0x" + "a1".repeat(32);
export const GENESIS_ASSET_BALANCE = 1_000_000n;

/** Accounts, a wrapper for the demo asset, and the call harnesses: the shared Hardhat fixture. */
export async function deployWrapperFixture() {
  const [owner, alice, bob] = await hre.ethers.getSigners();
  const wrapper = await hre.ethers.deployContract("WrappedNativeAsset", ["Wrapped Demo", "WDEMO", 6, BigInt(DEMO_ASSET)]);
  const recorder = await hre.ethers.deployContract("CallRecorder");
  const harness = await hre.ethers.deployContract("NativeAssetsHarness");
  return { owner: owner!, alice: alice!, bob: bob!, wrapper, recorder, harness };
}

/** nativeAssetCall + deposit() in one transaction. */
export function wrapRequest(wrapper: string, amount: bigint, assetId = DEMO_ASSET) {
  const depositCall = "0xd0e30db0"; // deposit()
  return { to: NATIVE_ASSET_CALL_ADDRESS, data: encodeNativeAssetCallInput({ to: wrapper, assetId, amount, callData: depositCall }) };
}

export async function assetBalance(address: string, assetId = DEMO_ASSET, block: string | number = "latest"): Promise<bigint> {
  const tag = typeof block === "number" ? "0x" + block.toString(16) : block;
  return BigInt(await hre.network.provider.send("eth_getAssetBalance", [address, tag, assetId]));
}
