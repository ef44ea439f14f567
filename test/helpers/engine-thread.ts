/**
 * The Hardhat 3 plugin's engine thread run from the TypeScript sources: the package starts the
 * compiled worker entry from dist/; here the worker registers ts-node and loads the source.
 */
import * as path from "node:path";
import { Worker } from "node:worker_threads";

import { EngineThread } from "../../src/hardhat/hardhat3/engine-thread";

const WORKER_SOURCE = path.join(__dirname, "..", "..", "src", "hardhat", "hardhat3", "engine-thread-worker.ts");

export function startSourceWorker(): Worker {
  return new Worker(`require("ts-node/register/transpile-only"); require(${JSON.stringify(WORKER_SOURCE)});`, { eval: true });
}

export function sourceEngineThread(log?: (line: string) => void): EngineThread {
  return new EngineThread({ startWorker: startSourceWorker, ...(log === undefined ? {} : { log }) });
}
