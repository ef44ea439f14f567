/**
 * The hardhat_ namespace: the test-only powers Hardhat's network helpers call (mining several
 * blocks, impersonation, direct state edits, next-block parameters, reset, metadata), answered
 * as Hardhat's own network answers them.
 */
import { bytesToHex } from "@ethereumjs/util";
import { RpcApi, type PositionalMethod, type RpcApiOptions } from "../../rpc/api";
import { invalidParams } from "../../rpc/errors";
import type { Engine } from "../engine";
import type { LockHeld } from "../engine-lock";
import type { ForkingOptions } from "../options";
import { TimeSlices } from "../time-slices";
import * as anvil from "./anvil";
import * as p from "./params";
import type { EngineContext } from "./serve";
import { CLIENT_VERSION } from "./web3";

export function hardhatApi(engine: Engine, options: RpcApiOptions<LockHeld>): RpcApi<LockHeld> {
  return RpcApi.scoped(options).positionalMethods({ engine }, HARDHAT_METHODS);
}

/** [blocks = 1, interval = 1]: mines that many blocks, `interval` seconds apart. */
async function mine({ engine }: EngineContext, [count, interval]: unknown[]): Promise<true> {
  await mineBlocks(engine, count === undefined ? 1n : p.looseQuantity(count, "blocks"), interval === undefined ? 1n : p.looseQuantity(interval, "interval"));
  return true;
}

function getAutomine({ engine }: EngineContext): boolean {
  return engine.automine;
}

function impersonateAccount({ engine }: EngineContext, [address]: unknown[]): true {
  engine.impersonate(p.address(address, "address"));
  return true;
}

/** [address]: false if it was not impersonated. */
function stopImpersonatingAccount({ engine }: EngineContext, [address]: unknown[]): boolean {
  return engine.stopImpersonating(p.address(address, "address"));
}

// anvil's writers (they note what they wrote for anvil_dumpState), with Hardhat's answer.

async function setBalance(context: EngineContext, params: unknown[]): Promise<true> {
  await anvil.setBalance(context, params);
  return true;
}

async function setNonce(context: EngineContext, params: unknown[]): Promise<true> {
  await anvil.setNonce(context, params);
  return true;
}

async function setCode(context: EngineContext, params: unknown[]): Promise<true> {
  await anvil.setCode(context, params);
  return true;
}

function setStorageAt(context: EngineContext, params: unknown[]): Promise<true> {
  return anvil.setStorageAt(context, params);
}

function setNextBlockBaseFeePerGas({ engine }: EngineContext, [baseFeePerGas]: unknown[]): true {
  engine.setNextBlockBaseFee(p.looseQuantity(baseFeePerGas, "baseFeePerGas"));
  return true;
}

function setCoinbase({ engine }: EngineContext, [address]: unknown[]): true {
  engine.setCoinbase(p.address(address, "address"));
  return true;
}

function setPrevRandao({ engine }: EngineContext, [prevRandao]: unknown[]): true {
  engine.setNextPrevRandao(p.data(prevRandao, "prevRandao", 32));
  return true;
}

/** [options?]: see `resetForking`. */
async function reset({ engine }: EngineContext, [options]: unknown[]): Promise<true> {
  await engine.reset(resetForking(options));
  return true;
}

function setLoggingEnabled({ engine }: EngineContext, [flag]: unknown[]): true {
  if (typeof flag !== "boolean") throw invalidParams("hardhat_setLoggingEnabled expects true or false");
  engine.loggingEnabled = flag;
  return true;
}

/** [transactionHash]: whether a pending transaction was dropped. */
function dropTransaction({ engine }: EngineContext, [transactionHash]: unknown[]): boolean {
  return engine.dropPendingTransaction(p.hash(transactionHash, "transactionHash"));
}

