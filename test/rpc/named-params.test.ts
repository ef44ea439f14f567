import { expect } from "chai";
import fc from "fast-check";

import { NamedParams, parseUint } from "../../src/rpc/named-params";
import { RpcError, RpcErrorCode } from "../../src/rpc/errors";

/** The -32602 error a read throws. */
function refusal(read: () => unknown): RpcError {
  try {
    read();
  } catch (error) {
    expect(error).to.be.instanceOf(RpcError);
    expect((error as RpcError).code).to.equal(RpcErrorCode.InvalidParams);
    return error as RpcError;
  }
  throw new Error("expected the read to be refused");
}

const params = (value: unknown) => NamedParams.of(value, "xvm.test");

describe("NamedParams: the node-style named parameters", () => {
  describe("the params member", () => {
    it("reads an object, an array holding one object, an empty array, [null] and nothing", () => {
      expect(params({ a: "x" }).string("a")).to.equal("x");
      expect(params([{ a: "x" }]).string("a")).to.equal("x");
      for (const empty of [undefined, null, [], [null]]) expect(params(empty).has("a")).to.equal(false);
    });

    it("refuses positional values, naming the method and the shape it takes", () => {
      for (const bad of [["X-local1"], [{ a: 1 }, { b: 2 }], "text", 5]) {
        expect(refusal(() => params(bad)).message).to.match(/^xvm\.test takes named parameters: send params as one object/);
      }
    });

    it("ignores fields it does not read", () => {
      expect(params({ a: "x", unknown: { deep: [1] } }).string("a")).to.equal("x");
    });
  });

  describe("strings", () => {
    it("treats absent, null and the empty string as missing for a required string", () => {
      for (const value of [{}, { a: null }, { a: "" }]) expect(refusal(() => params(value).string("a")).message).to.equal("missing parameter a");
    });

    it("names the field and the value of the wrong type", () => {
      expect(refusal(() => params({ a: 5 }).string("a")).message).to.equal("a must be a string, got number 5");
      expect(refusal(() => params({ a: [] }).optionalString("a")).message).to.equal("a must be a string, got an array");
    });

    it("keeps the empty string where it means something (stringOr), and gives the fallback when absent", () => {
      expect(params({ memo: "" }).stringOr("memo", "none")).to.equal("");
      expect(params({}).stringOr("memo", "none")).to.equal("none");
    });

    it("reads string lists, and names the item of the wrong type", () => {
      expect(params({ a: ["x", "y"] }).stringArray("a")).to.deep.equal(["x", "y"]);
      expect(params({}).stringArray("a")).to.deep.equal([]);
      expect(refusal(() => params({ a: ["x", 2] }).stringArray("a")).message).to.equal("a[1] must be a string, got number 2");
      expect(refusal(() => params({ a: "x" }).stringArray("a")).message).to.equal('a must be an array of strings, got "x"');
    });
  });

  describe("integers, quoted or bare", () => {
    it("reads a JSON number and a decimal string alike", () => {
      expect(params({ n: 1000 }).uint("n", 64)).to.equal(1000n);
      expect(params({ n: "1000" }).uint("n", 64)).to.equal(1000n);
      expect(params({ n: "18446744073709551615" }).uint("n", 64)).to.equal((1n << 64n) - 1n);
    });

    it("gives the fallback when absent or null, else says it is missing", () => {
      expect(params({ n: null }).uint("n", 32, 7n)).to.equal(7n);
      expect(params({}).optionalUint("n", 32)).to.equal(undefined);
      expect(refusal(() => params({}).uint("n", 32)).message).to.equal("missing parameter n");
    });

    it("refuses negative, fractional, unsafe, hex and empty values, naming the field", () => {
      for (const bad of [-1, 1.5, "-1", "0x10", "", "1e3", true]) {
        expect(refusal(() => params({ n: bad }).uint("n", 64)).message).to.match(/^n must be a non-negative integer/);
      }
      expect(refusal(() => params({ n: 2 ** 60 }).uint("n", 64)).message).to.contain("2^53 - 1");
    });

    it("refuses a value above the largest of its width", () => {
      expect(refusal(() => params({ n: "256" }).uint("n", 8)).message).to.equal("n is 256, above the largest uint8 (255)");
    });

    it("reads every uint64 written either way to the same value (property)", () => {
      fc.assert(
        fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), (n) => {
          expect(parseUint(n.toString(), "n", 64)).to.equal(n);
          if (n <= BigInt(Number.MAX_SAFE_INTEGER)) expect(parseUint(Number(n), "n", 64)).to.equal(n);
        }),
      );
    });
  });

  describe("nested objects", () => {
    it("names the whole path of a field inside an object or a list of objects", () => {
      const p = params({ startIndex: { address: 3 }, outputs: [{ amount: "1" }, { amount: "x" }] });
      expect(refusal(() => p.object("startIndex")!.string("address")).message).to.equal("startIndex.address must be a string, got number 3");
      const outputs = p.objects("outputs");
      expect(outputs[0]!.uint("amount", 64)).to.equal(1n);
      expect(refusal(() => outputs[1]!.uint("amount", 64)).message).to.match(/^outputs\[1\]\.amount must be a non-negative integer/);
    });

    it("refuses a list item that is not an object", () => {
      expect(refusal(() => params({ outputs: [{}, 5] }).objects("outputs")).message).to.equal("outputs[1] must be an object, got number 5");
      expect(refusal(() => params({ outputs: {} }).objects("outputs")).message).to.equal("outputs must be an array of objects, got an object");
    });

    it("reads one of a set of choices without regard to case, the fallback when absent", () => {
      expect(params({ encoding: "HEX" }).choice("encoding", ["cb58", "hex"], "cb58")).to.equal("hex");
      expect(params({ encoding: "" }).choice("encoding", ["cb58", "hex"], "cb58")).to.equal("cb58");
      expect(refusal(() => params({ encoding: "base64" }).choice("encoding", ["cb58", "hex"], "cb58")).message).to.equal('invalid encoding "base64": expected "cb58" or "hex"');
    });

    it("lists the names of the fields of a map-like object", () => {
      expect(params({ genesisData: { GOLD: {}, AVAX: {} } }).object("genesisData")!.fieldNames()).to.deep.equal(["GOLD", "AVAX"]);
    });

    it("reads booleans, false when absent", () => {
      expect(params({ f: true }).boolean("f")).to.equal(true);
      expect(params({}).boolean("f")).to.equal(false);
      expect(refusal(() => params({ f: "true" }).boolean("f")).message).to.equal('f must be true or false, got "true"');
    });
  });
});
