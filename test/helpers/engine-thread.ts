/**
 * The Hardhat 3 plugin's engine thread run from the TypeScript sources: the package starts the
 * compiled worker entry from dist/; here the worker registers ts-node and loads the source.
 */
import * as path from "node:path";
import { Worker } from "node:worker_threads";

import { EngineThread } from "../../src/hardhat/hardhat3/engine-thread";

/** A file, not eval'd code, as the package's worker is: Node treats the two differently (e.g. in what keeps a process alive). */
const WORKER_ENTRY = path.join(__dirname, "engine-thread-worker.js");

export function startSourceWorker(): Worker {
  return new Worker(WORKER_ENTRY);
}

export function sourceEngineThread(log?: (line: string) => void): EngineThread {
  return new EngineThread({ startWorker: startSourceWorker, ...(log === undefined ? {} : { log }) });
}
