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
 * reads it. So it is kept per opcode table, keyed by the code's bytes. A table is made per EVM,
 * and the engine makes an EVM for each past block a call reads (the matchers read the block
 * before the head after each transaction): tables whose entries run code alike (the same opcode
 * information and the same handler functions) share one memo, so a token's code is analysed once
 * per run instead of once per block read (eleven times in the ERC-20 suite of the benchmark).
 *
 * How: the Interpreter class is not exported by @ethereumjs/evm, so it is reached by its file
 * (interpreter-class.ts), and its one analysis method is wrapped — not copied: a
 * miss calls the library's own method. Should a later version move or rename it, nothing is
 * wrapped, the EVM runs as before, and `jumpAnalysisMemoInstalled()` (checked by a test) says so.
 */
import { GenerationalMemo } from "./generational-memo";
import { interpreterPrototype } from "./interpreter-class";

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

type AnalysisMemo = GenerationalMemo<string, JumpAnalysis>;

/** What the interpreter reads of a table entry: the opcode's information and its two handlers. */
interface OpcodeEntry {
  readonly opcodeInfo?: { readonly code?: unknown; readonly name?: unknown; readonly fee?: unknown; readonly isAsync?: unknown; readonly dynamicGas?: unknown };
  readonly opHandler?: unknown;
  readonly gasHandler?: unknown;
}

/** A number per handler function, so a signature can name it. */
const handlerIds = new WeakMap<object, number>();
let nextHandlerId = 1;

function handlerId(handler: unknown): number {
  if (typeof handler !== "function") return 0;
  let id = handlerIds.get(handler);
  if (id === undefined) {
    id = nextHandlerId++;
    handlerIds.set(handler, id);
  }
  return id;
}

/**
 * What makes two opcode tables run code alike: per opcode, its information and its handler
 * functions (by identity: an EVM that observes code for coverage has handlers of its own).
 * Undefined for a table whose entries are not shaped like the EVM's: it shares with none.
 */
export function opcodeTableSignature(table: object): string | undefined {
  const entries = table as Record<number, OpcodeEntry | undefined>;
  const parts: string[] = [];
  for (let op = 0; op < 256; op++) {
    const entry = entries[op];
    const info = entry?.opcodeInfo;
    if (entry === undefined || info === undefined) return undefined;
    parts.push(`${String(info.code)}:${String(info.name)}:${String(info.fee)}:${String(info.isAsync)}:${String(info.dynamicGas)}:${handlerId(entry.opHandler)}:${handlerId(entry.gasHandler)}`);
  }
  return parts.join(",");
}

/** The library's analysis wrapped with a memo per opcode table, shared by tables that run code alike. */
export function memoizedAnalysis(analyse: Analyse): Analyse {
  // A table holds its memo; tables alike find it by their signature while any of them lives
  // (a weak reference: the memo goes with the last of them).
  const memos = new WeakMap<object, AnalysisMemo>();
  const shared = new Map<string, WeakRef<AnalysisMemo>>();
  const memoOf = (table: object): AnalysisMemo => {
    let memo = memos.get(table);
    if (memo !== undefined) return memo;
    const signature = opcodeTableSignature(table);
    memo = signature === undefined ? undefined : shared.get(signature)?.deref();
    if (memo === undefined) {
      memo = new GenerationalMemo<string, JumpAnalysis>(CODE_BYTES_PER_GENERATION, (key) => key.length);
      if (signature !== undefined) {
        for (const [known, ref] of shared) if (ref.deref() === undefined) shared.delete(known);
        shared.set(signature, new WeakRef(memo));
      }
    }
    memos.set(table, memo);
    return memo;
  };
  const memoized = function (this: AnalysingInterpreter, code: Uint8Array): JumpAnalysis {
    const memo = memoOf(this._evm._opcodeMap);
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

let installed = false;

/** Wraps the interpreter's analysis once per process; true when it is (or already was) wrapped. */
export function installJumpAnalysisMemo(): boolean {
  if (installed) return true;
  const prototype = interpreterPrototype<AnalysingInterpreter>();
  const analyse = prototype?._getValidJumpDestinations;
  if (prototype === undefined || typeof analyse !== "function") return false;
  if (!(MEMOIZED in analyse)) prototype._getValidJumpDestinations = memoizedAnalysis(analyse as Analyse);
  installed = true;
  return true;
}

/** Whether the EVM's interpreter analyses each code once (see the module comment). */
export function jumpAnalysisMemoInstalled(): boolean {
  const analyse = interpreterPrototype<AnalysingInterpreter>()?._getValidJumpDestinations;
  return typeof analyse === "function" && MEMOIZED in analyse;
}

/** The library's own analysis, unwrapped (undefined when this ethereumjs has none where expected). */
export function libraryJumpAnalysis(): Analyse | undefined {
  const analyse = interpreterPrototype<AnalysingInterpreter>()?._getValidJumpDestinations as (Analyse & { [MEMOIZED]?: Analyse }) | undefined;
  if (typeof analyse !== "function") return undefined;
  return analyse[MEMOIZED] ?? analyse;
}
