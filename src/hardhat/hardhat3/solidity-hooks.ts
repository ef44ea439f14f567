/**
 * Hardhat 3's solidity hooks: the bundled solc-js compiler (config-hooks.ts gives it to every
 * build profile that asks for its version) is handed to the build system without being loaded.
 *
 * Hardhat's own handler for a compiler given by path loads the compiler script into the process
 * to read its version, on every build, also when every file is cached and nothing compiles: for
 * solc-js that is a 9 MB script, about a third of a second of each `hardhat test`. The version
 * is known without it (solc-bundle.ts), so the compiler is loaded, by Hardhat's handler, only
 * when something is compiled.
 */
import { solcjsCompilerPath, solcjsLongVersion, solcjsVersion } from "../solc-bundle";
import type { Hardhat3Compiler, Hardhat3CompilerConfig, HookContext, SolidityHooks } from "./types";

/** As Hardhat reads a compiler's long version from what it prints: `0.8.28+commit.7893614a`. */
const LONG_VERSION = /\d+\.\d+\.\d+\+commit\.\w+/;

function isBundled(config: Hardhat3CompilerConfig): boolean {
  return (config.type === undefined || config.type === "solc") && config.version === solcjsVersion() && config.path === solcjsCompilerPath();
}

/** The bundled compiler as Hardhat describes it, loaded by `load` at its first compilation. */
export function deferredBundledCompiler(config: Hardhat3CompilerConfig, load: () => Promise<Hardhat3Compiler>): Hardhat3Compiler | undefined {
  const longVersion = LONG_VERSION.exec(solcjsLongVersion())?.[0];
  if (longVersion === undefined) return undefined;
  let loaded: Promise<Hardhat3Compiler> | undefined;
  return {
    version: config.version,
    longVersion,
    compilerPath: solcjsCompilerPath(),
    isSolcJs: true,
    async compile(input) {
      loaded ??= load();
      return (await loaded).compile(input);
    },
  };
}

export async function getCompiler(
  context: HookContext,
  config: Hardhat3CompilerConfig,
  next: (context: HookContext, config: Hardhat3CompilerConfig) => Promise<Hardhat3Compiler>,
): Promise<Hardhat3Compiler> {
  if (!isBundled(config)) return next(context, config);
  return deferredBundledCompiler(config, () => next(context, config)) ?? next(context, config);
}

export default async (): Promise<Partial<SolidityHooks>> => ({ getCompiler });
