/**
 * Shared atomic memory as the reference node keeps it: one inbox per (destination, source)
 * chain pair; an export puts UTXOs into the destination's inbox indexed by their owners
 * (traits), an import removes them from its own inbox; one transaction's puts and removes are
 * checked first and applied whole. Lookups by owner page in (trait, key) order.
 */
import { expect } from "chai";
import { type AtomicElement, AtomicMemoryError, SharedMemory } from "../../src/atomic/shared-memory";
import { MemoryBackend, durableStore } from "../../src/storage";

const X = new Uint8Array(32).fill(0x0a);
const C = new Uint8Array(32).fill(0x0c);
const P = new Uint8Array(32);
const ALICE = new Uint8Array(20).fill(0xa1);
const BOB = new Uint8Array(20).fill(0xb0);
const CAROL = new Uint8Array(20).fill(0xc4);

const key = (n: number): Uint8Array => new Uint8Array(32).fill(n);
const keyHex = (n: number): string => `0x${n.toString(16).padStart(2, "0").repeat(32)}`;
const value = (n: number): Uint8Array => Uint8Array.of(n, n, n);
const element = (n: number, ...traits: Uint8Array[]): AtomicElement => ({ key: key(n), value: value(n), traits });

function refusal(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    expect(error, String(error)).to.be.instanceOf(AtomicMemoryError);
    return error as Error;
  }
  return expect.fail("expected an AtomicMemoryError");
}

/** X exported 1 (Alice), 2 (Alice and Bob), 3 and 4 (Bob) to C. */
function exportedToC(): SharedMemory {
  const memory = new SharedMemory();
  memory.apply(X, [[C, { put: [element(1, ALICE), element(2, ALICE, BOB), element(3, BOB), element(4, BOB)] }]]);
  return memory;
}

describe("atomic memory rules: inboxes", function () {
  it("an export from X to C lands in C's inbox from X only", function () {
    const memory = exportedToC();
    expect(memory.has(C, X, key(1))).to.equal(true);
    expect(memory.has(X, C, key(1))).to.equal(false);
    expect(memory.has(C, P, key(1))).to.equal(false);
    expect(memory.get(C, X, [key(2), key(1)])).to.deep.equal([value(2), value(1)]);
  });

  it("get refuses a key the inbox does not hold, naming it", function () {
    const memory = exportedToC();
    const error = refusal(() => memory.get(C, X, [key(1), key(9)]));
    expect(error.name).to.equal("AtomicMemoryError");
    expect(error.message).to.equal(`atomic UTXO ${keyHex(9)} not found: it was never exported to this chain or has already been imported`);
  });

  it("requests may be given as a map of peer chain to requests", function () {
    const memory = new SharedMemory();
    memory.apply(X, new Map([[C, { put: [element(1, ALICE)] }]]));
    expect(memory.get(C, X, [key(1)])).to.deep.equal([value(1)]);
    memory.apply(C, new Map([[X, { remove: [key(1)] }]]));
    expect(memory.has(C, X, key(1))).to.equal(false);
  });
});

describe("atomic memory rules: apply checks everything first", function () {
  it("removing an element that is not in the inbox is refused", function () {
    const memory = exportedToC();
    const error = refusal(() => memory.apply(C, [[X, { remove: [key(9)] }]]));
    expect(error.message).to.equal(`atomic UTXO ${keyHex(9)} is not available to import (already imported or never exported)`);
  });

  it("removing an element that was already removed (imported) is refused", function () {
    const memory = exportedToC();
    memory.apply(C, [[X, { remove: [key(1)] }]]);
    const error = refusal(() => memory.apply(C, [[X, { remove: [key(1)] }]]));
    expect(error.message).to.equal(`atomic UTXO ${keyHex(1)} is not available to import (already imported or never exported)`);
  });

  it("removing the same element twice in one request is refused, and nothing is removed", function () {
    const memory = exportedToC();
    const error = refusal(() => memory.apply(C, [[X, { remove: [key(1), key(1)] }]]));
    expect(error.message).to.equal(`atomic UTXO ${keyHex(1)} is not available to import (already imported or never exported)`);
    expect(memory.has(C, X, key(1))).to.equal(true);
  });

  it("putting an element whose key the destination already holds is refused", function () {
    const memory = exportedToC();
    const error = refusal(() => memory.apply(X, [[C, { put: [element(2, CAROL)] }]]));
    expect(error.message).to.equal(`atomic UTXO ${keyHex(2)} already exists in the destination chain`);
    expect(memory.indexed(C, X, [CAROL], undefined, undefined, 10).values).to.deep.equal([]);
  });

  it("one refused request leaves every request of the transaction unapplied", function () {
    const memory = exportedToC();
    const error = refusal(() =>
      memory.apply(C, [
        [P, { put: [element(7, ALICE)] }],
        [X, { remove: [key(1), key(9)] }],
      ]),
    );
    expect(error.message).to.contain(keyHex(9));
    expect(memory.has(P, C, key(7))).to.equal(false);
    expect(memory.has(C, X, key(1))).to.equal(true);
  });
});

