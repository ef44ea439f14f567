/**
 * Deploys the wrappers listed in deploy/wrapped-assets.ts, once per network:
 *
 *   npx hardhat run deploy/deploy-wrappers.ts                 # the in-process network
 *   npx hardhat run deploy/deploy-wrappers.ts --network local # a running node
 */
import path from "node:path";
import hre from "hardhat";
import { NATIVEKIT_NETWORK } from "../src/hardhat/config";
import { ensureWrapperDeployed } from "../src/deploy/wrapper-deployment";
import { wrappedAssets } from "./wrapped-assets";

export const DEPLOYMENTS_DIRECTORY = path.join(__dirname, "..", "deployments");

async function main(): Promise<void> {
  const artifact = await hre.artifacts.readArtifact("WrappedNativeAsset");
  for (const spec of wrappedAssets) {
    const result = await ensureWrapperDeployed({ provider: hre.network.provider, network: hre.network.name, directory: DEPLOYMENTS_DIRECTORY, spec, artifact, persist: hre.network.name !== NATIVEKIT_NETWORK });
    if (result.deployed) {
      console.log(`${spec.key}: deployed ${spec.symbol} at ${result.record.address} (tx ${result.record.transactionHash}) because ${result.reason}`);
    } else {
      console.log(`${spec.key}: ${result.reason}; nothing to do`);
    }
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
