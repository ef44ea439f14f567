/**
 * Which of the project's contracts a piece of code is: runtime code (a call's target) or
 * creation code (a deployment's, constructor arguments after it). Stack traces name contracts
 * and lines with it; gas reports name contracts and functions.
 */
import { bytesToHex } from "../../encoding/hex";
import { type CompiledBytecode, type CompiledContract, readCompiledContracts } from "./build-infos";
import { compiledBytes, instructionIndexes, isJumpDestination, maskedRanges, matchesCompiled } from "./bytecode";
import { decodeSourceMap, type SourceRange } from "./source-map";

export type CodeKind = "creation" | "runtime";

/** A recognised contract, with what names its functions and locates its instructions. */
export interface IdentifiedContract {
  readonly sourceName: string;
  readonly contractName: string;
  /** `contracts/Lock.sol:Lock`. */
  readonly fqn: string;
  /** The name in the compiler's input: `project/contracts/Lock.sol:Lock` under Hardhat 3 (its gas reports use it). */
  readonly compilerFqn: string;
  readonly compiled: CompiledContract;
  readonly kind: CodeKind;
  /** Length of the compiled runtime code. */
  readonly runtimeSize: number;
  /** `withdraw()` for a selector of this contract, or undefined. */
  functionSignature(selector: Uint8Array): string | undefined;
  /** The source range of the instruction at `pc` of code of this kind. */
  sourceRangeAt(pc: number): SourceRange | undefined;
  /** Whether `pc` is a JUMPDEST of this code (an internal call's return address can only be one). */
  isJumpDestination(pc: number): boolean;
  /** The byte at `pc` of the compiled code. */
  opcodeAt(pc: number): number | undefined;
}

/** A contract's bytecode prepared for matching and locating, made when first needed. */
class PreparedBytecode {
  private bytesMemo: Uint8Array | undefined;
  private maskedMemo: Array<[number, number]> | undefined;
  private indexesMemo: Int32Array | undefined;
  private rangesMemo: SourceRange[] | undefined;

  constructor(
    private readonly bytecode: CompiledBytecode,
    private readonly kind: CodeKind,
  ) {}

  get byteLength(): number {
    return this.bytecode.object.length / 2;
  }

  get bytes(): Uint8Array {
    return (this.bytesMemo ??= compiledBytes(this.bytecode.object));
  }

  matches(code: Uint8Array): boolean {
    if (this.kind === "runtime" ? code.length !== this.byteLength : code.length < this.byteLength) return false;
    this.maskedMemo ??= maskedRanges(this.bytecode, this.bytes, this.kind);
    return matchesCompiled(code, this.bytes, this.maskedMemo);
  }

  sourceRangeAt(pc: number): SourceRange | undefined {
    const indexes = (this.indexesMemo ??= instructionIndexes(this.bytes));
    if (pc < 0 || pc >= indexes.length) return undefined;
    const ranges = (this.rangesMemo ??= decodeSourceMap(this.bytecode.sourceMap));
    return ranges[indexes[pc]!];
  }

  isJumpDestination(pc: number): boolean {
    return isJumpDestination(this.bytes, (this.indexesMemo ??= instructionIndexes(this.bytes)), pc);
  }
}

class Candidate {
  readonly creation: PreparedBytecode;
  readonly runtime: PreparedBytecode;
  private readonly selectors: Map<string, string>;

  constructor(readonly compiled: CompiledContract) {
    this.creation = new PreparedBytecode(compiled.creation, "creation");
    this.runtime = new PreparedBytecode(compiled.runtime, "runtime");
    this.selectors = new Map(Object.entries(compiled.methodIdentifiers).map(([signature, selector]) => [selector.toLowerCase(), signature]));
  }

  identified(kind: CodeKind): IdentifiedContract {
    const { compiled } = this;
    const bytecode = kind === "creation" ? this.creation : this.runtime;
    return {
      sourceName: compiled.sourceName,
      contractName: compiled.contractName,
      fqn: `${compiled.sourceName}:${compiled.contractName}`,
      compilerFqn: `${compiled.compilerSourceName}:${compiled.contractName}`,
      compiled,
      kind,
      runtimeSize: this.runtime.byteLength,
      functionSignature: (selector) => (selector.length < 4 ? undefined : this.selectors.get(selectorHex(selector))),
      sourceRangeAt: (pc) => bytecode.sourceRangeAt(pc),
      isJumpDestination: (pc) => bytecode.isJumpDestination(pc),
      opcodeAt: (pc) => bytecode.bytes[pc],
    };
  }
}

function selectorHex(selector: Uint8Array): string {
  return bytesToHex(selector.subarray(0, 4)).slice(2);
}

export class ContractIdentifier {
  private readonly candidates: Candidate[];
  private readonly known = new Map<string, IdentifiedContract | null>();

  constructor(contracts: readonly CompiledContract[]) {
    this.candidates = contracts.map((contract) => new Candidate(contract));
  }

  get size(): number {
    return this.candidates.length;
  }

  /** The contract whose code this is, or undefined for code the build infos do not have. */
  identify(code: Uint8Array, kind: CodeKind): IdentifiedContract | undefined {
    if (code.length === 0) return undefined;
    const key = `${kind}:${code.length}:${Buffer.from(code.buffer, code.byteOffset, code.byteLength).toString("base64")}`;
    const known = this.known.get(key);
    if (known !== undefined) return known ?? undefined;
    const found = this.search(code, kind);
    this.known.set(key, found ?? null);
    return found;
  }

  private search(code: Uint8Array, kind: CodeKind): IdentifiedContract | undefined {
    let best: Candidate | undefined;
    for (const candidate of this.candidates) {
      const bytecode = kind === "creation" ? candidate.creation : candidate.runtime;
      if (!bytecode.matches(code)) continue;
      // Creation code is matched as a prefix: the longest match is the contract (a shorter one
      // could be a contract whose creation code happens to begin another's).
      if (best === undefined || bytecode.byteLength > (kind === "creation" ? best.creation : best.runtime).byteLength) best = candidate;
    }
    return best?.identified(kind);
  }
}

/** The contracts of the build infos under `artifactsDir`, ready to recognise code. */
export function readContractIdentifier(artifactsDir: string): ContractIdentifier {
  return new ContractIdentifier(readCompiledContracts(artifactsDir));
}

/** The same, for callers that can wait (gas reports). */
export async function loadContractIdentifier(artifactsDir: string): Promise<ContractIdentifier> {
  return readContractIdentifier(artifactsDir);
}
