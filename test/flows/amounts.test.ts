import { expect } from "chai";
import fc from "fast-check";

import { formatAssetAmount } from "../../src/flows/amounts";

describe("formatAssetAmount: amounts for people, in the asset's denomination with its symbol", () => {
  it("shows the denomination's decimals, grouped thousands and the symbol", () => {
    expect(formatAssetAmount(60_000_000n, 2, "GOLD")).to.equal("600 000.00 GOLD");
    expect(formatAssetAmount(100_000_000_000n, 2, "GOLD")).to.equal("1 000 000 000.00 GOLD");
    expect(formatAssetAmount(5n, 2, "GOLD")).to.equal("0.05 GOLD");
  });

  it("drops zero decimals beyond the second", () => {
    expect(formatAssetAmount(10_000_000n, 9, "AVAX")).to.equal("0.01 AVAX");
    expect(formatAssetAmount(1_234_567_891n, 9, "AVAX")).to.equal("1.234567891 AVAX");
    expect(formatAssetAmount(2_000_000_000n, 9, "AVAX")).to.equal("2.00 AVAX");
  });

  it("shows whole units for denomination 0 and a bare number without a symbol", () => {
    expect(formatAssetAmount(1234n, 0, "NFT")).to.equal("1 234 NFT");
    expect(formatAssetAmount(1234n, 1, "")).to.equal("123.4");
  });

  it("loses no digit: removing the grouping and the point gives the units back (property)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), fc.integer({ min: 0, max: 18 }), (units, denomination) => {
        const text = formatAssetAmount(units, denomination, "X").replace(/ X$/, "");
        const [whole, decimals = ""] = text.replace(/ /g, "").split(".");
        expect(BigInt(whole! + decimals.padEnd(denomination, "0"))).to.equal(units);
      }),
    );
  });
});
