import { expect } from "chai";
import fc from "fast-check";
import { balanceKey, MultiCoinState } from "../../src/engine/multicoin";

// The multi-coin state's own rules, below the JSON-RPC surface: the journal that makes balances
// revert with their call frame, the flag that keeps an account holding only assets from being
// removed as empty, self-destruct, the fork's base, and the snapshots blocks keep.

const ALICE = "a1".repeat(20);
const BOB = "b0".repeat(20);
const ASSET_1 = "11".repeat(32);
const ASSET_2 = "22".repeat(32);

/** What the state should hold: a plain map of balances and a set of flagged accounts. */
interface Model {
  balances: Map<string, bigint>;
  flagged: Set<string>;
}

type Operation =
  | { kind: "set"; address: string; asset: string; amount: bigint }
  | { kind: "destroy"; address: string }
  | { kind: "checkpoint" }
  | { kind: "commit" }
  | { kind: "revert" };

const addresses = fc.constantFrom(ALICE, BOB);
const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ kind: fc.constant("set" as const), address: addresses, asset: fc.constantFrom(ASSET_1, ASSET_2), amount: fc.bigInt({ min: 0n, max: 5n }) }),
  fc.record({ kind: fc.constant("destroy" as const), address: addresses }),
  fc.constant({ kind: "checkpoint" as const }),
  fc.constant({ kind: "commit" as const }),
  fc.constant({ kind: "revert" as const }),
);

function copy(model: Model): Model {
  return { balances: new Map(model.balances), flagged: new Set(model.flagged) };
}

/** Runs the operations on the state and on the model (a stack of copies for the checkpoints). */
function runBoth(operations: Operation[]): { state: MultiCoinState; model: Model } {
  const state = new MultiCoinState();
  let model: Model = { balances: new Map(), flagged: new Set() };
  const saved: Model[] = [];
  for (const op of operations) {
    if (op.kind === "checkpoint") {
      state.checkpoint();
      saved.push(copy(model));
    } else if (op.kind === "commit") {
      if (saved.length === 0) continue;
      state.commit();
      saved.pop();
    } else if (op.kind === "revert") {
      if (saved.length === 0) continue;
      state.revert();
      model = saved.pop()!;
    } else if (op.kind === "set") {
      state.setBalance(op.address, op.asset, op.amount);
      const key = balanceKey(op.address, op.asset);
      if (op.amount === 0n) model.balances.delete(key);
      else model.balances.set(key, op.amount);
      model.flagged.add(op.address);
    } else {
      state.destroy(op.address);
      for (const key of [...model.balances.keys()]) if (key.startsWith(op.address)) model.balances.delete(key);
      model.flagged.delete(op.address);
    }
  }
  return { state, model };
}

function expectSame(state: MultiCoinState, model: Model): void {
  for (const address of [ALICE, BOB]) {
    for (const asset of [ASSET_1, ASSET_2]) expect(state.getBalance(address, asset), `${address} ${asset}`).to.equal(model.balances.get(balanceKey(address, asset)) ?? 0n);
    expect(state.isFlagged(address), `${address} flagged`).to.equal(model.flagged.has(address));
    const expected = new Map([...model.balances].filter(([key]) => key.startsWith(address)).map(([key, value]) => [key.slice(40), value]));
    expect(state.balancesOf(address)).to.deep.equal(expected);
  }
  expect(state.anyFlagged).to.equal(model.flagged.size > 0);
  const snapshot = state.snapshot();
  expect(new Map(snapshot.balances)).to.deep.equal(model.balances);
  expect(new Set(snapshot.flagged)).to.deep.equal(model.flagged);
}

