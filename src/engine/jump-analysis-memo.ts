/**
 * The EVM's jump-destination analysis, done once per code instead of once per call.
 *
 * On the first JUMP of every message call, ethereumjs' interpreter scans the whole code: it
 * marks the JUMPDESTs, converts every PUSH's immediate to a bigint and looks up every opcode's
 * entry. Nothing keeps the result, so each eth_call and each transaction analyses the same
 * contract again: a tenth of a warmed-up eth_call to a token's balanceOf (0.53 → 0.48 ms over
 * 3000 calls; in a fresh process's first 30 calls the difference is lost in the noise). geth
 * keeps the analysis per code hash for the same reason.
 *
 * The analysis is a function of the code, the EVM's opcode table (its entries are what the
 * interpreter dispatches on) and whether EIP-8024's immediates are skipped; the interpreter only
 * reads it. So it is kept per opcode table (a table is made per EVM and replaced on a hardfork
 * change), keyed by the code's bytes.
 *
 * How: the Interpreter class is not exported by @ethereumjs/evm, so it is reached by its file
 * (beside the package's CommonJS entry), and its one analysis method is wrapped — not copied: a
 * miss calls the library's own method. Should a later version move or rename it, nothing is
 * wrapped, the EVM runs as before, and `jumpAnalysisMemoInstalled()` (checked by a test) says so.
 */
import * as path from "node:path";

import { GenerationalMemo } from "./generational-memo";

/** What the interpreter's analysis returns (it reads these and never writes them). */
export interface JumpAnalysis {
  readonly jumps: Uint8Array;
  readonly pushes: Readonly<Record<number, bigint>>;
  readonly opcodesCached: readonly unknown[];
}

export interface AnalysingInterpreter {
  readonly _evm: { readonly _opcodeMap: object };
  readonly common: { isActivatedEIP(eip: number): boolean };
  _getValidJumpDestinations(code: Uint8Array): JumpAnalysis;
}

export type Analyse = (this: AnalysingInterpreter, code: Uint8Array) => JumpAnalysis;

/**
 * Code bytes kept per opcode table and generation: about fifty 10 KB contracts. An analysis takes
 * up to about seventeen times its code's size (a pointer per byte, a bigint per PUSH: 403 KB for
 * 24 KB of PUSH-heavy code), so the head's memo stays under about 20 MB however many contracts a
 * suite deploys.
 */
const CODE_BYTES_PER_GENERATION = 512 * 1024;

/** Marks the wrapper, and holds the library's own method it wraps. */
const MEMOIZED = Symbol("nativekit.memoizedJumpAnalysis");

/** The memo key: the code's bytes as a one-byte string, after whether EIP-8024 applies. */
export function codeKey(code: Uint8Array, eip8024: boolean): string {
  return (eip8024 ? "1" : "0") + Buffer.from(code.buffer, code.byteOffset, code.byteLength).toString("latin1");
}

/** The library's analysis wrapped with a memo per opcode table. */
export function memoizedAnalysis(analyse: Analyse): Analyse {
  // Few tables live at once (one per EVM: the head's and the past-block views'), and a table's
  // memo goes with it.
  const memos = new WeakMap<object, GenerationalMemo<string, JumpAnalysis>>();
  const memoized = function (this: AnalysingInterpreter, code: Uint8Array): JumpAnalysis {
    const table = this._evm._opcodeMap;
    let memo = memos.get(table);
    if (memo === undefined) {
      memo = new GenerationalMemo<string, JumpAnalysis>(CODE_BYTES_PER_GENERATION, (key) => key.length);
      memos.set(table, memo);
    }
    const key = codeKey(code, this.common.isActivatedEIP(8024));
    let analysis = memo.get(key);
    if (analysis === undefined) {
      analysis = analyse.call(this, code);
      memo.set(key, analysis);
    }
    return analysis;
  };
  return Object.assign(memoized, { [MEMOIZED]: analyse });
}

type InterpreterModule = { Interpreter?: { prototype?: Partial<AnalysingInterpreter> } };

/**
 * The interpreter's file. The package's exports do not list it, so Node refuses the literal path
 * and the file is found beside the entry; the literal path is there for the package build's
 * bundle (scripts/bundle-engine.js resolves it to the file), where the entry's directory is not
 * the bundle's and only a literal path reaches the same Interpreter class the bundled EVM runs.
 */
function interpreterModule(): InterpreterModule {
  try {
    return require("@ethereumjs/evm/dist/cjs/interpreter.js") as InterpreterModule;
  } catch {
    const entry = require.resolve("@ethereumjs/evm");
    return require(path.join(path.dirname(entry), "interpreter.js")) as InterpreterModule;
  }
}

function interpreterPrototype(): Partial<AnalysingInterpreter> | undefined {
  try {
    return interpreterModule().Interpreter?.prototype;
  } catch {
    return undefined;
  }
}

let installed = false;

/** Wraps the interpreter's analysis once per process; true when it is (or already was) wrapped. */
export function installJumpAnalysisMemo(): boolean {
  if (installed) return true;
  const prototype = interpreterPrototype();
  const analyse = prototype?._getValidJumpDestinations;
  if (prototype === undefined || typeof analyse !== "function") return false;
  if (!(MEMOIZED in analyse)) prototype._getValidJumpDestinations = memoizedAnalysis(analyse as Analyse);
  installed = true;
  return true;
}

/** Whether the EVM's interpreter analyses each code once (see the module comment). */
export function jumpAnalysisMemoInstalled(): boolean {
  const analyse = interpreterPrototype()?._getValidJumpDestinations;
  return typeof analyse === "function" && MEMOIZED in analyse;
}

/** The library's own analysis, unwrapped (undefined when this ethereumjs has none where expected). */
export function libraryJumpAnalysis(): Analyse | undefined {
  const analyse = interpreterPrototype()?._getValidJumpDestinations as (Analyse & { [MEMOIZED]?: Analyse }) | undefined;
  if (typeof analyse !== "function") return undefined;
  return analyse[MEMOIZED] ?? analyse;
}
