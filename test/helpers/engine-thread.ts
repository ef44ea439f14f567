/**
 * The Hardhat 3 plugin's engine thread run from the TypeScript sources: the package starts the
 * compiled worker entry from dist/; here the worker registers ts-node and loads the source.
 */
import * as path from "node:path";
import { Worker } from "node:worker_threads";

import { EngineThread } from "../../src/hardhat/hardhat3/engine-thread";

const WORKER_SOURCE = path.join(__dirname, "..", "..", "src", "hardhat", "hardhat3", "engine-thread-worker.ts");

/**
 * The worker as eval'd code that registers ts-node, not a file: `hardhat test` runs every .js and
 * .ts file under test/, and a bootstrap file here would run as a test file on the main thread.
 */
export function startSourceWorker(): Worker {
  return new Worker(`require("ts-node/register/transpile-only"); require(${JSON.stringify(WORKER_SOURCE)});`, { eval: true });
}

export function sourceEngineThread(log?: (line: string) => void): EngineThread {
  return new EngineThread({ startWorker: startSourceWorker, ...(log === undefined ? {} : { log }) });
}
