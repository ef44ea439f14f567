import { expect } from "chai";
import fc from "fast-check";

import { encodeCb58 } from "../../../src/encoding";
import { repeatedIdOf } from "../../../src/services/explorer/ingest/outputs";

describe("explorer ingest: the cb58 of IDs that recur, remembered by the decoding threads", () => {
  it("is each ID's own cb58, whether it is new, repeated or among many", () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ minLength: 32, maxLength: 32 }), { minLength: 1, maxLength: 50 }), fc.nat({ max: 49 }), (ids, pick) => {
        for (const id of [...ids, ids[pick % ids.length]!]) expect(repeatedIdOf(id)).to.equal(encodeCb58(id));
      }),
    );
  });

  it("still answers an ID right after more distinct IDs than it keeps have passed", () => {
    const idOf = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (i < 4 ? (n >>> (8 * i)) & 0xff : 7));
    const first = idOf(0);
    expect(repeatedIdOf(first)).to.equal(encodeCb58(first));
    for (let n = 1; n <= 10_000; n++) repeatedIdOf(idOf(n));
    expect(repeatedIdOf(first)).to.equal(encodeCb58(first));
    expect(repeatedIdOf(idOf(10_000))).to.equal(encodeCb58(idOf(10_000)));
  });
});
