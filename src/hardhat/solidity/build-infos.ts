/**
 * The project's compiled contracts, read from the build infos Hardhat writes under
 * `<artifacts>/build-info`: Hardhat 2 keeps a compilation's input and output in one file
 * (`hh-sol-build-info-1`); Hardhat 3 writes the input to `<id>.json` and the output to
 * `<id>.output.json` (`hh3-sol-build-info-1`), and names project sources `project/<path>`, with
 * a map back to the names users write. Only what stack traces, gas reports and coverage need is
 * kept: each contract's bytecodes with their source maps, its selectors, and its sources' text
 * and syntax trees.
 */
import fs from "node:fs";
import path from "node:path";

/** One of a contract's two bytecodes (creation or runtime), as the compiler gave it. */
export interface CompiledBytecode {
  /** Hex, without 0x; library placeholders (`__$...$__`) left in place. */
  readonly object: string;
  readonly sourceMap: string;
  /** Byte ranges of library addresses to link: `{ file: { library: [{ start, length }] } }`. */
  readonly linkReferences: Record<string, Record<string, ReadonlyArray<{ start: number; length: number }>>>;
  /** Byte ranges of immutables in the runtime code, by AST id. */
  readonly immutableReferences: Record<string, ReadonlyArray<{ start: number; length: number }>>;
}

/** A source file of a compilation, by the id its source maps use. */
export interface CompiledSource {
  /** The name users know it by: `contracts/Lock.sol`, `nativekit/contracts/...`. */
  readonly name: string;
  readonly content: string;
  readonly ast: AstNode | undefined;
}

/** The few fields of a solc AST node that locating a function needs. */
export interface AstNode {
  readonly nodeType: string;
  readonly src: string;
  readonly name?: string;
  readonly kind?: string;
  readonly nodes?: readonly AstNode[];
  readonly [key: string]: unknown;
}

export interface CompiledContract {
  /** The source's name as users write it. */
  readonly sourceName: string;
  /** The source's name in the compiler's input (Hardhat 3: `project/contracts/Lock.sol`). */
  readonly compilerSourceName: string;
  readonly contractName: string;
  readonly creation: CompiledBytecode;
  readonly runtime: CompiledBytecode;
  /** `{ "transfer(address,uint256)": "a9059cbb" }`. */
  readonly methodIdentifiers: Readonly<Record<string, string>>;
  /** The custom errors of the contract's ABI (what its reverts can carry). */
  readonly errors: readonly AbiError[];
  /** The compilation's sources, by source-map file index. */
  readonly sources: ReadonlyMap<number, CompiledSource>;
}

/** A custom error as the ABI describes it. */
export interface AbiError {
  readonly type: "error";
  readonly name: string;
  readonly inputs: readonly unknown[];
}

interface SolcContractOutput {
  abi?: ReadonlyArray<{ type?: string }>;
  evm?: {
    bytecode?: Partial<CompiledBytecode>;
    deployedBytecode?: Partial<CompiledBytecode>;
    methodIdentifiers?: Record<string, string>;
  };
}

interface SolcOutput {
  contracts?: Record<string, Record<string, SolcContractOutput>>;
  sources?: Record<string, { id: number; ast?: AstNode }>;
}

interface SolcInput {
  sources?: Record<string, { content?: string }>;
}

interface BuildInfoFile {
  _format?: string;
  input?: SolcInput;
  output?: SolcOutput;
  userSourceNameMap?: Record<string, string>;
}

/**
 * Every contract with bytecode in the build infos under `artifactsDir` (none if there are none).
 * Read synchronously: a failure's stack trace is made when a person or a test runner reads the
 * error's message or stack, which cannot wait.
 */
export function readCompiledContracts(artifactsDir: string): CompiledContract[] {
  const directory = path.join(artifactsDir, "build-info");
  let names: string[];
  try {
    names = fs.readdirSync(directory);
  } catch {
    return [];
  }
  const contracts: CompiledContract[] = [];
  for (const name of names.sort()) {
    if (!name.endsWith(".json") || name.endsWith(".output.json")) continue;
    const info = readJson<BuildInfoFile>(path.join(directory, name));
    if (info?.input === undefined) continue;
    const output = info.output ?? readJson<{ output?: SolcOutput }>(path.join(directory, name.replace(/\.json$/, ".output.json")))?.output;
    if (output === undefined) continue;
    contracts.push(...contractsOf(info.input, output, info.userSourceNameMap ?? {}));
  }
  return contracts;
}

/** Changes when a compilation adds, removes or rewrites a build info. */
export function buildInfoVersion(artifactsDir: string): string {
  const directory = path.join(artifactsDir, "build-info");
  try {
    return fs
      .readdirSync(directory)
      .map((name) => `${name}@${fs.statSync(path.join(directory, name)).mtimeMs}`)
      .sort()
      .join("|");
  } catch {
    return "none";
  }
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as T;
  } catch {
    // A build info being rewritten by a compilation, or one that is not ours: skipped.
    return undefined;
  }
}

function contractsOf(input: SolcInput, output: SolcOutput, userSourceNameMap: Record<string, string>): CompiledContract[] {
  const userNames = new Map(Object.entries(userSourceNameMap).map(([user, internal]) => [internal, user]));
  const displayName = (name: string) => userNames.get(name) ?? name;
  const sources = new Map<number, CompiledSource>();
  for (const [name, source] of Object.entries(output.sources ?? {})) {
    sources.set(source.id, { name: displayName(name), content: input.sources?.[name]?.content ?? "", ast: source.ast });
  }
  const contracts: CompiledContract[] = [];
  for (const [sourceName, byName] of Object.entries(output.contracts ?? {})) {
    for (const [contractName, contract] of Object.entries(byName)) {
      const creation = bytecodeOf(contract.evm?.bytecode);
      const runtime = bytecodeOf(contract.evm?.deployedBytecode);
      // Interfaces and abstract contracts have no code to recognise.
      if (creation === undefined || runtime === undefined || creation.object.length === 0) continue;
      const errors = (contract.abi ?? []).filter((entry): entry is AbiError => entry.type === "error");
      contracts.push({ sourceName: displayName(sourceName), compilerSourceName: sourceName, contractName, creation, runtime, methodIdentifiers: contract.evm?.methodIdentifiers ?? {}, errors, sources });
    }
  }
  return contracts;
}

function bytecodeOf(bytecode: Partial<CompiledBytecode> | undefined): CompiledBytecode | undefined {
  if (bytecode === undefined || typeof bytecode.object !== "string") return undefined;
  return {
    object: bytecode.object.replace(/^0x/, ""),
    sourceMap: bytecode.sourceMap ?? "",
    linkReferences: bytecode.linkReferences ?? {},
    immutableReferences: bytecode.immutableReferences ?? {},
  };
}
