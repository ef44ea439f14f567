import { expect } from "chai";
import fc from "fast-check";
import { createBlockHeader } from "@ethereumjs/block";
import { Common, Hardfork, Mainnet, createCustomCommon } from "@ethereumjs/common";

import { nextExcessBlobGas, withCheapLookups } from "../../src/engine/common";

const reference = Common.prototype.isActivatedEIP;
const everyEip = Array.from({ length: 8200 }, (_, i) => i);
const active = (common: Common, check: (eip: number) => boolean) => everyEip.filter((eip) => check.call(common, eip));

describe("the engine's Common: cheap isActivatedEIP", () => {
  it("answers exactly as ethereumjs for every EIP number, on each hardfork and after switching", () => {
    const common = withCheapLookups(createCustomCommon({ name: "t", chainId: 43112 }, Mainnet, { hardfork: Hardfork.Shanghai }));
    for (const hardfork of [Hardfork.Shanghai, Hardfork.Cancun, Hardfork.London, Hardfork.Cancun]) {
      common.setHardfork(hardfork);
      expect(active(common, common.isActivatedEIP), hardfork).to.deep.equal(active(common, reference));
    }
    expect(common.isActivatedEIP(4844)).to.equal(true);
  });

  it("follows EIPs switched on later, and its copies act on their own hardfork", () => {
    const common = withCheapLookups(createCustomCommon({ name: "t", chainId: 43112 }, Mainnet, { hardfork: Hardfork.Cancun }));
    const copy = common.copy();
    copy.setHardfork(Hardfork.London);
    expect(copy.isActivatedEIP(4844)).to.equal(false);
    expect(common.isActivatedEIP(4844)).to.equal(true);
    common.setEIPs([7702]);
    expect(common.isActivatedEIP(7702)).to.equal(true);
    expect(active(common, common.isActivatedEIP)).to.deep.equal(active(common, reference));
  });

  it("answers gteHardfork and hardforkGteHardfork exactly as ethereumjs for every pair of hardforks, on each hardfork and on copies", () => {
    const common = withCheapLookups(createCustomCommon({ name: "t", chainId: 43112 }, Mainnet, { hardfork: Hardfork.Cancun }));
    const plain = createCustomCommon({ name: "t", chainId: 43112 }, Mainnet, { hardfork: Hardfork.Cancun });
    const names = [...common.hardforks().map((hardfork) => hardfork.name), "no-such-hardfork"];
    for (const current of [Hardfork.London, Hardfork.Shanghai, Hardfork.Cancun]) {
      for (const [ours, theirs] of [[common, plain], [common.copy(), plain.copy()]] as const) {
        ours.setHardfork(current);
        theirs.setHardfork(current);
        for (const second of names) {
          expect(ours.gteHardfork(second), `${current} >= ${second}`).to.equal(theirs.gteHardfork(second));
          for (const first of names) expect(ours.hardforkGteHardfork(first, second), `${first} >= ${second}`).to.equal(theirs.hardforkGteHardfork(first, second));
        }
      }
    }
  });
});

describe("the engine's Common: the next block's excess blob gas", () => {
  const common = withCheapLookups(createCustomCommon({ name: "t", chainId: 43112 }, Mainnet, { hardfork: Hardfork.Cancun }));
  const parentWith = (excessBlobGas: bigint, blobGasUsed: bigint) => createBlockHeader({ number: 1n, excessBlobGas, blobGasUsed }, { common });

  it("is zero after a parent with no excess and no blobs, as ethereumjs computes it", () => {
    const parent = parentWith(0n, 0n);
    expect(nextExcessBlobGas(parent, common)).to.equal(0n);
    expect(parent.calcNextExcessBlobGas(common)).to.equal(0n);
  });

  it("is what ethereumjs computes for any excess and blob gas used", () => {
    const blobGas = 131_072n;
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 64n * blobGas }), fc.bigInt({ min: 0n, max: 6n }), (excess, blobs) => {
        const parent = parentWith(excess, blobs * blobGas);
        expect(nextExcessBlobGas(parent, common)).to.equal(parent.calcNextExcessBlobGas(common));
      }),
    );
  });
});
