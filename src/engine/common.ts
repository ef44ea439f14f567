/**
 * The rule set the engine runs under (ethereumjs' `Common`): made once per engine with the
 * faster cryptography, and with two lookups ethereumjs repeats on every transaction and opcode
 * made cheap. Also the header fields that follow from the rules alone.
 */
import { createCustomCommon, Mainnet, type Common } from "@ethereumjs/common";
import { paramsBlock, type BlockHeader } from "@ethereumjs/block";
import { paramsEVM } from "@ethereumjs/evm";
import { paramsTx } from "@ethereumjs/tx";
import { paramsVM } from "@ethereumjs/vm";
import { ecrecover, ecsign } from "./ecdsa";
import { keccak256 } from "./keccak";
import type { Hardfork } from "./options";

export const ZERO32 = new Uint8Array(32);

/** The contract chain's rules: mainnet's at `hardfork`, with its own chain ID. */
export function engineCommon(chainId: number, hardfork: Hardfork): Common {
  return withCheapLookups(
    createCustomCommon({ name: "nativekit", chainId }, Mainnet, {
      hardfork,
      // Signing, sender recovery, ECRECOVER and every Keccak-256 (tries, transactions,
      // headers, the KECCAK256 opcode) go through these faster implementations.
      customCrypto: { ecsign, ecrecover, keccak256 },
    }),
  );
}

/**
 * The options of a block the engine makes from fields it sets itself (a block it mines, the
 * block a call or a trace runs in). ethereumjs' consensus-format checks are skipped: every field
 * they check is one the engine fills the same way (difficulty 0, no extra data, a zero nonce,
 * the empty uncle hash), and they cost about as much as the rest of making the header.
 */
export function engineBlockOptions(common: Common): { common: Common; setHardfork: false; skipConsensusFormatValidation: true } {
  return { common, setHardfork: false, skipConsensusFormatValidation: true };
}

/** Header fields that exist only from Cancun on (the contract chain has no blobs or beacon roots). */
export function cancunHeaderFields(common: Common): { excessBlobGas?: bigint; parentBeaconBlockRoot?: Uint8Array } {
  return {
    ...(common.isActivatedEIP(4844) ? { excessBlobGas: 0n } : {}),
    ...(common.isActivatedEIP(4788) ? { parentBeaconBlockRoot: ZERO32 } : {}),
  };
}

/**
 * The excess blob gas of the block after `parent`: none when the parent had neither excess nor
 * blobs, which on this chain (it carries no blobs) is every block. ethereumjs' own
 * `calcNextExcessBlobGas` comes to the same zero by way of the hardfork's blob schedule, which it
 * looks up again for each block (about 2 ms of the 86 blocks of a cold Hardhat 3 test run).
 */
export function nextExcessBlobGas(parent: BlockHeader, common: Common): bigint {
  if ((parent.excessBlobGas ?? 0n) === 0n && (parent.blobGasUsed ?? 0n) === 0n) return 0n;
  return parent.calcNextExcessBlobGas(common);
}

/**
 * Lookups ethereumjs repeats on its Common, made cheap on our own instance.
 *
 * ethereumjs merges its parameter tables into the Common again for every transaction and block
 * header it constructs (a deep JSON copy each time); they never change here, so merge them once
 * and make later merges of the same tables free. The override is an own property without
 * binding, so the shallow copies block headers make of the Common keep it and act on themselves.
 */
export function withCheapLookups(common: Common): Common {
  const tables = [paramsTx, paramsBlock, paramsEVM, paramsVM];
  for (const params of tables) common.updateParams(params);
  const merged = new Set<object>(tables);
  const original = Object.getPrototypeOf(common).updateParams as Common["updateParams"];
  common.updateParams = function (this: Common, params) {
    if (!merged.has(params)) original.call(this, params);
  };
  // The interpreter asks isActivatedEIP several times per opcode, and ethereumjs answers with
  // a linear search of the active EIP list; a set per list answers the same in constant time.
  // The list is replaced (never changed in place) when the hardfork or EIPs change.
  const setOf = new WeakMap<readonly number[], Set<number>>();
  let lastList: readonly number[] | undefined;
  let lastSet = new Set<number>();
  const originalIsActivated = Object.getPrototypeOf(common).isActivatedEIP as Common["isActivatedEIP"];
  common.isActivatedEIP = function (this: Common, eip: number): boolean {
    const list = (this as unknown as { _activatedEIPsCache?: readonly number[] })._activatedEIPsCache;
    // Should a later ethereumjs keep the list elsewhere, ask it the slow way rather than guess.
    if (!Array.isArray(list)) return originalIsActivated.call(this, eip);
    if (list !== lastList) {
      let set = setOf.get(list);
      if (set === undefined) {
        set = new Set(list);
        setOf.set(list, set);
      }
      lastList = list;
      lastSet = set;
    }
    return lastSet.has(eip);
  };
  withCheapHardforkOrder(common);
  return common;
}

/**
 * The interpreter and the gas rules ask whether the hardfork is at or after another (`gteHardfork`)
 * for many opcodes, and ethereumjs answers with a walk of the hardfork list each time; the
 * positions are kept per list (the list is the chain's, shared by every copy of the Common), and
 * looked up. A name listed twice counts at its last place, as ethereumjs counts it.
 */
function withCheapHardforkOrder(common: Common): void {
  const positionsOf = new WeakMap<readonly object[], Map<string, number>>();
  const positions = (hardforks: readonly { name: string }[]): Map<string, number> => {
    let known = positionsOf.get(hardforks);
    if (known === undefined) {
      known = new Map(hardforks.map((hardfork, index) => [hardfork.name, index]));
      positionsOf.set(hardforks, known);
    }
    return known;
  };
  common.hardforkGteHardfork = function (this: Common, first: string | null, second: string): boolean {
    const order = positions(this.hardforks());
    const at = order.get(first ?? this.hardfork()) ?? -1;
    const other = order.get(second);
    return other !== undefined && at >= other;
  };
}
