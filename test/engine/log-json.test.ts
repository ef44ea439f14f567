import { expect } from "chai";
import fc from "fast-check";

import type { LogRecord } from "../../src/engine/chain";
import { formatLog, formatLogJson } from "../../src/engine/api/format";

const bytes = (length: number) => fc.uint8Array({ minLength: length, maxLength: length });
const hash = bytes(32).map((b) => `0x${Buffer.from(b).toString("hex")}`);
const logRecord: fc.Arbitrary<LogRecord> = fc.record({
  address: bytes(20),
  topics: fc.array(bytes(32), { maxLength: 4 }),
  data: fc.uint8Array({ maxLength: 200 }),
  logIndex: fc.nat(100_000),
  transactionIndex: fc.nat(10_000),
  transactionHash: hash,
  blockHash: hash,
  blockNumber: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
});

describe("engine: a log written directly as JSON", () => {
  it("is the JSON of the log's formatted object, byte for byte", () => {
    fc.assert(
      fc.property(logRecord, (log) => {
        expect(formatLogJson(log)).to.equal(JSON.stringify(formatLog(log)));
      }),
    );
  });
});
