import path from "node:path";
import { task, types } from "hardhat/config";
import { HardhatPluginError } from "hardhat/plugins";
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import type { ActionContext } from "./actions";
import { NATIVEKIT_NETWORK } from "./config";

const PLUGIN = "nativekit";

/** The platform genesis of a `--genesis-file` flag, read as `nativekit node` reads it. */
async function platformGenesisOf(file: string | undefined): Promise<{ platformGenesis?: Awaited<ReturnType<typeof import("../cli/main").readGenesis>> }> {
  if (file === undefined) return {};
  const { readGenesis } = await import("../cli/main");
  return { platformGenesis: await readGenesis(file) };
}

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
    const { runCli, processSignals } = await import("../cli/cli");
    const { startCliNode } = await import("../cli/main");
    const { networkEngineOptions } = await import("./network-options");
    const options = networkEngineOptions(hre.config.nativekit, (line) => console.log(line));
    const genesisFile = hre.config.nativekit.genesisFile;
    const genesisArgs = genesisFile === undefined ? [] : ["--genesis-file", path.resolve(hre.config.paths.root, genesisFile)];
    const code = await runCli(["node", "--port", String(args.port), "--host", args.host, ...genesisArgs], {
      createNode: async (flags) => startCliNode({ ...options, ...(await platformGenesisOf(flags.genesisFile)) }),
      stdout: (s) => process.stdout.write(s),
      stderr: (s) => process.stderr.write(s),
      onSignal: processSignals,
    });
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
