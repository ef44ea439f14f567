/**
 * ethereumjs' Interpreter class, which @ethereumjs/evm does not export: the engine wraps two of
 * its methods (the jump-destination analysis, jump-analysis-memo.ts; the step while a failure is
 * replayed, instruction-recorder.ts), never copies them.
 */
import * as path from "node:path";

type InterpreterModule = { Interpreter?: { prototype?: object } };

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

/** The Interpreter's prototype, as the methods a caller reads of it (undefined if this ethereumjs has none where expected). */
export function interpreterPrototype<T extends object>(): Partial<T> | undefined {
  try {
    return interpreterModule().Interpreter?.prototype as Partial<T> | undefined;
  } catch {
    return undefined;
  }
}
