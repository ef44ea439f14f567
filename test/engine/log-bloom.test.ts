import { expect } from "chai";
import fc from "fast-check";
import { Bloom } from "@ethereumjs/vm";

import { bloomTestOf } from "../../src/engine/log-bloom";
import { loadKeccak } from "../../src/engine/keccak";
import type { LogFilter } from "../../src/engine/types";

const address = fc.uint8Array({ minLength: 20, maxLength: 20 });
const topic = fc.uint8Array({ minLength: 32, maxLength: 32 });
const log = fc.record({ address, topics: fc.array(topic, { maxLength: 4 }) });

/** The bloom of a block holding `logs`, as ethereumjs writes it into headers. */
function bloomOf(logs: readonly { address: Uint8Array; topics: readonly Uint8Array[] }[]): Uint8Array {
  const bloom = new Bloom();
  for (const l of logs) {
    bloom.add(l.address);
    for (const t of l.topics) bloom.add(t);
  }
  return bloom.bitvector;
}

const filter = (addresses: Uint8Array[], topics: (Uint8Array[] | undefined)[] = []): LogFilter => ({ fromBlock: 0n, toBlock: 0n, addresses, topics });

describe("engine: a logs query's test of a block's bloom", () => {
  before(() => loadKeccak());

  it("never rules out a block that holds a log the query matches", () => {
    fc.assert(
      fc.property(fc.array(log, { minLength: 1, maxLength: 5 }), fc.nat(4), fc.array(address, { maxLength: 2 }), (logs, which, otherAddresses) => {
        const wanted = logs[which % logs.length]!;
        const topics = wanted.topics.map((t, i) => (i % 2 === 0 ? [t] : undefined));
        const test = bloomTestOf(filter([...otherAddresses, wanted.address], topics))!;
        expect(test(bloomOf(logs))).to.equal(true);
      }),
    );
  });

  it("rules out a block whose logs have none of the query's addresses (but for the bloom's rare false positives)", () => {
    let ruledOut = 0;
    fc.assert(
      fc.property(fc.array(log, { maxLength: 3 }), address, (logs, absent) => {
        fc.pre(logs.every((l) => Buffer.compare(Buffer.from(l.address), Buffer.from(absent)) !== 0));
        if (!bloomTestOf(filter([absent]))!(bloomOf(logs))) ruledOut++;
      }),
      { numRuns: 200 },
    );
    expect(ruledOut).to.be.above(190);
  });

  it("needs a match at every topic position the query names", () => {
    const [a, t1, t2] = [new Uint8Array(20).fill(1), new Uint8Array(32).fill(2), new Uint8Array(32).fill(3)];
    const bloom = bloomOf([{ address: a, topics: [t1] }]);
    expect(bloomTestOf(filter([a], [[t1]]))!(bloom)).to.equal(true);
    expect(bloomTestOf(filter([a], [[t1], [t2]]))!(bloom)).to.equal(false);
    expect(bloomTestOf(filter([], [[t2, t1]]))!(bloom)).to.equal(true);
  });

  it("is no test at all for a query naming no address and no topic", () => {
    expect(bloomTestOf(filter([], [undefined, []]))).to.equal(undefined);
  });
});
