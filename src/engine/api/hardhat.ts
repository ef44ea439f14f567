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
import * as p from "./params";
import { CLIENT_VERSION } from "./web3";

export function hardhatApi(engine: Engine, options: RpcApiOptions): RpcApi {
  const e = engine;
  return new RpcApi(options)
    .positional("hardhat_mine", [0, 2], async ([count, interval]) => {
      const n = count === undefined ? 1n : p.looseQuantity(count, "blocks");
      const step = interval === undefined ? 1n : p.looseQuantity(interval, "interval");
      for (let i = 0n; i < n; i++) {
        const parent = e.head.block.header.timestamp;
        await e.mineBlock(i === 0n ? {} : { timestamp: parent + step });
      }
      return true;
    })
    .positional("hardhat_getAutomine", 0, () => e.automine)
    .positional("hardhat_impersonateAccount", 1, ([a]) => (e.impersonate(p.address(a, "address")), true))
    .positional("hardhat_stopImpersonatingAccount", 1, ([a]) => e.stopImpersonating(p.address(a, "address")))
    .positional("hardhat_setBalance", 2, async ([a, b]) => (await e.setBalance(p.address(a, "address"), p.looseQuantity(b, "balance")), true))
    .positional("hardhat_setNonce", 2, async ([a, n]) => (await e.setNonce(p.address(a, "address"), p.looseQuantity(n, "nonce")), true))
    .positional("hardhat_setCode", 2, async ([a, c]) => (await e.setCode(p.address(a, "address"), p.data(c, "code")), true))
    .positional("hardhat_setStorageAt", 3, async ([a, s, v]) => {
      const slot = p.slotBytes(p.looseQuantity(s, "slot"));
      await e.setStorageAt(p.address(a, "address"), slot, p.data(v, "value", 32));
      return true;
    })
    .positional("hardhat_setNextBlockBaseFeePerGas", 1, ([f]) => (e.setNextBlockBaseFee(p.looseQuantity(f, "baseFeePerGas")), true))
    .positional("hardhat_setCoinbase", 1, ([a]) => (e.setCoinbase(p.address(a, "address")), true))
    .positional("hardhat_setPrevRandao", 1, ([v]) => (e.setNextPrevRandao(p.data(v, "prevRandao", 32)), true))
    .positional("hardhat_reset", [0, 1], async ([options]) => {
      const forking = (options as { forking?: unknown } | undefined)?.forking;
      if (forking !== undefined && forking !== null) {
        throw invalidParams("hardhat_reset: forking is not supported by the nativekit simulator; call it without options to start from a fresh genesis");
      }
      await e.reset();
      return true;
    })
    .positional("hardhat_dropTransaction", 1, ([h]) => e.dropPendingTransaction(p.hash(h, "transactionHash")))
    .positional("hardhat_metadata", 0, () => ({
      clientVersion: CLIENT_VERSION,
      chainId: e.options.chainId,
      instanceId: instanceId(e),
      latestBlockNumber: Number(e.chain.height),
      latestBlockHash: e.head.hash,
    }));
}

/** Hardhat's helpers tell one running network from another by this ID, one per engine. */
const instanceIds = new WeakMap<Engine, string>();
function instanceId(engine: Engine): string {
  let id = instanceIds.get(engine);
  if (id === undefined) {
    id = bytesToHex(keccak_256(new TextEncoder().encode(`${Date.now()}-${Math.random()}`)));
    instanceIds.set(engine, id);
  }
  return id;
}
