import { bytesToHex } from "../../encoding";
import type { Utxo } from "../../utxo/codec";
import { ownersOf } from "../../utxo/utxo-set";

const hex = (bytes: Uint8Array): string => bytesToHex(bytes).slice(2);

/**
 * The (owner address, asset) pairs (hex) a transaction is indexed under: each of the UTXOs it
 * consumed or produced gives its owners with its asset, each pair once, in the order first met.
 */
export function addressAssetPairs(utxos: readonly Utxo[]): [string, string][] {
  const changes = new Map<string, Set<string>>();
  for (const utxo of utxos) {
    for (const address of ownersOf(utxo.output)) {
      const key = hex(address);
      let assets = changes.get(key);
      if (assets === undefined) changes.set(key, (assets = new Set()));
      assets.add(hex(utxo.assetId));
    }
  }
  return [...changes].flatMap(([address, assets]) => [...assets].map((asset): [string, string] => [address, asset]));
}

/**
 * The node's address-transactions index (what getAddressTxs pages) of a chain without a store:
 * for each (address, asset), the IDs of the accepted transactions that consumed or produced a
 * UTXO of that asset naming that address, in acceptance order. (A chain kept in a store keeps
 * it there: persistence.ts.)
 */
export class AddressTxIndex {
  /** address hex -> asset hex -> tx IDs in acceptance order */
  private byAddress = new Map<string, Map<string, Uint8Array[]>>();

  /**
   * Records an accepted transaction: each (owner address, asset) of the UTXOs it consumed or
   * produced gets it once. Returns those pairs (hex).
   */
  add(txId: Uint8Array, utxos: readonly Utxo[]): [string, string][] {
    const pairs = addressAssetPairs(utxos);
    for (const [address, asset] of pairs) {
      let byAsset = this.byAddress.get(address);
      if (byAsset === undefined) this.byAddress.set(address, (byAsset = new Map()));
      const list = byAsset.get(asset) ?? [];
      list.push(txId);
      byAsset.set(asset, list);
    }
    return pairs;
  }

  /** The transactions of (`address`, `assetId`) from position `cursor`, at most `pageSize`. */
  page(address: Uint8Array, assetId: Uint8Array, cursor: bigint, pageSize: number): Uint8Array[] {
    const list = this.byAddress.get(hex(address))?.get(hex(assetId)) ?? [];
    if (cursor >= BigInt(list.length)) return [];
    const start = Number(cursor);
    return list.slice(start, start + pageSize);
  }

  /** The index as it is now: the returned function puts it back, as often as it is called. */
  capture(): () => void {
    const saved = copy(this.byAddress);
    return () => {
      this.byAddress = copy(saved);
    };
  }
}

/** The per-address lists grow in place, so they are copied down to the lists. */
function copy(byAddress: Map<string, Map<string, Uint8Array[]>>): Map<string, Map<string, Uint8Array[]>> {
  return new Map([...byAddress].map(([address, byAsset]) => [address, new Map([...byAsset].map(([asset, ids]) => [asset, [...ids]]))]));
}
