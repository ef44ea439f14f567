import { expect } from "chai";
import fc from "fast-check";
import { jsonArrayText } from "../../../src/rpc/json-text";
import { jsonObjectText } from "../../../src/services/explorer/json-text";
import { jsonValue } from "../../helpers/json-values";

/** An API answer's object around a list of records the database wrote as JSON (explorer/json-text.ts), kept in parts. */
describe("explorer: an answer's JSON object in parts", () => {
  it("an object of keys and values (JSON text or plain) is, joined, the JSON of the object, undefined values left out", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.option(jsonValue, { nil: undefined })), fc.array(jsonValue, { maxLength: 5 }), (plain, listed) => {
        const entries: [string, unknown][] = [...Object.entries(plain), ["items", jsonArrayText(listed.map((v) => JSON.stringify(v)))]];
        const expected = JSON.parse(JSON.stringify({ ...plain, items: listed }));
        expect(JSON.parse(jsonObjectText(entries).text)).to.deep.equal(expected);
      }),
      { numRuns: 60 },
    );
  });

  it("an object of no keys is {}", () => {
    expect(jsonObjectText([]).text).to.equal("{}");
    expect(jsonObjectText([["gone", undefined]]).text).to.equal("{}");
  });
});
