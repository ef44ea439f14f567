/**
 * The nativekit_ namespace: the simulator's own test-only powers over multi-coin state, and
 * what a fork of this node needs to know that no standard method says (the precompiles' mode).
 */
import { RpcApi, type RpcApiOptions } from "../../rpc/api";
import { invalidParams } from "../../rpc/errors";
import type { Engine } from "../engine";
import * as p from "./params";

export function nativekitApi(engine: Engine, options: RpcApiOptions): RpcApi {
  return new RpcApi(options)
    .positional("nativekit_setAssetBalance", 3, async ([a, id, amount]) => {
      const value = p.looseQuantity(amount, "amount");
      if (value >= 1n << 256n) throw invalidParams("amount must fit in 256 bits");
      await engine.setAssetBalance(p.address(a, "address"), p.parseAssetIdHex(id, "assetID"), value);
      return true;
    })
    .positional("nativekit_precompileMode", 0, () => (engine.deprecatedPrecompiles ? "deprecated" : "active"));
}
