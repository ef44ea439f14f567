import { expect } from "chai";
import fc from "fast-check";

import {
  codeKey,
  jumpAnalysisMemoInstalled,
  libraryJumpAnalysis,
  memoizedAnalysis,
  opcodeTableSignature,
  type AnalysingInterpreter,
  type Analyse,
} from "../../src/engine/jump-analysis-memo";
import { rejection, startChain, type TestChain } from "../helpers/chain";

/** A stand-in for the interpreter's `this`: what the analysis reads of it. */
function interpreterOver(table: object, eip8024 = false): AnalysingInterpreter & { lookupOpInfo(op: number): unknown } {
  const entries = table as Record<number, unknown>;
  return {
    _evm: { _opcodeMap: table },
    common: { isActivatedEIP: (eip: number) => eip === 8024 && eip8024 },
    lookupOpInfo: (op: number) => entries[op],
    _getValidJumpDestinations: () => {
      throw new Error("not used");
    },
  };
}

/** An opcode table with one entry object per byte, like the EVM's. */
function opcodeTable(): Record<number, { code: number }> {
  const table: Record<number, { code: number }> = {};
  for (let op = 0; op < 256; op++) table[op] = { code: op };
  return table;
}

/** Handlers shared by every EVM-like table below, as the EVM's module-level handlers are. */
const sharedHandlers = Array.from({ length: 256 }, () => () => {});

/** An opcode table shaped like the EVM's (information and handlers per opcode), with one entry changed if asked. */
function evmLikeTable(change?: { op: number; fee?: number; opHandler?: () => void }): Record<number, object> {
  const table: Record<number, object> = {};
  for (let op = 0; op < 256; op++) {
    const fee = change?.op === op && change.fee !== undefined ? change.fee : 3;
    const opHandler = change?.op === op && change.opHandler !== undefined ? change.opHandler : sharedHandlers[op];
    table[op] = { opcodeInfo: { code: op, name: `OP${op}`, fee, isAsync: false, dynamicGas: false }, opHandler, gasHandler: undefined };
  }
  return table;
}

/** The opcode table of a fresh EVM of ethereumjs for a hardfork's rules. */
async function evmTableOf(hardfork: string): Promise<object> {
  const { createEVM } = await import("@ethereumjs/evm");
  const { Common, Mainnet } = await import("@ethereumjs/common");
  const evm = await createEVM({ common: new Common({ chain: Mainnet, hardfork }) });
  return (evm as unknown as { _opcodeMap: object })._opcodeMap;
}

/** An analysis that counts its calls and returns a fresh object each time. */
function countingAnalysis(): { analyse: Analyse; calls: () => number } {
  let calls = 0;
  const analyse: Analyse = (code) => {
    calls++;
    return { jumps: code.slice(), pushes: {}, opcodesCached: [] };
  };
  return { analyse, calls: () => calls };
}

// Code bytes that are mostly PUSHes, JUMPDESTs and JUMPs, so the analysis has work to do.
const codeBytes = fc
  .array(fc.oneof(fc.constantFrom(0x5b, 0x56, 0x57, 0x60, 0x61, 0x7f, 0x5f, 0x00), fc.integer({ min: 0, max: 255 })), { maxLength: 200 })
  .map((bytes) => Uint8Array.from(bytes));

