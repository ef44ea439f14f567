import { expect } from "chai";

import { createNativeProvider, type NativeProvider, type SnapshotCompanion } from "../../src/engine";

/** A companion whose whole state is one number. */
class Counter implements SnapshotCompanion {
  value = 0;
  capture(): () => void {
    const saved = this.value;
    return () => {
      this.value = saved;
    };
  }
}

describe("engine snapshot companions: state outside the engine that moves with the chain", () => {
  let provider: NativeProvider;
  let counter: Counter;

  beforeEach(async () => {
    provider = await createNativeProvider();
    counter = new Counter();
    provider.engine.addSnapshotCompanion(counter);
  });

  const snapshot = async () => (await provider.request({ method: "evm_snapshot" })) as string;
  const revert = async (id: string) => (await provider.request({ method: "evm_revert", params: [id] })) as boolean;

  it("evm_revert restores the companion as it was at evm_snapshot", async () => {
    counter.value = 1;
    const id = await snapshot();
    counter.value = 2;
    expect(await revert(id)).to.equal(true);
    expect(counter.value).to.equal(1);
  });

  it("reverting to an earlier snapshot skips the later ones, which are consumed with it", async () => {
    counter.value = 1;
    const first = await snapshot();
    counter.value = 2;
    const second = await snapshot();
    counter.value = 3;
    expect(await revert(first)).to.equal(true);
    expect(counter.value).to.equal(1);
    expect(await revert(second)).to.equal(false);
    expect(counter.value).to.equal(1);
  });

  it("an unknown snapshot leaves the companion alone", async () => {
    counter.value = 5;
    expect(await revert("0x99")).to.equal(false);
    expect(counter.value).to.equal(5);
  });

  it("hardhat_reset restores the companion as it was when it joined, each time", async () => {
    counter.value = 7;
    await provider.request({ method: "hardhat_reset" });
    expect(counter.value).to.equal(0);
    counter.value = 8;
    await provider.request({ method: "hardhat_reset" });
    expect(counter.value).to.equal(0);
  });
});