describe("atomic memory rules: lookups by owner (trait) and pagination", function () {
  it("orders by trait then key, whatever order the traits are asked in, each element once", function () {
    const page = exportedToC().indexed(C, X, [BOB, ALICE, BOB], undefined, undefined, 100);
    expect(page.values).to.deep.equal([value(1), value(2), value(3), value(4)]);
    expect(page.lastTrait).to.deep.equal(BOB);
    expect(page.lastKey).to.deep.equal(key(4));
  });

  it("an element owned by several addresses is found by any one of them", function () {
    const memory = exportedToC();
    expect(memory.indexed(C, X, [ALICE], undefined, undefined, 100).values).to.deep.equal([value(1), value(2)]);
    expect(memory.indexed(C, X, [BOB], undefined, undefined, 100).values).to.deep.equal([value(2), value(3), value(4)]);
    expect(memory.indexed(C, X, [CAROL], undefined, undefined, 100)).to.deep.equal({ values: [], lastTrait: undefined, lastKey: undefined });
  });

  it("a full page ends at the last trait and key it returned", function () {
    const page = exportedToC().indexed(C, X, [ALICE, BOB], undefined, undefined, 2);
    expect(page).to.deep.equal({ values: [value(1), value(2)], lastTrait: ALICE, lastKey: key(2) });
  });

  it("the next page starts after (start trait, start key): later keys of that trait, then every key of later traits", function () {
    const page = exportedToC().indexed(C, X, [ALICE, BOB], ALICE, key(2), 2);
    // element 2 comes again under Bob: the start key only applies within the start trait
    expect(page).to.deep.equal({ values: [value(2), value(3)], lastTrait: BOB, lastKey: key(3) });
  });

  it("the last trait of a page is the trait the element was found by, not its first owner", function () {
    const page = exportedToC().indexed(C, X, [ALICE, BOB], ALICE, key(2), 1);
    expect(page).to.deep.equal({ values: [value(2)], lastTrait: BOB, lastKey: key(2) });
  });

  it("traits before the start trait are skipped", function () {
    const page = exportedToC().indexed(C, X, [ALICE, BOB], BOB, key(3), 100);
    expect(page).to.deep.equal({ values: [value(4)], lastTrait: BOB, lastKey: key(4) });
  });

  it("a start trait without a start key starts at that trait's first key", function () {
    const page = exportedToC().indexed(C, X, [ALICE, BOB], BOB, undefined, 100);
    expect(page.values).to.deep.equal([value(2), value(3), value(4)]);
  });

  it("a page after the last element is empty and has no last trait or key", function () {
    const page = exportedToC().indexed(C, X, [ALICE, BOB], BOB, key(4), 100);
    expect(page).to.deep.equal({ values: [], lastTrait: undefined, lastKey: undefined });
  });
});

describe("atomic memory rules: capture and restore", function () {
  it("restores a memory without a store to the captured elements, as often as it is called", function () {
    const memory = exportedToC();
    const restore = memory.capture();
    memory.apply(C, [[X, { remove: [key(1)] }]]);
    memory.apply(X, [[C, { put: [element(5, CAROL)] }]]);
    restore();
    expect(memory.has(C, X, key(1))).to.equal(true);
    expect(memory.has(C, X, key(5))).to.equal(false);
    memory.apply(C, [[X, { remove: [key(2)] }]]);
    restore();
    expect(memory.indexed(C, X, [ALICE, BOB, CAROL], undefined, undefined, 100).values).to.deep.equal([value(1), value(2), value(3), value(4)]);
  });

  it("changes after a capture do not leak into the captured state", function () {
    const memory = new SharedMemory();
    const restore = memory.capture();
    memory.apply(X, [[C, { put: [element(1, ALICE)] }]]);
    restore();
    expect(memory.has(C, X, key(1))).to.equal(false);
  });

  it("a memory created over a store stages its changes there for the next commit", async function () {
    const store = durableStore(new MemoryBackend()).namespace("atomic/");
    const memory = new SharedMemory({ store });
    memory.apply(X, [[C, { put: [element(1, ALICE), element(2, BOB)] }]]);
    memory.apply(C, [[X, { remove: [key(2)] }]]);
    await store.commit();
    const reopened = await SharedMemory.open(store);
    expect(reopened.indexed(C, X, [ALICE, BOB], undefined, undefined, 100).values).to.deep.equal([value(1)]);
    expect(reopened.has(C, X, key(2))).to.equal(false);
  });
});
