import { createAddressFromString } from "@ethereumjs/util";
import { expect } from "chai";

import { EngineLock, type LockHeld } from "../../src/engine/engine-lock";
import { SimulatorFaultError } from "../../src/engine/errors";
import { rejection, startChain } from "../helpers/chain";

// The one place a block is sealed after its operation answered: the next operation waits for
// the seal, and only the work the lock runs holds the proof that asking for it needs.
describe("EngineLock: operations one at a time, and a seal after the answer", () => {
  it("the next operation starts only once the seal the one before it deferred is done", async () => {
    const lock = new EngineLock(() => undefined);
    const order: string[] = [];
    const answered = lock.run(async (held) => {
      void lock.sealAfterAnswer(held, async () => order.push("sealed"), "block 1");
      order.push("answered");
    });
    const next = lock.run(async () => order.push("next operation"));
    await Promise.all([answered, next]);
    expect(order).to.deep.equal(["answered", "sealed", "next operation"]);
  });

  it("a read at once runs beside an operation still in turn", async () => {
    const lock = new EngineLock(() => undefined);
    let release: () => void = () => undefined;
    const long = lock.run(() => new Promise<void>((resolve) => (release = resolve)));
    expect(await lock.atOnce(async () => "read")).to.equal("read");
    release();
    await long;
  });

  it("a seal that fails stops the lock: the log names the block, and every later operation is refused", async () => {
    const lines: string[] = [];
    const lock = new EngineLock((line) => lines.push(line));
    await lock.run(async (held) => {
      lock.sealAfterAnswer(held, () => Promise.reject(new Error("disk on fire")), "block 7").catch(() => undefined);
    });
    const refused = await rejection(lock.run(async () => "never"));
    expect(refused).to.be.instanceOf(SimulatorFaultError);
    expect(refused.message).to.equal("the simulator stopped after an internal error: disk on fire");
    expect(lines).to.deep.equal(["internal error: block 7 could not be sealed (disk on fire); the simulator must be restarted"]);
  });

  it("the proof cannot be made outside the lock: an object is not one", () => {
    // @ts-expect-error: only EngineLock.run hands out a LockHeld (tsc fails here if that ever changes)
    const forged: LockHeld = {};
    expect(Object.keys(forged)).to.deep.equal([]);
  });

  it("a transaction submitted inside the engine's lock answers before its block is sealed, and the next operation sees the block", async () => {
    const chain = await startChain();
    const engine = chain.native.engine;
    const [from] = (await chain.rpc("eth_accounts")) as string[];
    const before = engine.head.number;
    const sender = createAddressFromString(from!);
    const pooled = await engine.prepareTransaction({ from: sender, to: sender, value: 1n });
    const headWhenAnswered = await engine.serialize(async (held) => {
      await engine.submit(pooled, held);
      return engine.head.number;
    });
    expect(headWhenAnswered).to.equal(before);
    expect(await engine.serialize(async () => engine.head.number)).to.equal(before + 1n);
  });
});
