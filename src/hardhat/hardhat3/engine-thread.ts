/**
 * The plugin's side of the engine thread (engine-thread-worker.ts): one worker thread per
 * Hardhat process holds the in-process chains of the nativekit networks, one per connection.
 *
 * The thread never keeps the process alive by itself: it is unreferenced while nothing waits on
 * it, and referenced while a chain is being opened or a request is in flight, so a script that
 * awaits an answer is not cut short and a finished test run exits at once. If the thread dies,
 * everything waiting on it fails with the reason, its chains are gone, and the next connection
 * starts a new thread.
 */
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";

import type { NativekitConfig } from "../config";
import type { Observed, ObservationRequest } from "./chain-observers";
import { type FromEngineThread, restoredError, type ToEngineThread } from "./engine-thread-protocol";

/** A chain in the engine thread, as one network connection uses it. */
export interface ThreadChain {
  request(method: string, params: unknown): Promise<unknown>;
  /** Drops the chain in the thread; its later requests fail. */
  close(): void;
  /** What the chain observed (--coverage, --gas-stats) in the requests answered since the last take. */
  takeObserved(): Observed | undefined;
}

interface Waiter {
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** Receives what the chain observed while answering, before the answer settles. */
  observed?: (observed: Observed) => void;
}

/** The worker, from the compiled entry next to this file (the package's dist/). */
function startCompiledWorker(): Worker {
  const compiled = path.join(__dirname, "engine-thread-worker.js");
  if (!fs.existsSync(compiled)) {
    throw new Error(`the engine thread's entry ${compiled} is missing: it runs from the built package (npm run build); from the TypeScript sources, pass startWorker`);
  }
  return new Worker(compiled);
}

export interface EngineThreadOptions {
  /** Where the engine's log lines go (default console.log). */
  log?: (line: string) => void;
  /** Starts the worker (default: the compiled engine-thread-worker.js next to this file). */
  startWorker?: () => Worker;
}

export class EngineThread {
  private worker: Worker | undefined;
  private readonly waiting = new Map<string, Waiter>();
  private nextChain = 1;
  private nextRequest = 1;
  private readonly log: (line: string) => void;
  private readonly startWorker: () => Worker;

  constructor(options: EngineThreadOptions = {}) {
    this.log = options.log ?? ((line) => console.log(line));
    this.startWorker = options.startWorker ?? startCompiledWorker;
  }

  /** Starts the thread, if it is not running, and has it load the engine and build a chain for this config. */
  prepare(config: NativekitConfig): void {
    this.post(this.running(), { kind: "prepare", config });
  }

  /** A fresh chain with this config's options, in the thread; `observe`: what it observes for --coverage and --gas-stats. */
  async open(config: NativekitConfig, observe?: ObservationRequest): Promise<ThreadChain> {
    const worker = this.running();
    const chain = this.nextChain++;
    await this.wait(`open:${chain}`, () => this.post(worker, observe === undefined ? { kind: "open", chain, config } : { kind: "open", chain, config, observe }));
    let pending: Observed | undefined;
    const observed = (more: Observed) => {
      pending = pending === undefined ? more : { coverageHits: [...pending.coverageHits, ...more.coverageHits], executions: [...pending.executions, ...more.executions] };
    };
    return {
      request: (method, params) => {
        if (this.worker !== worker) return Promise.reject(new Error(`the in-process chain is gone: the engine thread it lived in stopped; open a new connection`));
        const request = this.nextRequest++;
        return this.wait(`request:${request}`, () => this.post(worker, { kind: "request", chain, request, method, params }), observed);
      },
      close: () => {
        if (this.worker === worker) this.post(worker, { kind: "close", chain });
      },
      takeObserved: () => {
        const taken = pending;
        pending = undefined;
        return taken;
      },
    };
  }

  /** Stops the thread; what waits on it fails. */
  async terminate(): Promise<void> {
    const worker = this.worker;
    if (worker === undefined) return;
    this.stopped(worker, new Error("the engine thread was terminated"));
    await worker.terminate();
  }

  private running(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = this.startWorker();
    worker.on("message", (message: FromEngineThread) => this.receive(message));
    worker.on("error", (error) => this.stopped(worker, error));
    worker.on("exit", (code) => this.stopped(worker, new Error(`the engine thread exited with code ${code}`)));
    // After the listeners: adding a "message" listener references the worker's port again.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private post(worker: Worker, message: ToEngineThread): void {
    worker.postMessage(message);
  }

  private wait(key: string, send: () => void, observed?: (observed: Observed) => void): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.waiting.set(key, { resolve, reject, observed });
      if (this.waiting.size === 1) this.worker?.ref();
      send();
    });
  }

  private settle(key: string, outcome: { value: unknown } | { error: Error }, observed?: Observed): void {
    const waiter = this.waiting.get(key);
    if (waiter === undefined) return;
    this.waiting.delete(key);
    if (observed !== undefined) waiter.observed?.(observed);
    if (this.waiting.size === 0) this.worker?.unref();
    if ("error" in outcome) waiter.reject(outcome.error);
    else waiter.resolve(outcome.value);
  }

  private receive(message: FromEngineThread): void {
    switch (message.kind) {
      case "opened":
        return this.settle(`open:${message.chain}`, { value: undefined });
      case "open-failed":
        return this.settle(`open:${message.chain}`, { error: restoredError(message.error) });
      case "result":
        return this.settle(`request:${message.request}`, { value: message.result }, message.observed);
      case "error":
        return this.settle(`request:${message.request}`, { error: restoredError(message.error) }, message.observed);
      case "log":
        return this.log(message.line);
    }
  }

  /** The thread is gone: everything waiting fails with the reason, and the next use starts a new one. */
  private stopped(worker: Worker, reason: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const waiter of waiting) waiter.reject(new Error(`the nativekit engine thread stopped: ${reason.message}`, { cause: reason }));
  }
}

let shared: EngineThread | undefined;

/** The process's engine thread, shared by the plugin's hooks. */
export function sharedEngineThread(): EngineThread {
  shared ??= new EngineThread();
  return shared;
}
