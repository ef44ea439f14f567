import { expect } from "chai";

import { AddressTxIndex } from "../../../src/xchain/vm/address-index";
import { atomicUtxo } from "./helpers";

const GOLD = new Uint8Array(32).fill(1);
const SILVER = new Uint8Array(32).fill(2);
const ALICE = new Uint8Array(20).fill(0xa1);
const BOB = new Uint8Array(20).fill(0xb0);
const tx = (n: number) => new Uint8Array(32).fill(n);
const utxo = (asset: Uint8Array, owner: Uint8Array) => atomicUtxo(tx(99), 0, asset, 1n, owner);
const ids = (list: Uint8Array[]) => list.map((id) => id[0]);

describe("AddressTxIndex: the transactions of an address and asset", () => {
  it("records a transaction once per (owner, asset) of its UTXOs, in acceptance order, paged by cursor", () => {
    const index = new AddressTxIndex();
    index.add(tx(1), [utxo(GOLD, ALICE), utxo(GOLD, ALICE), utxo(SILVER, BOB)]);
    index.add(tx(2), [utxo(GOLD, ALICE), utxo(GOLD, BOB)]);
    index.add(tx(3), [utxo(SILVER, ALICE)]);
    expect(ids(index.page(ALICE, GOLD, 0n, 10))).to.deep.equal([1, 2]);
    expect(ids(index.page(ALICE, GOLD, 1n, 10))).to.deep.equal([2]);
    expect(ids(index.page(ALICE, GOLD, 0n, 1))).to.deep.equal([1]);
    expect(ids(index.page(ALICE, GOLD, 5n, 10))).to.deep.equal([]);
    expect(ids(index.page(BOB, GOLD, 0n, 10))).to.deep.equal([2]);
    expect(ids(index.page(ALICE, SILVER, 0n, 10))).to.deep.equal([3]);
  });

  it("capture restores the index as it was, as often as it is called", () => {
    const index = new AddressTxIndex();
    index.add(tx(1), [utxo(GOLD, ALICE)]);
    const restore = index.capture();
    index.add(tx(2), [utxo(GOLD, ALICE), utxo(GOLD, BOB)]);
    restore();
    expect(ids(index.page(ALICE, GOLD, 0n, 10))).to.deep.equal([1]);
    expect(ids(index.page(BOB, GOLD, 0n, 10))).to.deep.equal([]);
    index.add(tx(3), [utxo(GOLD, ALICE)]);
    restore();
    expect(ids(index.page(ALICE, GOLD, 0n, 10))).to.deep.equal([1]);
  });
});
