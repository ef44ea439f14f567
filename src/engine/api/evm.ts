/**
 * The evm_ namespace: the test-only powers over blocks and time that Hardhat's network helpers
 * (and ganache-era tools) call: mining on demand, snapshots, the clock, automine, the gas limit.
 */
import { RpcApi, type RpcApiOptions } from "../../rpc/api";
import { invalidParams } from "../../rpc/errors";
import type { Engine } from "../engine";
import { q } from "./format";
import * as p from "./params";

export function evmApi(engine: Engine, options: RpcApiOptions): RpcApi {
  const e = engine;
  return new RpcApi(options)
    .positional("evm_mine", [0, 1], async ([t]) => {
      await e.mineBlock(t === undefined || t === null ? {} : { timestamp: p.looseQuantity(t, "timestamp") });
      return "0x0";
    })
    .positional("evm_snapshot", 0, async () => q(await e.snapshot()))
    .positional("evm_revert", 1, ([id]) => e.revertTo(Number(p.looseQuantity(id, "snapshotId"))))
    .positional("evm_increaseTime", 1, ([s]) => {
      const seconds = typeof s === "number" ? s : Number(p.looseQuantity(s, "seconds"));
      return String(e.increaseTime(seconds));
    })
    .positional("evm_setNextBlockTimestamp", 1, ([t]) => {
      e.setNextBlockTimestamp(typeof t === "number" ? t : Number(p.looseQuantity(t, "timestamp")));
      return null;
    })
    .positional("evm_setAutomine", 1, ([flag]) => {
      if (typeof flag !== "boolean") throw invalidParams("evm_setAutomine expects true or false");
      e.setAutomine(flag);
      return true;
    })
    .positional("evm_setBlockGasLimit", 1, ([g]) => (e.setBlockGasLimit(p.looseQuantity(g, "gasLimit")), true));
}
