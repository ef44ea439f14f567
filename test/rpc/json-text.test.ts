import { expect } from "chai";
import fc from "fast-check";
import { jsonArrayText, JsonText } from "../../src/rpc/json-text";
import { jsonValue } from "../helpers/json-values";

/**
 * Answers written as JSON text in parts (rpc/json-text.ts): the parts joined are the JSON of the
 * value, and no part is the whole of a large answer.
 */
describe("JSON text in parts", () => {
  it("an array of JSON texts is, joined, the JSON of the array", () => {
    fc.assert(
      fc.property(fc.array(jsonValue, { maxLength: 40 }), (values) => {
        const answer = jsonArrayText(values.map((v) => JSON.stringify(v)));
        expect(JSON.parse(answer.text)).to.deep.equal(JSON.parse(JSON.stringify(values)));
      }),
      { numRuns: 60 },
    );
  });

  it("keeps each part of an array near 32 kB, longer only by the one item that ends it", () => {
    fc.assert(
      fc.property(fc.array(jsonValue, { minLength: 1, maxLength: 40 }), (values) => {
        const items = values.map((v) => JSON.stringify(v));
        const longest = Math.max(...items.map((i) => i.length));
        for (const part of jsonArrayText(items).parts) expect(part.length).to.be.at.most(32_768 + longest + 1);
      }),
      { numRuns: 60 },
    );
  });

  it("sends a 250 kB page of 100 records in parts, none of them over 64 kB", () => {
    const records = Array.from({ length: 100 }, (_, i) => JSON.stringify({ id: `tx${i}`, memo: "ab".repeat(1_250) }));
    const { parts } = jsonArrayText(records);
    expect(parts.length).to.be.within(8, 12);
    expect(Math.max(...parts.map((p) => p.length))).to.be.below(65_536);
    expect(JSON.parse(parts.join(""))).to.have.length(100);
  });

  it("an empty array is []", () => {
    expect(jsonArrayText([]).text).to.equal("[]");
  });

  it("anything else serializing a JSON text gets the value it holds", () => {
    expect(JSON.stringify({ result: new JsonText(['{"n":', "[1,2]}"]) })).to.equal('{"result":{"n":[1,2]}}');
  });
});
