/**
 * The engine thread's entry (a worker_threads Worker started by engine-thread.ts): it holds the
 * in-process chains of a Hardhat 3 run, one per network connection, and answers their requests.
 *
 * Why a thread of its own: loading the engine (about 500 modules) and building a chain take
 * a few hundred milliseconds of CPU. Started when the run begins (`prepare`), the thread does
 * that on another core while Hardhat builds and loads the tests, so a connection finds a chain
 * ready; and the EVM's work stays off the thread that runs the tests' own code.
 *
 * A spare chain is kept for the config last asked for, so the next connection gets one at
 * once; it is handed out only while its genesis is recent (SPARE_MAX_AGE_MS), since a chain's
 * genesis timestamp is the time it was built.
 */
import * as nodeModule from "node:module";
import { parentPort } from "node:worker_threads";

import type { NativeProvider } from "../../engine/provider";
import type { NativekitConfig } from "../config";
import { loadInProcessEngine } from "../in-process-engine-loader";
import { type Observed, observedChainOptions, observesAnything, type ObservationRequest } from "./chain-observers";
import { carriedError, configKey, type FromEngineThread, type ToEngineThread } from "./engine-thread-protocol";

// Node's on-disk cache of compiled code (Node 22.1+), as the plugin's entry enables it for Hardhat's thread.
const enableCompileCache = (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache;
if (typeof enableCompileCache === "function" && process.env.NODE_DISABLE_COMPILE_CACHE === undefined) enableCompileCache();

const SPARE_MAX_AGE_MS = 10_000;

const port = parentPort;
if (port === null) throw new Error("engine-thread-worker runs as a worker thread, started by engine-thread.ts");

function send(message: FromEngineThread): void {
  try {
    port!.postMessage(message);
  } catch (error) {
    // A result that cannot be cloned (a bug: answers are JSON values) still gets an answer.
    if (message.kind !== "result") throw error;
    port!.postMessage({ kind: "error", request: message.request, error: carriedError(error) } satisfies FromEngineThread);
  }
}

/** How to drain what each observing chain observed, by chain. */
const observers = new Map<number, () => Observed | undefined>();

/** A chain with this config; with `observing`, one that observes for that connection's chain. */
async function buildChain(config: NativekitConfig, observing?: { chain: number; request: ObservationRequest }): Promise<NativeProvider> {
  const { createNativeProvider, networkEngineOptions } = await loadInProcessEngine();
  const log = config.loggingEnabled ? (line: string) => send({ kind: "log", line }) : () => {};
  const options = networkEngineOptions(config, log);
  if (observing === undefined) return createNativeProvider(options);
  const observed = await observedChainOptions(options, observing.request);
  observers.set(observing.chain, observed.take);
  return createNativeProvider(observed.options);
}

interface Spare {
  key: string;
  builtAt: number;
  chain: Promise<NativeProvider>;
}

const chains = new Map<number, Promise<NativeProvider>>();
let spare: Spare | undefined;

function buildSpare(config: NativekitConfig): void {
  const chain = buildChain(config);
  chain.catch(() => {}); // a failure reaches the connection that takes this spare
  spare = { key: configKey(config), builtAt: Date.now(), chain };
}

/** The spare chain when it was built for this config and recently, else a new one; a new spare follows. */
function takeChain(config: NativekitConfig): Promise<NativeProvider> {
  const fresh = spare !== undefined && spare.key === configKey(config) && Date.now() - spare.builtAt <= SPARE_MAX_AGE_MS;
  const chain = fresh ? spare!.chain : buildChain(config);
  spare = undefined;
  // The next spare is built once this chain is ready, so building it never delays this one.
  chain.then(() => setImmediate(() => buildSpare(config))).catch(() => {});
  return chain;
}

async function open(chain: number, config: NativekitConfig, observe: ObservationRequest | undefined): Promise<void> {
  // A chain that observes is built for its connection: the spare observes nothing.
  const provider = observesAnything(observe) ? buildChain(config, { chain, request: observe }) : takeChain(config);
  chains.set(chain, provider);
  try {
    await provider;
    send({ kind: "opened", chain });
  } catch (error) {
    chains.delete(chain);
    observers.delete(chain);
    send({ kind: "open-failed", chain, error: carriedError(error) });
  }
}

async function answer(chain: number, request: number, method: string, params: unknown): Promise<void> {
  const provider = chains.get(chain);
  if (provider === undefined) {
    send({ kind: "error", request, error: { message: `the in-process chain ${chain} is closed` } });
    return;
  }
  let reply: FromEngineThread;
  try {
    const result = await (await provider).request({ method, params: params as unknown[] | undefined });
    reply = { kind: "result", request, result: result ?? null };
  } catch (error) {
    reply = { kind: "error", request, error: carriedError(error) };
  }
  const observed = observers.get(chain)?.();
  send(observed === undefined ? reply : { ...reply, observed });
}

port.on("message", (message: ToEngineThread) => {
  switch (message.kind) {
    case "prepare":
      if (spare?.key !== configKey(message.config)) buildSpare(message.config);
      return;
    case "open":
      void open(message.chain, message.config, message.observe);
      return;
    case "request":
      void answer(message.chain, message.request, message.method, message.params);
      return;
    case "close":
      chains.delete(message.chain);
      observers.delete(message.chain);
      return;
  }
});
