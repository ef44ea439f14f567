/** The API's parameter parser, property-tested: times, limits and addresses. */
import { expect } from "chai";
import fc from "fast-check";
import { encodeCb58, formatBech32Address } from "../../../src/encoding";
import { ExplorerApiError } from "../../../src/services/explorer/api";
import { parseAddress, parseLimit, parseTime } from "../../../src/services/explorer/api/parameters";
import { FIXTURE_CONTEXT } from "./fixture-rows";

const MAX_SECONDS = 253_402_300_799;

function refusal(run: () => unknown): ExplorerApiError {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(ExplorerApiError);
    return error as ExplorerApiError;
  }
  throw new Error("expected a refusal");
}

/** RFC 3339 with a numeric offset: the same instant written in another zone. */
function withOffset(ms: number, offsetMinutes: number): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().replace("Z", "");
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

describe("explorer API parameters", () => {
  it("Unix seconds in range read as that many seconds", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: MAX_SECONDS }), (s) => parseTime(String(s), "startTime") === s * 1000));
  });

  it("an RFC 3339 time in any zone reads as its instant, to the millisecond", () => {
    fc.assert(
      fc.property(fc.integer({ min: 14 * 60 * 60_000, max: MAX_SECONDS * 1000 - 14 * 60 * 60_000 }), fc.integer({ min: -14 * 60, max: 14 * 60 }), (ms, offset) => {
        expect(parseTime(new Date(ms).toISOString(), "endTime")).to.equal(ms);
        expect(parseTime(withOffset(ms, offset), "endTime")).to.equal(ms);
      }),
    );
  });

  it("anything else is refused with a 400 naming the parameter", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }).filter((s) => !/^\d+$/.test(s) && !/^\d{4}-/.test(s)), (text) => {
        const error = refusal(() => parseTime(text, "startTime"));
        expect(error.status).to.equal(400);
        expect(error.message).to.include("startTime");
      }),
    );
    for (const bad of ["2024-02-30T00:00:00Z", "2024-13-01T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01", "99999999999999", "-5", "1.5"]) {
      expect(refusal(() => parseTime(bad, "endTime")).message, bad).to.include("endTime");
    }
  });

  it("limit accepts exactly 1 to 5000 and defaults to 5000", () => {
    const range = { min: 1, max: 5000, default: 5000 };
    expect(parseLimit(undefined, range)).to.equal(5000);
    fc.assert(fc.property(fc.integer({ min: 1, max: 5000 }), (n) => parseLimit(String(n), range) === n));
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -1_000_000, max: 0 }), fc.integer({ min: 5001, max: 2 ** 40 })), (n) => {
        expect(refusal(() => parseLimit(String(n), range)).message).to.include("from 1 to 5000");
      }),
    );
    fc.assert(fc.property(fc.string().filter((s) => !/^\d+$/.test(s)), (s) => refusal(() => parseLimit(s, range)).status === 400));
  });

  it("an address reads the same with X-, P- or C- prefix, bare, or as a cb58 short ID", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), (shortId) => {
        const bare = formatBech32Address(shortId, FIXTURE_CONTEXT.hrp);
        for (const form of [`X-${bare}`, `P-${bare}`, `C-${bare}`, bare, encodeCb58(shortId)]) expect(parseAddress(form, FIXTURE_CONTEXT)).to.equal(bare);
      }),
    );
    expect(refusal(() => parseAddress(formatBech32Address(new Uint8Array(20), "fuji"), FIXTURE_CONTEXT)).message).to.include("not an address of this network");
  });
});
