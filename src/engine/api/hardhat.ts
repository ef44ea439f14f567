/**
 * The hardhat_ namespace: the test-only powers Hardhat's network helpers call (mining several
 * blocks, impersonation, direct state edits, next-block parameters, reset, metadata), answered
 * as Hardhat's own network answers them.
 */
import { bytesToHex } from "@ethereumjs/util";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { RpcApi, type RpcApiOptions } from "../../rpc/api";
import { invalidParams } from "../../rpc/errors";
import type { Engine } from "../engine";
import type { ForkingOptions } from "../options";
import { TimeSlices } from "../time-slices";
import { setBalance, setCode, setNonce, setStorageAt } from "./anvil";
import * as p from "./params";
import { CLIENT_VERSION } from "./web3";

export function hardhatApi(engine: Engine, options: RpcApiOptions): RpcApi {
  const e = engine;
  return new RpcApi(options)
    .positional("hardhat_mine", [0, 2], async ([count, interval]) => {
      await mineBlocks(e, count === undefined ? 1n : p.looseQuantity(count, "blocks"), interval === undefined ? 1n : p.looseQuantity(interval, "interval"));
      return true;
    })
    .positional("hardhat_getAutomine", 0, () => e.automine)
    .positional("hardhat_impersonateAccount", 1, ([a]) => (e.impersonate(p.address(a, "address")), true))
    .positional("hardhat_stopImpersonatingAccount", 1, ([a]) => e.stopImpersonating(p.address(a, "address")))
    // anvil's writers (they note what they wrote for anvil_dumpState), with Hardhat's answer.
    .positional("hardhat_setBalance", 2, async (params) => (await setBalance(e, params), true))
    .positional("hardhat_setNonce", 2, async (params) => (await setNonce(e, params), true))
    .positional("hardhat_setCode", 2, async (params) => (await setCode(e, params), true))
    .positional("hardhat_setStorageAt", 3, (params) => setStorageAt(e, params))
    .positional("hardhat_setNextBlockBaseFeePerGas", 1, ([f]) => (e.setNextBlockBaseFee(p.looseQuantity(f, "baseFeePerGas")), true))
    .positional("hardhat_setCoinbase", 1, ([a]) => (e.setCoinbase(p.address(a, "address")), true))
    .positional("hardhat_setPrevRandao", 1, ([v]) => (e.setNextPrevRandao(p.data(v, "prevRandao", 32)), true))
    .positional("hardhat_reset", [0, 1], async ([options]) => {
      await e.reset(resetForking(options));
      return true;
    })
    .positional("hardhat_setLoggingEnabled", 1, ([flag]) => {
      if (typeof flag !== "boolean") throw invalidParams("hardhat_setLoggingEnabled expects true or false");
      e.loggingEnabled = flag;
      return true;
    })
    .positional("hardhat_dropTransaction", 1, ([h]) => e.dropPendingTransaction(p.hash(h, "transactionHash")))
    .positional("hardhat_metadata", 0, () => ({
      clientVersion: CLIENT_VERSION,
      chainId: e.options.chainId,
      instanceId: instanceId(e),
      latestBlockNumber: Number(e.chain.height),
      latestBlockHash: e.head.hash,
      ...(e.fork === undefined
        ? {}
        : { forkedNetwork: { chainId: e.fork.chainId, forkBlockNumber: Number(e.fork.point.number), forkBlockHash: e.fork.point.hash } }),
    }));
}

/**
 * Mines `count` blocks: the first as the clock (or a time set for it) says, each next one
 * `interval` seconds after its parent (at least one second: a block is always later than its parent).
 */
export async function mineBlocks(e: Engine, count: bigint, interval: bigint): Promise<void> {
  // Mining thousands of blocks takes seconds: a node answers cheap requests meanwhile.
  const slices = new TimeSlices();
  for (let i = 0n; i < count; i++) {
    await slices.next();
    const parent = e.head.block.header.timestamp;
    await e.mineBlock(i === 0n ? {} : { timestamp: parent + interval });
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
  const f = forking as Record<string, unknown>;
  const url = f.jsonRpcUrl ?? f.url;
  if (typeof url !== "string") throw invalidParams("hardhat_reset: forking.jsonRpcUrl must be the remote's URL");
  const headers = f.httpHeaders;
  if (headers !== undefined && (typeof headers !== "object" || headers === null || Object.values(headers).some((v) => typeof v !== "string"))) {
    throw invalidParams("hardhat_reset: forking.httpHeaders must map names to strings");
  }
  return {
    url,
    ...(f.blockNumber === undefined || f.blockNumber === null ? {} : { blockNumber: p.looseQuantity(f.blockNumber, "forking.blockNumber") }),
    ...(headers === undefined ? {} : { httpHeaders: headers as Record<string, string> }),
    ...(f.precompiles === "active" || f.precompiles === "deprecated" ? { precompiles: f.precompiles } : {}),
  };
}

/** Hardhat's helpers tell one running network from another by this ID, one per engine. */
const instanceIds = new WeakMap<Engine, string>();
export function instanceId(engine: Engine): string {
  let id = instanceIds.get(engine);
  if (id === undefined) {
    id = bytesToHex(keccak_256(new TextEncoder().encode(`${Date.now()}-${Math.random()}`)));
    instanceIds.set(engine, id);
  }
  return id;
}
