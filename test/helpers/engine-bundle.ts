import * as path from "node:path";

/** The repository's root, where the package build's scripts and node_modules are. */
export const REPO_ROOT = path.join(__dirname, "..", "..");

/** The engine's entry, which the bundle tests bundle from its sources. */
export const ENGINE_SOURCE_ENTRY = path.join(REPO_ROOT, "src", "hardhat", "in-process-engine.ts");

/** What `bundleEngine` reports of a bundle it wrote. */
export interface BuiltBundle {
  bytes: number;
  modules: number;
  patches: { name: string; count: number }[];
}

/** The package build's bundler and its patches (plain JavaScript, run by `npm run build`). */
export interface EngineBundler {
  bundleEngine(entry: string, outfile: string, options?: { everyPatch?: boolean }): Promise<BuiltBundle>;
  ENGINE_BUNDLE_BANNER: string;
  EXTERNAL_PACKAGES: string[];
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const bundler = require(path.join(REPO_ROOT, "scripts", "bundle-engine.js")) as EngineBundler;

/** The packages a bundle leaves outside come from the repository's node_modules, as a user's project has them beside the package. */
export function withRepositoryModules(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, NODE_PATH: path.join(REPO_ROOT, "node_modules") };
}
