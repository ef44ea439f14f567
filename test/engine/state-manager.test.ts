import { expect } from "chai";
import { Caches } from "@ethereumjs/statemanager";
import { Account, createAddressFromString } from "@ethereumjs/util";

import { NativeStateManager } from "../../src/engine/state-manager";

const ALICE = createAddressFromString("0x00000000000000000000000000000000000a11ce");
const newState = () => new NativeStateManager({ caches: new Caches() });

describe("NativeStateManager: accounts read from the cache", () => {
  it("hands out a fresh copy on every read, so a caller's edit changes nothing until it is put", async () => {
    const state = newState();
    await state.putAccount(ALICE, new Account(1n, 100n));
    const first = (await state.getAccount(ALICE))!;
    first.balance = 5n;
    first.nonce = 9n;
    const second = (await state.getAccount(ALICE))!;
    expect(second).to.not.equal(first);
    expect([second.nonce, second.balance]).to.deep.equal([1n, 100n]);
  });

  it("returns the account last put, field for field", async () => {
    const state = newState();
    await state.putAccount(ALICE, new Account(1n, 100n));
    await state.getAccount(ALICE);
    const updated = new Account(2n, 50n);
    await state.putAccount(ALICE, updated);
    const read = (await state.getAccount(ALICE))!;
    expect(read.serialize()).to.deep.equal(updated.serialize());
  });

  it("returns undefined for a deleted account, and for one never written", async () => {
    const state = newState();
    await state.putAccount(ALICE, new Account(1n, 100n));
    await state.deleteAccount(ALICE);
    expect(await state.getAccount(ALICE)).to.equal(undefined);
    expect(await state.getAccount(createAddressFromString("0x000000000000000000000000000000000000b0b0"))).to.equal(undefined);
  });

  it("follows checkpoints: a reverted write reads as the account before it", async () => {
    const state = newState();
    await state.putAccount(ALICE, new Account(1n, 100n));
    await state.checkpoint();
    await state.putAccount(ALICE, new Account(2n, 1n));
    expect((await state.getAccount(ALICE))!.balance).to.equal(1n);
    await state.revert();
    expect((await state.getAccount(ALICE))!.balance).to.equal(100n);
  });
});
