import { getAddress } from "ethers";
import { runCli, processSignals, type CliNode } from "./cli";
import { createLocalNode } from "./local-node";

/** Entry point of the `nativekit` command. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  process.exitCode = await runCli(argv, {
    async createNode(options): Promise<CliNode> {
      const { chainId, ...management } = options;
      const node = await createLocalNode({ ...(chainId === undefined ? {} : { chainId }), management });
      const engine = node.provider.engine;
      const accounts = await Promise.all(
        [...engine.unlocked.values()].map(async (a) => ({
          address: getAddress(a.address.toString()),
          privateKey: a.privateKeyHex,
          balanceWei: (await engine.getAccount(a.address, engine.head)).balance,
        })),
      );
      const { getRoutes, authorize, notes } = node.network.management;
      return { routes: node.routes, getRoutes, authorize, accounts, chainId: engine.options.chainId, notes: [...node.network.describeTestKey(), ...notes] };
    },
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