describe("multi-coin state: the journal, flags and snapshots", () => {
  it("holds what a plain map would after any sequence of sets, destroys, checkpoints, commits and reverts", () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 40 }), (operations) => {
        const { state, model } = runBoth(operations);
        expectSame(state, model);
      }),
      { numRuns: 300 },
    );
  });

  it("undoes a committed inner frame when the outer one reverts", () => {
    const state = new MultiCoinState();
    state.setBalance(ALICE, ASSET_1, 7n);
    state.checkpoint();
    state.checkpoint();
    state.setBalance(ALICE, ASSET_1, 3n);
    state.setBalance(BOB, ASSET_1, 4n);
    state.commit();
    expect(state.checkpointDepth).to.equal(1);
    state.revert();
    expect(state.getBalance(ALICE, ASSET_1)).to.equal(7n);
    expect(state.getBalance(BOB, ASSET_1)).to.equal(0n);
    expect(state.isFlagged(BOB)).to.equal(false);
    expect(state.checkpointDepth).to.equal(0);
  });

  it("flags an account on a zero balance too, and keeps the flag once set", () => {
    const state = new MultiCoinState();
    expect(state.anyFlagged).to.equal(false);
    state.setBalance(ALICE, ASSET_1, 0n);
    expect(state.isFlagged(ALICE)).to.equal(true);
    expect(state.anyFlagged).to.equal(true);
    state.setBalance(ALICE, ASSET_1, 5n);
    state.setBalance(ALICE, ASSET_1, 0n);
    expect(state.isFlagged(ALICE)).to.equal(true);
    expect(state.balancesOf(ALICE).size).to.equal(0);
  });

  it("keeps the flag an account had before a checkpoint when a change inside it is reverted", () => {
    const state = new MultiCoinState();
    state.setBalance(ALICE, ASSET_1, 1n);
    state.checkpoint();
    state.setBalance(ALICE, ASSET_1, 2n);
    state.revert();
    expect(state.isFlagged(ALICE)).to.equal(true);
    expect(state.getBalance(ALICE, ASSET_1)).to.equal(1n);
  });

  it("refuses a negative balance and changes nothing", () => {
    const state = new MultiCoinState();
    expect(() => state.setBalance(ALICE, ASSET_1, -1n)).to.throw(RangeError, "multi-coin balance cannot be negative (got -1)");
    expect(state.isFlagged(ALICE)).to.equal(false);
  });

  it("refuses a commit or a revert without a checkpoint", () => {
    const state = new MultiCoinState();
    expect(() => state.commit()).to.throw("multi-coin commit without a checkpoint");
    expect(() => state.revert()).to.throw("multi-coin revert without a checkpoint");
  });

  it("destroys one account's balances and flag only, and a revert brings them back", () => {
    const state = new MultiCoinState();
    state.setBalance(ALICE, ASSET_1, 1n);
    state.setBalance(ALICE, ASSET_2, 2n);
    state.setBalance(BOB, ASSET_1, 3n);
    state.checkpoint();
    state.destroy(ALICE);
    expect(state.balancesOf(ALICE).size).to.equal(0);
    expect(state.isFlagged(ALICE)).to.equal(false);
    expect(state.getBalance(BOB, ASSET_1)).to.equal(3n);
    state.revert();
    expect(state.getBalance(ALICE, ASSET_2)).to.equal(2n);
    expect(state.isFlagged(ALICE)).to.equal(true);
  });

  it("reads a balance never set here from the base, and keeps a zero set here over the base's", () => {
    const remote = new Map([[balanceKey(ALICE, ASSET_1), 9n]]);
    const state = new MultiCoinState(undefined, (key) => remote.get(key));
    expect(state.getBalance(ALICE, ASSET_1)).to.equal(9n);
    state.setBalance(ALICE, ASSET_1, 0n);
    expect(state.getBalance(ALICE, ASSET_1)).to.equal(0n);
    expect(state.snapshot().balances.get(balanceKey(ALICE, ASSET_1))).to.equal(0n);
    expect(state.balancesOf(ALICE).size, "an explicit zero is no holding").to.equal(0);
    expect(state.balanceIn({ balances: new Map() }, ALICE, ASSET_1)).to.equal(9n);
    expect(state.balanceIn(state.snapshot(), ALICE, ASSET_1)).to.equal(0n);
  });

  it("hands out the same snapshot while nothing changes, and a new one after a change or a revert of one", () => {
    const state = new MultiCoinState();
    state.setBalance(ALICE, ASSET_1, 1n);
    const first = state.snapshot();
    expect(state.snapshot()).to.equal(first);
    state.checkpoint();
    state.revert(); // nothing to undo: the snapshot still holds
    expect(state.snapshot()).to.equal(first);
    state.checkpoint();
    state.setBalance(ALICE, ASSET_1, 2n);
    const second = state.snapshot();
    expect(second).to.not.equal(first);
    state.revert();
    const third = state.snapshot();
    expect(third).to.not.equal(second);
    expect(third.balances.get(balanceKey(ALICE, ASSET_1))).to.equal(1n);
    expect(first.balances.get(balanceKey(ALICE, ASSET_1)), "a snapshot is a copy").to.equal(1n);
  });

  it("starts from a snapshot, and restores one outside any checkpoint only", () => {
    const state = new MultiCoinState();
    state.setBalance(ALICE, ASSET_1, 4n);
    const kept = state.snapshot();
    const copyOf = new MultiCoinState(kept);
    expect(copyOf.getBalance(ALICE, ASSET_1)).to.equal(4n);
    expect(copyOf.isFlagged(ALICE)).to.equal(true);
    expect(copyOf.snapshot()).to.equal(kept);
    state.setBalance(ALICE, ASSET_1, 8n);
    state.checkpoint();
    expect(() => state.restore(kept)).to.throw("cannot restore multi-coin state inside a checkpoint");
    state.commit();
    state.restore(kept);
    expect(state.getBalance(ALICE, ASSET_1)).to.equal(4n);
    expect(state.snapshot()).to.equal(kept);
  });
});
