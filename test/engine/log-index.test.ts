import { expect } from "chai";
import fc from "fast-check";

import { type IndexedBlock, LogIndex } from "../../src/engine/log-index";
import type { LogFilter } from "../../src/engine/types";

// Few distinct values, so that queries hit.
const address = fc.integer({ min: 1, max: 4 }).map((n) => new Uint8Array(20).fill(n));
const topic = fc.integer({ min: 1, max: 6 }).map((n) => new Uint8Array(32).fill(n));
const log = fc.record({ address, topics: fc.array(topic, { maxLength: 3 }) });
const blockLogs = fc.array(fc.array(log, { maxLength: 3 }), { minLength: 1, maxLength: 30 });
const query = fc.record({
  addresses: fc.array(address, { maxLength: 2 }),
  topics: fc.array(fc.option(fc.array(topic, { maxLength: 2 }), { nil: undefined }), { maxLength: 3 }),
  from: fc.nat(35),
  span: fc.nat(35),
});

const blocksOf = (logsPerBlock: { address: Uint8Array; topics: Uint8Array[] }[][]): IndexedBlock[] =>
  logsPerBlock.map((logs, n) => ({ number: BigInt(n), transactions: [{ receipt: { logs } }] }));

const equal = (a: Uint8Array, b: Uint8Array) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/** Whether a log matches the filter, by the filter's definition (the engine's logMatches). */
function matches(l: { address: Uint8Array; topics: Uint8Array[] }, f: LogFilter): boolean {
  if (f.addresses.length > 0 && !f.addresses.some((a) => equal(a, l.address))) return false;
  return f.topics.every((wanted, i) => wanted === undefined || wanted.length === 0 || (l.topics[i] !== undefined && wanted.some((t) => equal(t, l.topics[i]!))));
}

function filterOf(q: { addresses: Uint8Array[]; topics: (Uint8Array[] | undefined)[]; from: number; span: number }): LogFilter {
  return { addresses: q.addresses, topics: q.topics, fromBlock: BigInt(q.from), toBlock: BigInt(q.from + q.span) };
}

describe("engine: the log index", () => {
  it("names every block in the range that holds a matching log, only blocks in the range, ascending", () => {
    fc.assert(
      fc.property(blockLogs, query, (logsPerBlock, q) => {
        const index = new LogIndex();
        const blocks = blocksOf(logsPerBlock);
        for (const b of blocks) index.add(b);
        const filter = filterOf(q);
        const candidates = index.candidates(filter);
        if (candidates === undefined) {
          expect(filter.addresses.length === 0 && filter.topics.every((t) => t === undefined || t.length === 0)).to.equal(true);
          return;
        }
        const matching = blocks.filter((b) => b.number >= filter.fromBlock && b.number <= filter.toBlock && logsPerBlock[Number(b.number)]!.some((l) => matches(l, filter))).map((b) => Number(b.number));
        expect(candidates).to.include.members(matching);
        for (const n of candidates) expect(n).to.be.within(q.from, q.from + q.span);
        expect([...candidates].sort((a, b) => a - b)).to.deep.equal(candidates);
      }),
    );
  });

  it("after the top blocks are removed, answers as an index that never had them", () => {
    fc.assert(
      fc.property(blockLogs, fc.nat(30), query, (logsPerBlock, removed, q) => {
        const blocks = blocksOf(logsPerBlock);
        const kept = Math.max(1, blocks.length - removed);
        const index = new LogIndex();
        for (const b of blocks) index.add(b);
        for (const b of blocks.slice(kept).reverse()) index.remove(b);
        const fresh = new LogIndex();
        for (const b of blocks.slice(0, kept)) fresh.add(b);
        expect(index.candidates(filterOf(q))).to.deep.equal(fresh.candidates(filterOf(q)));
      }),
    );
  });
});
