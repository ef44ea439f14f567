/**
 * The nativekit_ namespace: the simulator's own test-only powers over multi-coin state, and
 * what a fork of this node needs to know that no standard method says (the precompiles' mode).
 */
import { RpcApi, type RpcApiOptions } from "../../rpc/api";
import { invalidParams } from "../../rpc/errors";
import type { Engine } from "../engine";
import type { LockHeld } from "../engine-lock";
import * as p from "./params";
import type { EngineContext } from "./serve";

export function nativekitApi(engine: Engine, options: RpcApiOptions<LockHeld>): RpcApi<LockHeld> {
  return RpcApi.scoped(options).positionalMethods({ engine }, {
    "nativekit_setAssetBalance": [3, setAssetBalance],
    "nativekit_precompileMode": [0, precompileMode],
  });
}

/** [address, assetID, amount]: sets the account's balance of the asset; true. */
async function setAssetBalance({ engine }: EngineContext, [address, assetId, amount]: unknown[]): Promise<true> {
  const value = p.looseQuantity(amount, "amount");
  if (value >= 1n << 256n) throw invalidParams("amount must fit in 256 bits");
  await engine.setAssetBalance(p.address(address, "address"), p.parseAssetIdHex(assetId, "assetID"), value);
  return true;
}

/** "active", or "deprecated" when the upgrade that deprecated the precompiles is simulated. */
function precompileMode({ engine }: EngineContext): "active" | "deprecated" {
  return engine.deprecatedPrecompiles ? "deprecated" : "active";
}