function metadata({ engine }: EngineContext): Record<string, unknown> {
  const fork = engine.fork;
  return {
    clientVersion: CLIENT_VERSION,
    chainId: engine.options.chainId,
    instanceId: instanceId(engine),
    latestBlockNumber: Number(engine.chain.height),
    latestBlockHash: engine.head.hash,
    ...(fork === undefined ? {} : { forkedNetwork: { chainId: fork.chainId, forkBlockNumber: Number(fork.point.number), forkBlockHash: fork.point.hash } }),
  };
}

const HARDHAT_METHODS: Readonly<Record<string, PositionalMethod<EngineContext, LockHeld>>> = {
  "hardhat_mine": [[0, 2], mine],
  "hardhat_getAutomine": [0, getAutomine],
  "hardhat_impersonateAccount": [1, impersonateAccount],
  "hardhat_stopImpersonatingAccount": [1, stopImpersonatingAccount],
  "hardhat_setBalance": [2, setBalance],
  "hardhat_setNonce": [2, setNonce],
  "hardhat_setCode": [2, setCode],
  "hardhat_setStorageAt": [3, setStorageAt],
  "hardhat_setNextBlockBaseFeePerGas": [1, setNextBlockBaseFeePerGas],
  "hardhat_setCoinbase": [1, setCoinbase],
  "hardhat_setPrevRandao": [1, setPrevRandao],
  "hardhat_reset": [[0, 1], reset],
  "hardhat_setLoggingEnabled": [1, setLoggingEnabled],
  "hardhat_dropTransaction": [1, dropTransaction],
  "hardhat_metadata": [0, metadata],
};

/**
 * Mines `count` blocks: the first as the clock (or a time set for it) says, each next one
 * `interval` seconds after its parent (at least one second: a block is always later than its parent).
 */
export async function mineBlocks(engine: Engine, count: bigint, interval: bigint): Promise<void> {
  // Mining thousands of blocks takes seconds: a node answers cheap requests meanwhile.
  const slices = new TimeSlices();
  for (let i = 0n; i < count; i++) {
    await slices.next();
    const parent = engine.head.block.header.timestamp;
    await engine.mineBlock(i === 0n ? {} : { timestamp: parent + interval });
  }
}

/**
 * hardhat_reset's options as the engine's: none, the network as it was created (forked if its
 * config forks); `{ forking: { jsonRpcUrl, blockNumber?, httpHeaders? } }`, a fork of that
 * remote; any other object (`{}`), a fresh chain without a fork.
 */
export function resetForking(options: unknown): ForkingOptions | null | undefined {
  if (options === undefined || options === null) return undefined;
  if (typeof options !== "object" || Array.isArray(options)) throw invalidParams("hardhat_reset: expected an options object");
  const forking = (options as { forking?: unknown }).forking;
  if (forking === undefined || forking === null) return null;
  if (typeof forking !== "object" || Array.isArray(forking)) throw invalidParams("hardhat_reset: forking must be an object");
  const fields = forking as Record<string, unknown>;
  const url = fields.jsonRpcUrl ?? fields.url;
  if (typeof url !== "string") throw invalidParams("hardhat_reset: forking.jsonRpcUrl must be the remote's URL");
  const headers = fields.httpHeaders;
  if (headers !== undefined && (typeof headers !== "object" || headers === null || Object.values(headers).some((v) => typeof v !== "string"))) {
    throw invalidParams("hardhat_reset: forking.httpHeaders must map names to strings");
  }
  return {
    url,
    ...(fields.blockNumber === undefined || fields.blockNumber === null ? {} : { blockNumber: p.looseQuantity(fields.blockNumber, "forking.blockNumber") }),
    ...(headers === undefined ? {} : { httpHeaders: headers as Record<string, string> }),
    ...(fields.precompiles === "active" || fields.precompiles === "deprecated" ? { precompiles: fields.precompiles } : {}),
  };
}

/** Hardhat's helpers tell one running network from another by this ID, one per engine. */
const instanceIds = new WeakMap<Engine, string>();
export function instanceId(engine: Engine): string {
  let id = instanceIds.get(engine);
  if (id === undefined) {
    id = bytesToHex(crypto.getRandomValues(new Uint8Array(32)));
    instanceIds.set(engine, id);
  }
  return id;
}
