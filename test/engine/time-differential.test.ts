import { expect } from "chai";
import fc from "fast-check";
import hre from "hardhat";
import { createProvider } from "hardhat/internal/core/providers/construction";

import { startChain } from "../helpers/chain";

/**
 * The clock of the next block, differentially: the same sequences of time and mining calls
 * (evm_setNextBlockTimestamp, evm_increaseTime, evm_mine with and without a timestamp,
 * hardhat_mine with an interval, an automined transaction, evm_snapshot / evm_revert) run on
 * nativekit and on Hardhat's own network (EDR, in process), and every new block's timestamp
 * delta from its parent must be the same on both.
 *
 * Real time passes while the two run, and each network reads the wall clock in whole seconds
 * at a different moment: a block whose time comes from the clock may fall one second later or
 * earlier on one of them. Only such a block is compared within one second; a block at a chosen
 * time (set for it, given to evm_mine, or a hardhat_mine interval) must match exactly, and so
 * must which calls are refused.
 */

interface Network {
  name: string;
  request(method: string, params?: unknown[]): Promise<unknown>;
}

type Step =
  | { kind: "setNext"; ahead: number }
  | { kind: "increase"; seconds: number }
  | { kind: "mine" }
  | { kind: "mineAt"; ahead: number }
  | { kind: "mineMany"; blocks: number; interval: number }
  | { kind: "send" }
  | { kind: "snapshot" }
  | { kind: "revert" };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("setNext" as const), ahead: fc.integer({ min: -1, max: 3000 }) }),
  fc.record({ kind: fc.constant("increase" as const), seconds: fc.integer({ min: 0, max: 3000 }) }),
  fc.constant({ kind: "mine" as const }),
  // Not at the head's own time: Hardhat mines that block a second later but leaves its clock a
  // second behind, so the next block from the clock is earlier than its parent (README: differences).
  fc.record({ kind: fc.constant("mineAt" as const), ahead: fc.oneof(fc.constant(-1), fc.integer({ min: 1, max: 3000 })) }),
  // An interval of 0 asks for blocks at their parent's time: the same Hardhat quirk as above.
  fc.record({ kind: fc.constant("mineMany" as const), blocks: fc.integer({ min: 1, max: 3 }), interval: fc.integer({ min: 1, max: 10 }) }),
  fc.constant({ kind: "send" as const }),
  fc.constant({ kind: "snapshot" as const }),
  fc.constant({ kind: "revert" as const }),
);

/** One new block: its delta from its parent, and whether its time came from the clock. */
interface NewBlock {
  delta: number;
  fromClock: boolean;
}

/** What a step did on one network: refused, or the blocks it added (after a revert: none). */
type Outcome = { refused: true } | { refused: false; blocks: NewBlock[] };

const quantity = (n: number) => "0x" + n.toString(16);

/** A network under test with the state the steps need: its snapshot IDs and its sender. */
class Driver {
  private readonly snapshots: unknown[] = [];
  private sender: string | undefined;

  constructor(readonly network: Network) {}

  private async head(): Promise<{ number: number; timestamp: number }> {
    const block = (await this.network.request("eth_getBlockByNumber", ["latest", false])) as { number: string; timestamp: string };
    return { number: Number(block.number), timestamp: Number(block.timestamp) };
  }

  /** The timestamps of blocks `from`..`to`, with the parent of `from` first. */
  private async timestamps(from: number, to: number): Promise<number[]> {
    const out: number[] = [];
    for (let n = from - 1; n <= to; n++) {
      const block = (await this.network.request("eth_getBlockByNumber", [quantity(n), false])) as { timestamp: string };
      out.push(Number(block.timestamp));
    }
    return out;
  }

