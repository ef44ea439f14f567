/**
 * The nativekit:node task's action, for both Hardhat majors: serves the project's nativekit
 * network (its `nativekit` config) over HTTP on the reference node's paths, as
 * `npx nativekit node` does, until a signal stops it. Returns the CLI's exit code.
 */
import path from "node:path";
import type { NativekitConfig } from "./config";

export interface NodeTaskArguments {
  port: number;
  host: string;
}

/** The platform genesis of a `--genesis-file` flag, read as `nativekit node` reads it. */
async function platformGenesisOf(file: string | undefined): Promise<{ platformGenesis?: Awaited<ReturnType<typeof import("../cli/main").readGenesis>> }> {
  if (file === undefined) return {};
  const { readGenesis } = await import("../cli/main");
  return { platformGenesis: await readGenesis(file) };
}

export async function runNodeTask(config: NativekitConfig, projectRoot: string, args: NodeTaskArguments): Promise<number> {
  const { runCli, processSignals } = await import("../cli/cli");
  const { startCliNode } = await import("../cli/main");
  const { networkEngineOptions } = await import("./network-options");
  const options = networkEngineOptions(config, (line) => console.log(line));
  const genesisArgs = config.genesisFile === undefined ? [] : ["--genesis-file", path.resolve(projectRoot, config.genesisFile)];
  return runCli(["node", "--port", String(args.port), "--host", args.host, ...genesisArgs], {
    createNode: async (flags) => startCliNode({ ...options, ...(await platformGenesisOf(flags.genesisFile)) }),
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    onSignal: processSignals,
  });
}
