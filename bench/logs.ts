/**
 * `npm run bench -- logs`: eth_getLogs over a long chain when few blocks match (issue 28 item 4).
 * It builds a chain in process from the built package (dist/, as a user's project loads it):
 * blocks of one transaction each whose log has a common topic, and one block, in the middle,
 * whose log has a rare one. At a tenth of the length and at the full length it times the query
 * for the rare topic over the whole chain (answered from the log index) and, for comparison, a
 * query every block matches (the common topic), and checks both answers.
 */
import * as path from "node:path";
import { parseArgs } from "node:util";

import { medianLatencyMs } from "../test/helpers/latency";
import { REPO_ROOT } from "./peers";

export const LOGS_BENCH_USAGE = `Usage: npm run bench -- logs [--blocks N] [--queries Q]
  --blocks N   the chain's length at the second measurement (default 20000; the first is at N/10)
  --queries Q  queries timed at each length (default 15; the median is reported)
`;

type Provider = { request(args: { method: string; params?: unknown[] }): Promise<unknown> };

const COMMON_TOPIC = `0x${"00".repeat(31)}07`;
const RARE_TOPIC = `0x${"ab".repeat(32)}`;
/** Init code: LOG1 with the topic, then STOP (each transaction makes a new emitter). */
const logWith = (topic: string) => `0x7f${topic.slice(2)}60006000a100`;

export async function logsBenchMain(argv: string[]): Promise<number> {
  let values: { blocks?: string; queries?: string; help?: boolean };
  try {
    values = parseArgs({ args: argv, options: { blocks: { type: "string" }, queries: { type: "string" }, help: { type: "boolean", short: "h" } } }).values;
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n\n${LOGS_BENCH_USAGE}`);
    return 2;
  }
  if (values.help === true) {
    process.stdout.write(LOGS_BENCH_USAGE);
    return 0;
  }
  const blocks = Number(values.blocks ?? 20_000);
  const queries = Number(values.queries ?? 15);
  if (!Number.isSafeInteger(blocks) || blocks < 10 || !Number.isSafeInteger(queries) || queries < 1) {
    process.stderr.write(`error: --blocks must be an integer of at least 10 and --queries a positive integer\n\n${LOGS_BENCH_USAGE}`);
    return 2;
  }
  // The built package, as a user's project loads it.
  const { createNativeProvider } = require(path.join(REPO_ROOT, "dist", "src", "engine", "provider")) as { createNativeProvider(options?: object): Promise<Provider> };
  const provider = await createNativeProvider({ rpcGasCap: 0n, rpcEvmTimeoutMs: 0 });
  const [from] = (await provider.request({ method: "eth_accounts" })) as string[];
  const send = (data: string) => provider.request({ method: "eth_sendTransaction", params: [{ from, data }] });
  const getLogs = (topic: string) => provider.request({ method: "eth_getLogs", params: [{ fromBlock: "0x0", toBlock: "latest", topics: [topic] }] }) as Promise<unknown[]>;

  process.stdout.write(`eth_getLogs over the whole chain, in process (dist/), median of ${queries}\n`);
  let height = 0;
  for (const size of [Math.floor(blocks / 10), blocks]) {
    const started = performance.now();
    while (height < size) {
      // The rare topic's one block sits in the middle of the first tenth.
      await send(logWith(height === Math.floor(blocks / 20) ? RARE_TOPIC : COMMON_TOPIC));
      height++;
    }
    process.stderr.write(`[bench logs] ${size} blocks built (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
    const rare = await getLogs(RARE_TOPIC);
    const common = await getLogs(COMMON_TOPIC);
    if (rare.length !== 1 || common.length !== size - 1) throw new Error(`wrong answers at ${size} blocks: ${rare.length} rare log(s), ${common.length} common ones (expected 1 and ${size - 1})`);
    const rareMs = await medianLatencyMs(() => getLogs(RARE_TOPIC), queries);
    const commonMs = await medianLatencyMs(() => getLogs(COMMON_TOPIC), Math.max(3, Math.floor(queries / 5)));
    process.stdout.write(`  ${String(size).padStart(7)} blocks   one block matches: ${rareMs.toFixed(2)} ms   every block matches (${common.length} logs): ${commonMs.toFixed(0)} ms\n`);
  }
  return 0;
}
