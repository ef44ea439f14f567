import { expect } from "chai";

import { GenerationalMemo } from "../../src/engine/generational-memo";

describe("GenerationalMemo: a bounded memo in two generations", () => {
  it("finds an object key by the same object, not by equal contents", () => {
    const memo = new GenerationalMemo<Uint8Array, string>(4);
    const key = Uint8Array.of(1, 2, 3);
    memo.set(key, "a");
    expect(memo.get(key)).to.equal("a");
    expect(memo.get(Uint8Array.of(1, 2, 3))).to.equal(undefined);
  });

  it("keeps an entry that is read within each generation", () => {
    const memo = new GenerationalMemo<object, number>(2);
    const hot = {};
    memo.set(hot, 1);
    for (let i = 0; i < 20; i++) {
      memo.set({}, i);
      expect(memo.get(hot)).to.equal(1);
    }
  });

  it("forgets an entry left unread for two generations", () => {
    const memo = new GenerationalMemo<object, number>(2);
    const cold = {};
    memo.set(cold, 1);
    memo.set({}, 2);
    memo.set({}, 3);
    expect(memo.get(cold)).to.equal(1);
    for (let i = 0; i < 4; i++) memo.set({}, i);
    expect(memo.get(cold)).to.equal(undefined);
  });

  it("with a weight, fills a generation by the entries' summed weight", () => {
    const memo = new GenerationalMemo<string, number>(10, (key) => key.length);
    memo.set("aaaaaa", 1);
    memo.set("bbbbbb", 2); // 12 > 10: "aaaaaa" goes to the old generation
    memo.set("cccccc", 3); // "bbbbbb" to the old one, "aaaaaa" dropped
    expect(memo.get("aaaaaa")).to.equal(undefined);
    expect(memo.get("bbbbbb")).to.equal(2);
  });

  it("takes an entry heavier than a whole generation, alone", () => {
    const memo = new GenerationalMemo<string, number>(4, (key) => key.length);
    memo.set("a-long-key", 1);
    expect(memo.get("a-long-key")).to.equal(1);
    memo.set("b", 2);
    expect(memo.get("a-long-key")).to.equal(1);
  });

  it("rejects a generation limit that is not a positive integer", () => {
    for (const limit of [0, -1, 1.5, Number.NaN]) expect(() => new GenerationalMemo(limit)).to.throw(RangeError);
  });
});
