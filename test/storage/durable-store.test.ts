import { expect } from "chai";
import { durableStore, MemoryBackend, type StoreBackend } from "../../src/storage";
import { rejection } from "../helpers/chain";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (value: Uint8Array | undefined): string | undefined => (value === undefined ? undefined : new TextDecoder().decode(value));

async function collect(entries: AsyncIterable<[string, Uint8Array]>): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for await (const [key, value] of entries) out.push([key, text(value)!]);
  return out;
}

describe("storage: the durable store's staging", () => {
  it("reaches the backend only at commit", async () => {
    const backend = new MemoryBackend();
    const store = durableStore(backend);
    store.put("a", bytes("1"));
    expect(backend.size).to.equal(0);
    await store.commit();
    expect(text(await backend.get("a"))).to.equal("1");
  });

  it("reads its own staged writes and deletions before they are committed", async () => {
    const backend = new MemoryBackend();
    await backend.write(new Map([["gone", bytes("x")]]));
    const store = durableStore(backend);
    store.put("a", bytes("1"));
    store.del("gone");
    expect(text(await store.get("a"))).to.equal("1");
    expect(await store.get("gone")).to.equal(undefined);
  });

  it("writes a namespace's keys under its prefix and commits every namespace together", async () => {
    const backend = new MemoryBackend();
    const store = durableStore(backend);
    store.namespace("c/").put("head", bytes("7"));
    store.namespace("x/").namespace("utxo/").put("u1", bytes("y"));
    await store.namespace("x/").commit();
    expect(await collect(backend.entries(""))).to.deep.equal([
      ["c/head", "7"],
      ["x/utxo/u1", "y"],
    ]);
  });

  it("lists a namespace's committed entries in key order without its prefix", async () => {
    const store = durableStore(new MemoryBackend());
    const blocks = store.namespace("c/block/");
    blocks.put("2", bytes("b"));
    blocks.put("1", bytes("a"));
    store.put("other", bytes("z"));
    await store.commit();
    expect(await collect(blocks.entries())).to.deep.equal([
      ["1", "a"],
      ["2", "b"],
    ]);
  });

  it("applies one commit's writes all together: a backend that fails leaves none of them", async () => {
    const failing: StoreBackend = Object.assign(new MemoryBackend(), {
      write: async () => {
        throw new Error("disk full");
      },
    });
    const store = durableStore(failing);
    store.put("a", bytes("1"));
    store.put("b", bytes("2"));
    expect((await rejection(store.commit())).message).to.equal("disk full");
    expect(await failing.get("a")).to.equal(undefined);
  });

  it("writes commits in the order they are called, and reads see a batch still being written", async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const memory = new MemoryBackend();
    const slow: StoreBackend = {
      get: (key) => memory.get(key),
      getSync: (key) => memory.getSync(key),
      entries: (prefix) => memory.entries(prefix),
      close: () => memory.close(),
      write: async (ops) => {
        if (ops.has("first")) await gate;
        order.push([...ops.keys()].join());
        await memory.write(ops);
      },
    };
    const store = durableStore(slow);
    store.put("first", bytes("1"));
    const first = store.commit();
    store.put("second", bytes("2"));
    const second = store.commit();
    expect(text(await store.get("first"))).to.equal("1");
    release();
    await Promise.all([first, second]);
    expect(order).to.deep.equal(["first", "second"]);
  });

  it("commits nothing when nothing is staged", async () => {
    const backend = new MemoryBackend();
    await durableStore(backend).commit();
    expect(backend.size).to.equal(0);
  });
});
