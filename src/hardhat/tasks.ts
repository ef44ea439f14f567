import { task, types } from "hardhat/config";
import { HardhatPluginError } from "hardhat/plugins";
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import type { ActionContext } from "./actions";
import { NATIVEKIT_NETWORK } from "./config";

const PLUGIN = "nativekit";

function context(hre: HardhatRuntimeEnvironment): ActionContext {
  return { provider: hre.network.provider, print: (line) => console.log(line) };
}

/**
 * Runs a task's action, loaded when the task runs (ethers and the encodings are not needed by any
 * other command); argument errors become Hardhat plugin errors: one clear line, no stack trace.
 */
async function friendly<T>(work: (actions: typeof import("./actions")) => Promise<T>): Promise<T> {
  const actions = await import("./actions");
  try {
    return await work(actions);
  } catch (error) {
    if (error instanceof actions.TaskArgumentError) throw new HardhatPluginError(PLUGIN, error.message);
    throw error;
  }
}

task("nativekit:node", "Serves the nativekit simulator over HTTP on /ext/bc/C/rpc")
  .addOptionalParam("port", "Port to listen on", 9650, types.int)
  .addOptionalParam("host", "Address to bind", "127.0.0.1", types.string)
  .setAction(async (args: { port: number; host: string }, hre) => {
    const { runNodeTask } = await import("./node-task");
    const code = await runNodeTask(hre.config.nativekit, hre.config.paths.root, args);
    if (code !== 0) throw new HardhatPluginError(PLUGIN, `the node stopped with exit code ${code}`);
  });

task("nativekit:balance", "Prints an account's balance of a native asset")
  .addParam("account", "Address of the account")
  .addParam("asset", "Asset ID, cb58 or 0x bytes32")
  .addOptionalParam("block", "Block number or tag", "latest")
  .setAction(async (args: { account: string; asset: string; block: string }, hre) => friendly(({ balanceAction }) => balanceAction(context(hre), args)));

task("nativekit:deploy-wrapper", "Deploys a WrappedNativeAsset for a native asset")
  .addParam("asset", "Asset ID, cb58 or 0x bytes32")
  .addParam("name", "ERC-20 name")
  .addParam("symbol", "ERC-20 symbol")
  .addOptionalParam("decimals", "ERC-20 decimals", 18, types.int)
  .addOptionalParam("from", "Deployer: account index or address", undefined, types.string)
  .setAction(async (args: { asset: string; name: string; symbol: string; decimals: number; from?: string }, hre) =>
    friendly(async ({ deployWrapperAction }) => deployWrapperAction(context(hre), args, await hre.artifacts.readArtifact("WrappedNativeAsset"))),
  );

task("nativekit:wrap", "Wraps a native asset: nativeAssetCall + deposit in one transaction")
  .addParam("wrapper", "Address of the WrappedNativeAsset")
  .addParam("amount", "Amount in the asset's smallest unit")
  .addOptionalParam("from", "Sender: account index or address", undefined, types.string)
  .setAction(async (args: { wrapper: string; amount: string; from?: string }, hre) => friendly(({ wrapAction }) => wrapAction(context(hre), args)));

task("nativekit:unwrap", "Unwraps: withdraws the asset from a WrappedNativeAsset")
  .addParam("wrapper", "Address of the WrappedNativeAsset")
  .addParam("amount", "Amount in the asset's smallest unit")
  .addOptionalParam("from", "Sender: account index or address", undefined, types.string)
  .setAction(async (args: { wrapper: string; amount: string; from?: string }, hre) => friendly(({ unwrapAction }) => unwrapAction(context(hre), args)));

export { NATIVEKIT_NETWORK };
