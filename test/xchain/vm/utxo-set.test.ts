import { expect } from "chai";

import { storeUtxo, UtxoSet } from "../../../src/utxo/utxo-set";
import { atomicUtxo } from "./helpers";

const ASSET = new Uint8Array(32).fill(1);
const ALICE = new Uint8Array(20).fill(0xa1);
const BOB = new Uint8Array(20).fill(0xb0);
const utxo = (n: number, owner: Uint8Array) => storeUtxo(atomicUtxo(new Uint8Array(32).fill(n), 0, ASSET, BigInt(n), owner));
const listing = (set: UtxoSet, owner: Uint8Array) => set.idsOf(owner, undefined, 100).map((id) => id.join(","));

describe("UtxoSet.capture: the set as it was, restored on demand", () => {
  it("restores removed and added UTXOs, each address's listing in its original order", () => {
    const set = new UtxoSet();
    for (const [n, owner] of [[1, ALICE], [2, BOB], [3, ALICE], [4, ALICE]] as const) set.add(utxo(n, owner));
    const aliceBefore = listing(set, ALICE);
    const restore = set.capture();

    set.remove(utxo(3, ALICE).inputId);
    set.add(utxo(5, ALICE));
    set.remove(utxo(2, BOB).inputId);
    restore();

    expect(listing(set, ALICE)).to.deep.equal(aliceBefore);
    expect(listing(set, BOB)).to.deep.equal([utxo(2, BOB).inputId.join(",")]);
    expect(set.has(utxo(5, ALICE).inputId)).to.equal(false);
    expect(set.size).to.equal(4);
  });

  it("can restore the same state more than once", () => {
    const set = new UtxoSet();
    set.add(utxo(1, ALICE));
    const restore = set.capture();
    for (let round = 0; round < 2; round++) {
      set.add(utxo(10 + round, ALICE));
      restore();
      expect(set.size).to.equal(1);
    }
  });
});
