/**
 * The evm_ namespace: the test-only powers over blocks and time that Hardhat's network helpers
 * (and ganache-era tools) call: mining on demand, snapshots, the clock, automine, the gas limit.
 */
import { RpcApi, type PositionalMethod, type RpcApiOptions } from "../../rpc/api";
import { invalidParams } from "../../rpc/errors";
import type { Engine } from "../engine";
import type { LockHeld } from "../engine-lock";
import type { MiningInterval } from "../interval-mining";
import { q } from "./format";
import * as p from "./params";
import type { EngineContext } from "./serve";

export function evmApi(engine: Engine, options: RpcApiOptions<LockHeld>): RpcApi<LockHeld> {
  return RpcApi.scoped(options).positionalMethods({ engine }, EVM_METHODS);
}

/** [timestamp | { timestamp?, blocks? }]: mines a block (Hardhat), or anvil's number of blocks. */
async function mine({ engine }: EngineContext, [options]: unknown[]): Promise<string> {
  const { blocks, timestamp } = mineOptions(options);
  for (let i = 0n; i < blocks; i++) await engine.mineBlock(i === 0n && timestamp !== undefined ? { timestamp } : {});
  return "0x0";
}

/** A snapshot's ID (evm_snapshot, anvil_snapshot). */
export async function snapshot({ engine }: EngineContext): Promise<string> {
  return q(await engine.snapshot());
}

/** [snapshotId]: back to the snapshot (evm_revert, anvil_revert); false for an unknown one. */
export function revert({ engine }: EngineContext, [snapshotId]: unknown[]): Promise<boolean> {
  return engine.revertTo(Number(p.looseQuantity(snapshotId, "snapshotId")));
}

/** [seconds]: the clock's total offset, in decimal. */
function increaseTime({ engine }: EngineContext, [secondsParam]: unknown[]): string {
  const seconds = typeof secondsParam === "number" ? secondsParam : Number(p.looseQuantity(secondsParam, "seconds"));
  return String(engine.increaseTime(seconds));
}

/** [timestamp]: Hardhat's network answers the timestamp, in decimal. */
function setNextBlockTimestamp({ engine }: EngineContext, [timestampParam]: unknown[]): string {
  const timestamp = typeof timestampParam === "number" ? timestampParam : Number(p.looseQuantity(timestampParam, "timestamp"));
  engine.setNextBlockTimestamp(timestamp);
  return String(timestamp);
}

function setIntervalMining({ engine }: EngineContext, [interval]: unknown[]): true {
  engine.intervalMining.set(miningInterval(interval));
  return true;
}

function setAutomine({ engine }: EngineContext, [flag]: unknown[]): true {
  if (typeof flag !== "boolean") throw invalidParams("evm_setAutomine expects true or false");
  engine.setAutomine(flag);
  return true;
}

function setBlockGasLimit({ engine }: EngineContext, [gasLimit]: unknown[]): true {
  engine.setBlockGasLimit(p.looseQuantity(gasLimit, "gasLimit"));
  return true;
}

const EVM_METHODS: Readonly<Record<string, PositionalMethod<EngineContext, LockHeld>>> = {
  "evm_mine": [[0, 1], mine],
  "evm_snapshot": [0, snapshot],
  "evm_revert": [1, revert],
  "evm_increaseTime": [1, increaseTime],
  "evm_setNextBlockTimestamp": [1, setNextBlockTimestamp],
  "evm_setIntervalMining": [1, setIntervalMining],
  "evm_setAutomine": [1, setAutomine],
  "evm_setBlockGasLimit": [1, setBlockGasLimit],
};

/** evm_mine's parameter as anvil reads it: absent, a timestamp, or `{ timestamp?, blocks? }`. */
export function mineOptions(value: unknown): { blocks: bigint; timestamp: bigint | undefined } {
  if (value === undefined || value === null) return { blocks: 1n, timestamp: undefined };
  if (typeof value !== "object" || Array.isArray(value)) return { blocks: 1n, timestamp: p.looseQuantity(value, "timestamp") };
  const { timestamp, blocks } = value as { timestamp?: unknown; blocks?: unknown };
  return { blocks: optionalQuantity(blocks, "blocks") ?? 1n, timestamp: optionalQuantity(timestamp, "timestamp") };
}

/** A quantity that may be absent (or null). */
export function optionalQuantity(value: unknown, name: string): bigint | undefined {
  return value === undefined || value === null ? undefined : p.looseQuantity(value, name);
}

/**
 * evm_setIntervalMining's interval as Hardhat's network reads it: milliseconds, or a [min, max]
 * range of them; 0 turns interval mining off. (anvil reads the same method's number as seconds:
 * anvil_setIntervalMining takes seconds here.)
 */
function miningInterval(value: unknown): MiningInterval {
  const ms = (v: unknown) => Number(p.looseQuantity(v, "interval"));
  if (Array.isArray(value) && value.length === 2) {
    const [min, max] = [ms(value[0]), ms(value[1])];
    if (min > max) throw invalidParams(`evm_setIntervalMining: the range's minimum ${min} is above its maximum ${max}`);
    return [min, max];
  }
  if (Array.isArray(value)) throw invalidParams("evm_setIntervalMining: expected milliseconds, or a [min, max] range of them");
  return ms(value);
}