describe("engine: the jump-destination analysis is done once per code", () => {
  describe("the memo", () => {
    it("gives the library's own analysis for any code, on the first run and from the memo", () => {
      const library = libraryJumpAnalysis();
      expect(library, "the interpreter's analysis method").to.be.a("function");
      const memoized = memoizedAnalysis(library!);
      const self = interpreterOver(opcodeTable());
      fc.assert(
        fc.property(codeBytes, (code) => {
          const expected = library!.call(self, code);
          expect(memoized.call(self, code)).to.deep.equal(expected);
          expect(memoized.call(self, code.slice())).to.deep.equal(expected);
        }),
      );
    });

    it("analyses equal bytes once, whatever array holds them", () => {
      const { analyse, calls } = countingAnalysis();
      const memoized = memoizedAnalysis(analyse);
      const self = interpreterOver(opcodeTable());
      const first = memoized.call(self, Uint8Array.of(0x60, 0x04, 0x56, 0x00, 0x5b));
      const again = memoized.call(self, new Uint8Array([0xff, 0x60, 0x04, 0x56, 0x00, 0x5b]).subarray(1));
      expect(again).to.equal(first);
      expect(calls()).to.equal(1);
    });

    it("analyses different bytes separately", () => {
      const { analyse, calls } = countingAnalysis();
      const memoized = memoizedAnalysis(analyse);
      const self = interpreterOver(opcodeTable());
      memoized.call(self, Uint8Array.of(0x60, 0x04, 0x56, 0x00, 0x5b));
      memoized.call(self, Uint8Array.of(0x60, 0x04, 0x56, 0x60, 0x5b));
      expect(calls()).to.equal(2);
    });

    it("keeps apart tables whose entries are not shaped like the EVM's (nothing says they run code alike)", () => {
      const { analyse, calls } = countingAnalysis();
      const memoized = memoizedAnalysis(analyse);
      const code = Uint8Array.of(0x60, 0x04, 0x56, 0x00, 0x5b);
      memoized.call(interpreterOver(opcodeTable()), code);
      memoized.call(interpreterOver(opcodeTable()), code);
      expect(calls()).to.equal(2);
    });

    it("shares one memo between the tables of EVMs that run code alike (same opcode information, same handlers)", () => {
      const { analyse, calls } = countingAnalysis();
      const memoized = memoizedAnalysis(analyse);
      const code = Uint8Array.of(0x60, 0x04, 0x56, 0x00, 0x5b);
      const first = memoized.call(interpreterOver(evmLikeTable()), code);
      expect(memoized.call(interpreterOver(evmLikeTable()), code)).to.equal(first);
      expect(calls()).to.equal(1);
    });

    it("keeps apart EVM tables that differ in one handler (an EVM observing code for coverage) or one fee", () => {
      const { analyse, calls } = countingAnalysis();
      const memoized = memoizedAnalysis(analyse);
      const code = Uint8Array.of(0x60, 0x04, 0x56, 0x00, 0x5b);
      memoized.call(interpreterOver(evmLikeTable()), code);
      memoized.call(interpreterOver(evmLikeTable({ op: 0x56, opHandler: () => {} })), code);
      memoized.call(interpreterOver(evmLikeTable({ op: 0x01, fee: 5 })), code);
      expect(calls()).to.equal(3);
    });

    it("gives tables of the engine's EVMs for the same rules one signature, and another for other rules", async () => {
      const [head, pastView, other] = await Promise.all([evmTableOf("cancun"), evmTableOf("cancun"), evmTableOf("shanghai")]);
      expect(head).to.not.equal(pastView);
      expect(opcodeTableSignature(head)).to.be.a("string").and.equal(opcodeTableSignature(pastView));
      expect(opcodeTableSignature(other)).to.not.equal(opcodeTableSignature(head));
    });

    it("analyses again when EIP-8024's immediates apply", () => {
      const { analyse, calls } = countingAnalysis();
      const memoized = memoizedAnalysis(analyse);
      const table = opcodeTable();
      const code = Uint8Array.of(0xe6, 0x5b, 0x56);
      memoized.call(interpreterOver(table, false), code);
      memoized.call(interpreterOver(table, true), code);
      expect(calls()).to.equal(2);
      expect(codeKey(code, true)).to.not.equal(codeKey(code, false));
    });
  });

  describe("in the engine's EVM", () => {
    let chain: TestChain;

    before(async () => {
      chain = await startChain();
    });

    it("is installed on the interpreter the EVM runs", () => {
      expect(jumpAnalysisMemoInstalled()).to.equal(true);
    });

    // Init code run by an eth_call without `to`: PUSH1 4, JUMP, then either a JUMPDEST at 4 and
    // STOP, or a PUSH1 whose data byte at 4 is 0x5b (not a destination).
    const validJump = "0x600456005b00";
    const jumpIntoPushData = "0x600456605b00";

    it("still refuses a jump into PUSH data when the same code runs again", async () => {
      for (let run = 0; run < 2; run++) {
        const error = await rejection(chain.rpc("eth_call", [{ data: jumpIntoPushData }, "latest"]));
        expect(error.message, `run ${run + 1}`).to.match(/invalid JUMP/);
      }
    });

    it("still takes a jump to a JUMPDEST when the same code runs again, between runs of code that differs by one byte", async () => {
      for (const data of [validJump, jumpIntoPushData, validJump]) {
        const outcome = chain.rpc("eth_call", [{ data }, "latest"]);
        if (data === validJump) expect(await outcome).to.equal("0x");
        else await rejection(outcome);
      }
    });
  });
});