  /** Runs `step`; `pendingSet` tells whether a timestamp set earlier is waiting for the next block. */
  async run(s: Step, pendingSet: boolean): Promise<Outcome> {
    const before = await this.head();
    const r = (method: string, params: unknown[] = []) => this.network.request(method, params);
    try {
      switch (s.kind) {
        case "setNext":
          await r("evm_setNextBlockTimestamp", [quantity(before.timestamp + s.ahead)]);
          break;
        case "increase":
          await r("evm_increaseTime", [quantity(s.seconds)]);
          break;
        case "mine":
          await r("evm_mine");
          break;
        case "mineAt":
          await r("evm_mine", [quantity(before.timestamp + s.ahead)]);
          break;
        case "mineMany":
          await r("hardhat_mine", [quantity(s.blocks), quantity(s.interval)]);
          break;
        case "send":
          this.sender ??= ((await r("eth_accounts")) as string[])[0]!;
          await r("eth_sendTransaction", [{ from: this.sender, to: "0x00000000000000000000000000000000000000aa", value: "0x1" }]);
          break;
        case "snapshot":
          this.snapshots.push(await r("evm_snapshot"));
          break;
        case "revert": {
          const id = this.snapshots.pop();
          if (id === undefined) return { refused: false, blocks: [] };
          expect(await r("evm_revert", [id]), `${this.network.name}: evm_revert`).to.equal(true);
          // Hardhat's snapshots after the one reverted to are gone with it.
          this.snapshots.length = 0;
          return { refused: false, blocks: [] };
        }
      }
    } catch {
      return { refused: true };
    }
    const after = await this.head();
    if (after.number <= before.number) return { refused: false, blocks: [] };
    const times = await this.timestamps(before.number + 1, after.number);
    const blocks: NewBlock[] = [];
    for (let i = 1; i < times.length; i++) {
      // Only the first block of a step may take its time from the clock, and only when no time was set for it.
      const chosen = s.kind === "mineAt" || i > 1 || pendingSet;
      blocks.push({ delta: times[i]! - times[i - 1]!, fromClock: !chosen });
    }
    return { refused: false, blocks };
  }
}

/** Whether a timestamp set by evm_setNextBlockTimestamp is waiting, as both networks should see it. */
function pendingAfter(s: Step, outcome: Outcome, pending: boolean, saved: boolean[]): boolean {
  if (outcome.refused) return pending;
  switch (s.kind) {
    case "setNext":
      return true;
    case "snapshot":
      saved.push(pending);
      return pending;
    case "revert": {
      const restored = saved.pop();
      saved.length = 0;
      return restored ?? pending;
    }
    default:
      return outcome.blocks.length > 0 ? false : pending;
  }
}

