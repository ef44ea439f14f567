/**
 * The nativekit:node task's action, for both Hardhat majors: serves the project's nativekit
 * network (its `nativekit` config) over HTTP on the reference node's paths, as
 * `npx nativekit node` does (the same command, started with `startNode`), until a signal stops
 * it. Returns the command's exit code.
 */
import path from "node:path";
import type { NativekitConfig } from "./config";
import type { ExitCode } from "../cli/exit-code";

export interface NodeTaskArguments {
  port: number;
  host: string;
}

export async function runNodeTask(config: NativekitConfig, projectRoot: string, args: NodeTaskArguments): Promise<ExitCode> {
  const { runNodeCommand } = await import("../cli/node-command");
  const { processSignals } = await import("../cli/signals");
  const { createNodeChainsForCli, readGenesis } = await import("../cli/main");
  const { networkEngineOptions } = await import("./network-options");
  const options = networkEngineOptions(config, (line) => console.log(line));
  const genesisArgs = config.genesisFile === undefined ? [] : ["--genesis-file", path.resolve(projectRoot, config.genesisFile)];
  return runNodeCommand(["--port", String(args.port), "--host", args.host, ...genesisArgs], {
    // The project's config, not the command's flags, makes the chains; the genesis file is read as `nativekit node` reads it.
    createNode: async (flags) => createNodeChainsForCli({ ...options, ...(flags.genesisFile === undefined ? {} : { platformGenesis: await readGenesis(flags.genesisFile) }) }),
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    onSignal: processSignals,
  });
}
