/**
 * Entry point of the `nativekit` command: `runCli` with the real node factory, the process's
 * output and its signals. The exports below are what the Hardhat node task and the tests build
 * the command's node with.
 */
import { runCli } from "./cli";
import { processSignals } from "./signals";
import { createCliNode } from "./cli-node";

export { createCliNode, createNodeChainsForCli } from "./cli-node";
export { readGenesis } from "./node-options";

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  process.exitCode = await runCli(argv, {
    createNode: createCliNode,
    stdout: bufferedStdout(),
    stderr: (s) => process.stderr.write(s),
    onSignal: processSignals,
  });
}

/**
 * The node logs every request; a write per request costs a busy node a system call each, so
 * lines go out together at most every 20 ms: still immediate to a person watching.
 */
function bufferedStdout(): (text: string) => void {
  let pending: string[] = [];
  const flush = () => {
    const text = pending.join("");
    pending = [];
    process.stdout.write(text);
  };
  return (text) => {
    if (pending.length === 0) setTimeout(flush, 20);
    pending.push(text);
  };
}

if (require.main === module) void main();
