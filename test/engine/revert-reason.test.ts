import { expect } from "chai";
import { AbiCoder, concat, getBytes, toUtf8Bytes } from "ethers";
import fc from "fast-check";

import { decodeRevertReason, failureMessage } from "../../src/engine/revert";

const coder = AbiCoder.defaultAbiCoder();
const errorData = (reason: string) => getBytes(concat(["0x08c379a0", coder.encode(["string"], [reason])]));
const panicData = (code: bigint) => getBytes(concat(["0x4e487b71", coder.encode(["uint256"], [code])]));

/** What ethers' strict decoder makes of the same data: the reference the hand decoder follows. */
function ethersReason(data: Uint8Array): string | undefined {
  const hex = Buffer.from(data).toString("hex");
  try {
    if (hex.startsWith("08c379a0")) return coder.decode(["string"], data.subarray(4))[0] as string;
    if (hex.startsWith("4e487b71")) return `panic code 0x${(coder.decode(["uint256"], data.subarray(4))[0] as bigint).toString(16)}`;
  } catch {
    return undefined;
  }
  return undefined;
}

describe("revert reasons", () => {
  it("reads Error(string)'s reason, unicode included", () => {
    expect(decodeRevertReason(errorData("Ownable: caller is not the owner"))).to.equal("Ownable: caller is not the owner");
    expect(decodeRevertReason(errorData("héllo ✓"))).to.equal("héllo ✓");
    expect(decodeRevertReason(errorData(""))).to.equal("");
  });

  it("describes Panic(uint256) by its code in hex", () => {
    expect(decodeRevertReason(panicData(0x11n))).to.equal("panic code 0x11");
    expect(decodeRevertReason(panicData(0x32n))).to.equal("panic code 0x32");
  });

  it("gives no reason for other data, truncated data, an offset or length beyond the data, or bytes that are not UTF-8", () => {
    const good = errorData("abc");
    expect(decodeRevertReason(new Uint8Array())).to.equal(undefined);
    expect(decodeRevertReason(getBytes("0xdeadbeef"))).to.equal(undefined);
    expect(decodeRevertReason(good.subarray(0, good.length - 1))).to.equal(undefined);
    const farOffset = Uint8Array.from(good);
    farOffset[4 + 31] = 0x40;
    expect(decodeRevertReason(farOffset)).to.equal(undefined);
    const longLength = Uint8Array.from(good);
    longLength[4 + 63] = 33;
    expect(decodeRevertReason(longLength)).to.equal(undefined);
    const notUtf8 = getBytes(concat(["0x08c379a0", coder.encode(["bytes"], ["0xff"])]));
    expect(decodeRevertReason(notUtf8)).to.equal(undefined);
    expect(decodeRevertReason(panicData(1n).subarray(0, 35))).to.equal(undefined);
  });

  it("decodes every Error(string) and Panic(uint256) as ethers' strict decoder does", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 80 }), (reason) => decodeRevertReason(errorData(reason)) === reason),
    );
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), (code) => decodeRevertReason(panicData(code)) === ethersReason(panicData(code))));
  });

  it("agrees with ethers on arbitrary bytes after either selector", () => {
    const selector = fc.constantFrom("0x08c379a0", "0x4e487b71");
    const word = (value: fc.Arbitrary<bigint>) => value.map((v) => coder.encode(["uint256"], [v]));
    const body = fc.oneof(
      fc.uint8Array({ maxLength: 200 }).map((b) => `0x${Buffer.from(b).toString("hex")}`),
      // A head and length word with small values, then bytes: the shapes that reach the bounds checks.
      fc.tuple(word(fc.bigInt({ min: 0n, max: 96n })), word(fc.bigInt({ min: 0n, max: 80n })), fc.uint8Array({ maxLength: 120 })).map(([o, l, b]) => concat([o, l, b])),
    );
    fc.assert(
      fc.property(selector, body, (sel, rest) => {
        const data = getBytes(concat([sel, rest]));
        return decodeRevertReason(data) === ethersReason(data);
      }),
      { numRuns: 2000 },
    );
  });

  it("words a revert as geth does: with its reason, or plain 'execution reverted'", () => {
    expect(failureMessage("revert", errorData("nope"))).to.equal("execution reverted: nope");
    expect(failureMessage("revert", getBytes("0xdeadbeef"))).to.equal("execution reverted");
    expect(failureMessage("out of gas", new Uint8Array())).to.equal("out of gas");
  });
});
