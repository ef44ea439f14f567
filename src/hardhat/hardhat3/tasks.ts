/**
 * The nativekit:* tasks as Hardhat 3 tasks, with the flags of the Hardhat 2 tasks (`npx hardhat
 * nativekit:balance --account … --asset …`). Each action loads when its task runs; the
 * account, balance and wrapper actions run on `hre.network.create()` (the network `--network`
 * names), the node task serves the project's nativekit network over HTTP.
 */
import type { ActionContext } from "../actions";
import type { Hardhat3Modules, Hardhat3Runtime, TaskAction } from "./types";

const PLUGIN = "nativekit";

/** A task's action module, as Hardhat 3 loads it lazily. */
function lazy(action: TaskAction): () => Promise<{ default: TaskAction }> {
  return async () => ({ default: action });
}

function requireString(args: Record<string, unknown>, name: string, flag: string, pluginError: Hardhat3Modules["pluginError"]): string {
  const value = args[name];
  if (typeof value !== "string" || value === "") throw new pluginError(PLUGIN, `${flag} is required`);
  return value;
}

function optionalString(args: Record<string, unknown>, name: string): string | undefined {
  const value = args[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Runs an account or wrapper action on a new connection; argument errors become one clear plugin error. */
async function onConnection<T>(hre: Hardhat3Runtime, pluginError: Hardhat3Modules["pluginError"], work: (actions: typeof import("../actions"), context: ActionContext) => Promise<T>): Promise<T> {
  const actions = await import("../actions");
  const connection = await hre.network.create();
  try {
    return await work(actions, { provider: connection.provider as ActionContext["provider"], print: (line) => console.log(line) });
  } catch (error) {
    if (error instanceof actions.TaskArgumentError) throw new pluginError(PLUGIN, error.message);
    throw error;
  } finally {
    await connection.close();
  }
}

export function nativekitTasks(modules: Pick<Hardhat3Modules, "task" | "argumentTypes" | "pluginError">): unknown[] {
  const { task, argumentTypes: types, pluginError } = modules;
  const fromOption = { name: "from", description: "Sender: account index or address (default: the first account)", type: types.STRING_WITHOUT_DEFAULT };

  const node = task("nativekit:node", "Serves the nativekit simulator over HTTP on /ext/bc/C/rpc")
    .addOption({ name: "port", description: "Port to listen on", type: types.INT, defaultValue: 9650 })
    .addOption({ name: "host", description: "Address to bind", type: types.STRING, defaultValue: "127.0.0.1" })
    .setAction(
      lazy(async (args, hre) => {
        const { runNodeTask } = await import("../node-task");
        const code = await runNodeTask(hre.config.nativekit, hre.config.paths.root, { port: Number(args.port), host: String(args.host) });
        if (code !== 0) throw new pluginError(PLUGIN, `the node stopped with exit code ${code}`);
      }),
    )
    .build();

  const balance = task("nativekit:balance", "Prints an account's balance of a native asset")
    .addOption({ name: "account", description: "Address of the account", type: types.STRING_WITHOUT_DEFAULT })
    .addOption({ name: "asset", description: "Asset ID, cb58 or 0x bytes32", type: types.STRING_WITHOUT_DEFAULT })
    .addOption({ name: "block", description: "Block number or tag", type: types.STRING, defaultValue: "latest" })
    .setAction(
      lazy(async (args, hre) => {
        const account = requireString(args, "account", "--account", pluginError);
        const asset = requireString(args, "asset", "--asset", pluginError);
        return onConnection(hre, pluginError, ({ balanceAction }, context) => balanceAction(context, { account, asset, block: String(args.block) }));
      }),
    )
    .build();

  const deployWrapper = task("nativekit:deploy-wrapper", "Deploys a WrappedNativeAsset for a native asset")
    .addOption({ name: "asset", description: "Asset ID, cb58 or 0x bytes32", type: types.STRING_WITHOUT_DEFAULT })
    .addOption({ name: "name", description: "ERC-20 name", type: types.STRING_WITHOUT_DEFAULT })
    .addOption({ name: "symbol", description: "ERC-20 symbol", type: types.STRING_WITHOUT_DEFAULT })
    .addOption({ name: "decimals", description: "ERC-20 decimals", type: types.INT, defaultValue: 18 })
    .addOption(fromOption)
    .setAction(
      lazy(async (args, hre) => {
        const wanted = {
          asset: requireString(args, "asset", "--asset", pluginError),
          name: requireString(args, "name", "--name", pluginError),
          symbol: requireString(args, "symbol", "--symbol", pluginError),
          decimals: Number(args.decimals),
          from: optionalString(args, "from"),
        };
        const artifact = await hre.artifacts.readArtifact("WrappedNativeAsset");
        return onConnection(hre, pluginError, ({ deployWrapperAction }, context) => deployWrapperAction(context, wanted, artifact));
      }),
    )
    .build();

  const wrapperTask = (id: "nativekit:wrap" | "nativekit:unwrap", description: string) =>
    task(id, description)
      .addOption({ name: "wrapper", description: "Address of the WrappedNativeAsset", type: types.STRING_WITHOUT_DEFAULT })
      .addOption({ name: "amount", description: "Amount in the asset's smallest unit", type: types.STRING_WITHOUT_DEFAULT })
      .addOption(fromOption)
      .setAction(
        lazy(async (args, hre) => {
          const wanted = { wrapper: requireString(args, "wrapper", "--wrapper", pluginError), amount: requireString(args, "amount", "--amount", pluginError), from: optionalString(args, "from") };
          return onConnection(hre, pluginError, (actions, context) => (id === "nativekit:wrap" ? actions.wrapAction(context, wanted) : actions.unwrapAction(context, wanted)));
        }),
      )
      .build();

  return [
    node,
    balance,
    deployWrapper,
    wrapperTask("nativekit:wrap", "Wraps a native asset: nativeAssetCall + deposit in one transaction"),
    wrapperTask("nativekit:unwrap", "Unwraps: withdraws the asset from a WrappedNativeAsset"),
  ];
}
