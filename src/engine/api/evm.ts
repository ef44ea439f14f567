/**
 * The evm_ namespace: the test-only powers over blocks and time that Hardhat's network helpers
 * (and ganache-era tools) call: mining on demand, snapshots, the clock, automine, the gas limit.
 */
import { RpcApi, type RpcApiOptions } from "../../rpc/api";
import { invalidParams } from "../../rpc/errors";
import type { Engine } from "../engine";
import type { MiningInterval } from "../interval-mining";
import { mineOptions } from "./anvil";
import { q } from "./format";
import * as p from "./params";

export function evmApi(engine: Engine, options: RpcApiOptions): RpcApi {
  const e = engine;
  return new RpcApi(options)
    .positional("evm_mine", [0, 1], async ([options]) => {
      // A timestamp (Hardhat), or anvil's { timestamp?, blocks? }.
      const { blocks, timestamp } = mineOptions(options);
      for (let i = 0n; i < blocks; i++) await e.mineBlock(i === 0n && timestamp !== undefined ? { timestamp } : {});
      return "0x0";
    })
    .positional("evm_snapshot", 0, async () => q(await e.snapshot()))
    .positional("evm_revert", 1, ([id]) => e.revertTo(Number(p.looseQuantity(id, "snapshotId"))))
    .positional("evm_increaseTime", 1, ([s]) => {
      const seconds = typeof s === "number" ? s : Number(p.looseQuantity(s, "seconds"));
      return String(e.increaseTime(seconds));
    })
    .positional("evm_setNextBlockTimestamp", 1, ([t]) => {
      const timestamp = typeof t === "number" ? t : Number(p.looseQuantity(t, "timestamp"));
      e.setNextBlockTimestamp(timestamp);
      // Hardhat's network answers the timestamp, in decimal.
      return String(timestamp);
    })
    .positional("evm_setIntervalMining", 1, ([interval]) => {
      e.intervalMining.set(miningInterval(interval));
      return true;
    })
    .positional("evm_setAutomine", 1, ([flag]) => {
      if (typeof flag !== "boolean") throw invalidParams("evm_setAutomine expects true or false");
      e.setAutomine(flag);
      return true;
    })
    .positional("evm_setBlockGasLimit", 1, ([g]) => (e.setBlockGasLimit(p.looseQuantity(g, "gasLimit")), true));
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
