/**
 * A source map's byte range as a person reads it: the file, the line, and the contract and
 * function it lies in (from the compiler's syntax tree).
 */
import type { AstNode, CompiledContract, CompiledSource } from "./build-infos";
import type { SourceRange } from "./source-map";

export interface SourceLocation {
  readonly sourceName: string;
  /** 1-based. */
  readonly line: number;
  readonly contractName: string | undefined;
  /** `withdraw`, `constructor`, `<fallback>`, `<receive>`, or a modifier's name. */
  readonly functionName: string | undefined;
}

/** A definition's byte range in its file. */
interface Definition {
  readonly start: number;
  readonly end: number;
  readonly name: string;
}

interface IndexedSource {
  readonly lineStarts: number[];
  readonly contracts: Definition[];
  readonly functions: Definition[];
}

const indexed = new WeakMap<CompiledSource, IndexedSource>();

/** Where a source range lies; undefined for code the compiler made up (no file of the compilation). */
export function sourceLocationOf(contract: CompiledContract, range: SourceRange): SourceLocation | undefined {
  if (range.file < 0) return undefined;
  const source = contract.sources.get(range.file);
  if (source === undefined) return undefined;
  const index = indexOf(source);
  return {
    sourceName: source.name,
    line: lineOf(index.lineStarts, range.start),
    contractName: innermost(index.contracts, range)?.name,
    functionName: innermost(index.functions, range)?.name,
  };
}

function indexOf(source: CompiledSource): IndexedSource {
  let index = indexed.get(source);
  if (index === undefined) {
    const contracts: Definition[] = [];
    const functions: Definition[] = [];
    if (source.ast !== undefined) collectDefinitions(source.ast, contracts, functions);
    index = { lineStarts: lineStartsOf(source.content), contracts, functions };
    indexed.set(source, index);
  }
  return index;
}

/** Byte offsets (UTF-8, as source maps count) at which each line begins. */
function lineStartsOf(content: string): number[] {
  const bytes = Buffer.from(content, "utf8");
  const starts = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) starts.push(i + 1);
  return starts;
}

function lineOf(lineStarts: readonly number[], offset: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (lineStarts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}

function collectDefinitions(node: AstNode, contracts: Definition[], functions: Definition[]): void {
  if (node.nodeType === "ContractDefinition" && typeof node.name === "string") contracts.push(definitionOf(node, node.name));
  else if (node.nodeType === "FunctionDefinition") functions.push(definitionOf(node, functionNameOf(node)));
  else if (node.nodeType === "ModifierDefinition" && typeof node.name === "string") functions.push(definitionOf(node, node.name));
  for (const child of node.nodes ?? []) collectDefinitions(child, contracts, functions);
}

function functionNameOf(node: AstNode): string {
  if (node.kind === "constructor") return "constructor";
  if (node.kind === "fallback") return "<fallback>";
  if (node.kind === "receive") return "<receive>";
  return typeof node.name === "string" && node.name !== "" ? node.name : "<function>";
}

function definitionOf(node: AstNode, name: string): Definition {
  const [start, length] = node.src.split(":").map(Number);
  return { start: start!, end: start! + length!, name };
}

/** The smallest definition that holds the range. */
function innermost(definitions: readonly Definition[], range: SourceRange): Definition | undefined {
  let best: Definition | undefined;
  for (const definition of definitions) {
    if (definition.start > range.start || definition.end < range.start + range.length) continue;
    if (best === undefined || definition.end - definition.start < best.end - best.start) best = definition;
  }
  return best;
}