describe("engine: time and mining calls compose as on Hardhat's network", function () {
  this.timeout(240_000);
  let nativekit: Driver;
  let hardhat: Driver;

  before(async () => {
    const chain = await startChain();
    nativekit = new Driver({ name: "nativekit", request: (method, params = []) => chain.rpc(method, params) });
    const provider = await createProvider(hre.config, "hardhat");
    hardhat = new Driver({ name: "hardhat", request: (method, params = []) => provider.request({ method, params }) });
  });

  /** Runs the steps on both networks, one after the other per step, and compares each step's outcome. */
  async function compare(steps: readonly Step[]): Promise<void> {
    // A block first, so that no time set by an earlier sequence is waiting.
    await nativekit.run({ kind: "mine" }, false);
    await hardhat.run({ kind: "mine" }, false);
    let pending = false;
    const saved: boolean[] = [];
    for (const [i, s] of steps.entries()) {
      const ours = await nativekit.run(s, pending);
      const theirs = await hardhat.run(s, pending);
      const where = `step ${i} ${JSON.stringify(s)} of ${JSON.stringify(steps)}`;
      expect(ours.refused, `${where}: refused`).to.equal(theirs.refused);
      if (!ours.refused && !theirs.refused) {
        expect(ours.blocks.length, `${where}: blocks mined`).to.equal(theirs.blocks.length);
        ours.blocks.forEach((block, b) => {
          const expected = theirs.blocks[b]!;
          if (block.fromClock) expect(Math.abs(block.delta - expected.delta), `${where}: block ${b}, delta ${block.delta} vs Hardhat's ${expected.delta}`).to.be.at.most(1);
          else expect(block.delta, `${where}: block ${b}`).to.equal(expected.delta);
        });
      }
      pending = pendingAfter(s, ours, pending, saved);
    }
  }

  it("evm_increaseTime after a block at a set time counts from that block (the +100 of issue 27)", async () => {
    await compare([{ kind: "setNext", ahead: 100_000 }, { kind: "mine" }, { kind: "increase", seconds: 100 }, { kind: "mine" }]);
  });

  it("evm_increaseTime after evm_mine at a chosen time counts from that block", async () => {
    await compare([{ kind: "mineAt", ahead: 50_000 }, { kind: "increase", seconds: 100 }, { kind: "mine" }, { kind: "send" }]);
  });

  it("blocks mined in the same second are one second apart, and the clock then runs from the last", async () => {
    await compare([{ kind: "mine" }, { kind: "mine" }, { kind: "mine" }, { kind: "mineMany", blocks: 3, interval: 1 }, { kind: "increase", seconds: 10 }, { kind: "mine" }]);
  });

  it("a set time wins over time added before the block, and a revert brings a set time back", async () => {
    await compare([
      { kind: "setNext", ahead: 10 },
      { kind: "increase", seconds: 7 },
      { kind: "snapshot" },
      { kind: "mine" },
      { kind: "mine" },
      { kind: "revert" },
      { kind: "mine" },
    ]);
  });

  it("a timestamp not later than the head is refused by evm_setNextBlockTimestamp, and by evm_mine only when earlier", async () => {
    await compare([{ kind: "setNext", ahead: 0 }, { kind: "setNext", ahead: -1 }, { kind: "mineAt", ahead: -1 }, { kind: "mineAt", ahead: 0 }]);
  });

  it("after evm_mine at the head's own time, the next block is still later than it (Hardhat's is a second earlier)", async () => {
    const chain = await startChain();
    const latest = async () => Number(((await chain.rpc("eth_getBlockByNumber", ["latest", false])) as { timestamp: string }).timestamp);
    const head = await latest();
    await chain.rpc("evm_mine", [quantity(head)]);
    expect(await latest()).to.equal(head + 1);
    await chain.rpc("evm_mine");
    expect((await latest()) - (head + 1)).to.be.at.least(1);
    // hardhat_mine with an interval of 0: each block one second after the one before.
    const before = Number(await chain.rpc("eth_blockNumber"));
    await chain.rpc("hardhat_mine", ["0x3", "0x0"]);
    const at = async (n: number) => Number(((await chain.rpc("eth_getBlockByNumber", [quantity(n), false])) as { timestamp: string }).timestamp);
    expect((await at(before + 2)) - (await at(before + 1))).to.equal(1);
    expect((await at(before + 3)) - (await at(before + 2))).to.equal(1);
    await chain.rpc("evm_mine");
    expect((await at(before + 4)) - (await at(before + 3))).to.be.at.least(1);
  });

  it("the time calls answer as Hardhat's network answers them", async () => {
    for (const driver of [nativekit, hardhat]) {
      const r = (method: string, params: unknown[] = []) => driver.network.request(method, params);
      const head = Number(((await r("eth_getBlockByNumber", ["latest", false])) as { timestamp: string }).timestamp);
      expect(await r("evm_setNextBlockTimestamp", [quantity(head + 10)]), driver.network.name).to.equal(String(head + 10));
      expect(await r("evm_increaseTime", [quantity(0)]), driver.network.name).to.match(/^-?\d+$/);
      expect(await r("evm_setIntervalMining", [0]), driver.network.name).to.equal(true);
      expect(await r("hardhat_setLoggingEnabled", [false]), driver.network.name).to.equal(true);
      await r("evm_mine");
    }
  });

  it("random sequences give every block the same delta on both networks", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => compare(steps)),
      { numRuns: 40 },
    );
  });

  it("a block mined at once after another is one second later (never at its parent's time)", async () => {
    const chain = await startChain();
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      await chain.rpc("evm_mine");
      times.push(Number(((await chain.rpc("eth_getBlockByNumber", ["latest", false])) as { timestamp: string }).timestamp));
    }
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).to.be.at.least(1);
  });
});
