import { expect } from "chai";
import { type AtomicElement, SharedMemory } from "../../src/atomic/shared-memory";
import { DamagedRecordError } from "../../src/storage/record-codec";
import { STORE_KINDS, type TestStore } from "../helpers/stores";

const X = new Uint8Array(32).fill(0x0a);
const C = new Uint8Array(32).fill(0x0c);
const ALICE = new Uint8Array(20).fill(0xa1);
const BOB = new Uint8Array(20).fill(0xb0);

const element = (n: number, ...traits: Uint8Array[]): AtomicElement => ({ key: new Uint8Array(32).fill(n), value: Uint8Array.of(n, n, n), traits });

/** Everything the memory answers for these chains and owners, both ways. */
function view(memory: SharedMemory): unknown {
  const page = (chain: Uint8Array, peer: Uint8Array) => memory.indexed(chain, peer, [ALICE, BOB], undefined, undefined, 100);
  return { toC: page(C, X), toX: page(X, C), has: [1, 2, 3, 4].map((n) => memory.has(C, X, new Uint8Array(32).fill(n))) };
}

for (const kind of STORE_KINDS) {
  describe(`atomic memory: persistence (${kind.name})`, () => {
    let t: TestStore;
    beforeEach(async () => (t = await kind.create()));
    afterEach(() => t.close());

    const reopened = async (): Promise<SharedMemory> => SharedMemory.open((await t.reopen()).namespace("atomic/"));

    it("keeps every inbox's elements (values and owners) across a restart, and only stages: the acceptance commits", async () => {
      const memory = await SharedMemory.open(t.store.namespace("atomic/"));
      memory.apply(X, [[C, { put: [element(1, ALICE), element(2, ALICE, BOB), element(3, BOB)] }]]);
      memory.apply(C, [[X, { put: [element(9, BOB)] }]]);
      memory.apply(C, [[X, { remove: [element(1).key] }]]);
      expect(view(await SharedMemory.open(t.store.namespace("atomic/")))).to.deep.equal(view(new SharedMemory())); // nothing committed yet
      await t.store.commit();
      expect(view(await reopened())).to.deep.equal(view(memory));
      expect((await reopened()).get(C, X, [element(2).key])).to.deep.equal([element(2).value]);
    });

    it("after a restore, stages the way back to the captured elements", async () => {
      const memory = await SharedMemory.open(t.store.namespace("atomic/"));
      memory.apply(X, [[C, { put: [element(1, ALICE), element(2, BOB)] }]]);
      await t.store.commit();
      const restore = memory.capture();
      const captured = view(memory);
      memory.apply(C, [[X, { remove: [element(1).key] }]]);
      memory.apply(X, [[C, { put: [element(3, ALICE)] }]]);
      await t.store.commit();
      restore();
      await t.store.commit();
      expect(view(memory)).to.deep.equal(captured);
      expect(view(await reopened())).to.deep.equal(captured);
    });

    it("refuses a damaged element, naming its key", async () => {
      const memory = await SharedMemory.open(t.store.namespace("atomic/"));
      memory.apply(X, [[C, { put: [element(1, ALICE)] }]]);
      const key = `${"0c".repeat(32)}/${"0a".repeat(32)}/${"01".repeat(32)}`;
      t.store.namespace("atomic/").put(key, new TextEncoder().encode('{"value":"0101","traits":"a1"}'));
      await t.store.commit();
      const error = await reopened().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(DamagedRecordError);
      expect((error as Error).message).to.equal(`the stored record "${key}" is damaged: field traits must be a list of hex strings`);
    });
  });
}
