/**
 * The main job, end to end on the embedded simulator (no node to start by hand):
 * deploy a wrapper for a test asset, wrap (nativeAssetCall + deposit in one transaction),
 * transfer wrapped tokens, unwrap, and show every balance after each step.
 *
 *   npm run demo
 */
import { BrowserProvider, formatUnits, type JsonRpcSigner } from "ethers";
import { assetIdToCb58, createNativeProvider, unwrap, wrap } from "../src";
import { WrappedNativeAsset__factory, type WrappedNativeAsset } from "../typechain-types";

const ASSET_ID = "0x" + "a1".repeat(32); // a test asset; the exchange chain would create a real one
const DECIMALS = 6;

async function main(): Promise<void> {
  const native = await createNativeProvider();
  const provider = new BrowserProvider(native, undefined, { cacheTimeout: -1 });
  const [alice, bob] = (await Promise.all([provider.getSigner(0), provider.getSigner(1)])) as [JsonRpcSigner, JsonRpcSigner];
  const network = await provider.getNetwork();
  const fmt = (v: bigint) => formatUnits(v, DECIMALS);
  const asset = async (who: string) => BigInt((await native.request({ method: "eth_getAssetBalance", params: [who, "latest", ASSET_ID] })) as string);

  console.log(`nativekit demo on the embedded contract-chain simulator (chain id ${network.chainId})`);
  console.log(`asset ${assetIdToCb58(ASSET_ID)} (${ASSET_ID.slice(0, 10)}…), ${DECIMALS} decimals`);
  console.log(`alice ${alice.address}\nbob   ${bob.address}\n`);

  let wrapper: WrappedNativeAsset;
  let wrapperAddress = "";
  const show = async (step: string, hash?: string) => {
    const rows = [
      ["alice", alice.address],
      ["bob", bob.address],
      ["wrapper", wrapperAddress],
    ].filter(([, a]) => a !== "");
    console.log(`${step}${hash === undefined ? "" : `  (tx ${hash})`}`);
    for (const [name, address] of rows) {
      const wrapped = wrapper === undefined ? 0n : await wrapper.balanceOf(address!);
      console.log(`  ${name!.padEnd(8)} asset ${fmt(await asset(address!)).padStart(10)}   wrapped ${fmt(wrapped).padStart(10)}`);
    }
    if (wrapper !== undefined) console.log(`  totalSupply ${fmt(await wrapper.totalSupply())}`);
    console.log();
  };

  const initial = 1_000n * 10n ** BigInt(DECIMALS);
  await native.request({ method: "nativekit_setAssetBalance", params: [alice.address, ASSET_ID, "0x" + initial.toString(16)] });
  await show("1. alice holds the asset (test-only: nativekit_setAssetBalance)");

  wrapper = await new WrappedNativeAsset__factory(alice).deploy("Wrapped Demo Asset", "WDA", DECIMALS, BigInt(ASSET_ID));
  await wrapper.waitForDeployment();
  wrapperAddress = await wrapper.getAddress();
  await show(`2. alice deploys WrappedNativeAsset at ${wrapperAddress}`, wrapper.deploymentTransaction()?.hash);

  const wrapped = await wrap(alice, wrapperAddress, ASSET_ID, 600n * 10n ** BigInt(DECIMALS));
  await show("3. alice wraps 600 (nativeAssetCall + deposit, one transaction)", wrapped.hash);

  const transfer = await (await wrapper.connect(alice).transfer(bob.address, 250n * 10n ** BigInt(DECIMALS))).wait();
  await show("4. alice transfers 250 wrapped tokens to bob", transfer?.hash);

  const unwrapped = await unwrap(bob, wrapperAddress, 150n * 10n ** BigInt(DECIMALS));
  await show("5. bob unwraps 150 (withdraw)", unwrapped.hash);

  const held = (await asset(alice.address)) + (await asset(bob.address)) + (await asset(wrapperAddress));
  const backed = (await asset(wrapperAddress)) === (await wrapper.totalSupply());
  console.log(`asset held by alice + bob + wrapper = ${fmt(held)} (started with ${fmt(initial)}): ${held === initial ? "adds up" : "MISMATCH"}`);
  console.log(`wrapper's asset balance equals its token supply: ${backed ? "yes" : "NO"}`);
  if (held !== initial || !backed) process.exitCode = 1;
  console.log(`\nNext: run the same contracts against an HTTP node with \`npx nativekit node\`.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
