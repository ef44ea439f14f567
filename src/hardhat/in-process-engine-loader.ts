/**
 * Loads what the in-process network runs (in-process-engine.ts), once per thread: Hardhat 3's
 * network hooks and the engine thread, and Hardhat 2's network provider (provider.ts).
 *
 * In the package, in-process-engine.js is the single-file bundle the build makes
 * (scripts/bundle-engine.js). It is compiled here with a V8 code cache that holds every function
 * the previous run compiled, not only the top level: Node's own compile cache (which the plugin
 * enables) is written before the code runs, so without this each run compiles again, lazily, the
 * few thousand engine functions its first requests reach. The cache is written when a process
 * ends having found none it could use (V8 refuses one made by another Node.js version, other
 * flags or other source), to a file named by the bundle's size and time and the Node.js version,
 * in a directory of the user's own under the system's temporary directory, beside Node's compile
 * cache; the newest `CODE_CACHES_KEPT` such files are kept. `NODE_DISABLE_COMPILE_CACHE` turns it
 * off, as it turns off Node's.
 *
 * Run from the sources (ts-node, tsx), there is no bundle: the module is imported as any other.
 */
import * as fs from "node:fs";
import Module from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import * as vm from "node:vm";
import { isMainThread } from "node:worker_threads";

type InProcessEngine = typeof import("./in-process-engine");

/** The first line the bundler writes, by which the compiled module is known to be the bundle. */
export const ENGINE_BUNDLE_BANNER = "/* nativekit: the in-process engine, bundled (scripts/bundle-engine.js) */";

/**
 * What became of the code cache on this thread's load. "not private": its directory is not this
 * user's alone (isPrivateDirectory), and "no directory": it could not be made (a read-only
 * temporary directory); either way no cache was read or written.
 */
export type EngineCodeCache = "not loaded" | "no bundle" | "off" | "not private" | "no directory" | "none yet" | "used" | "refused";

let loaded: Promise<InProcessEngine> | undefined;
let codeCache: EngineCodeCache = "not loaded";

export function loadInProcessEngine(): Promise<InProcessEngine> {
  loaded ??= Promise.resolve().then(load);
  return loaded;
}

/** How this thread's load used the code cache (for tests and diagnostics). */
export function engineCodeCache(): EngineCodeCache {
  return codeCache;
}

/**
 * The directory the code cache is kept in: one per user where the system has user IDs, since the
 * temporary directory is shared and each user's caches must be theirs alone (isPrivateDirectory).
 */
export function engineCodeCacheDirectory(): string {
  const uid = process.getuid?.();
  return path.join(os.tmpdir(), uid === undefined ? "nativekit-engine-code-cache" : `nativekit-engine-code-cache-${uid}`);
}

/** What isPrivateDirectory reads of a directory: its type, owner and permission bits. */
export interface DirectoryStats {
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  uid: number;
  mode: number;
}

/**
 * Whether a directory can hold code this process will run: V8 runs a code cache's bytecode as it
 * finds it (its checks are against corruption, not forgery), so a cache planted by another user of
 * a shared temporary directory would run as this one. The directory must be a real directory
 * (not a link), this user's (`uid`; none on Windows, whose temporary directory is per user), and
 * writable by nobody else.
 */
export function isPrivateDirectory(stats: DirectoryStats, uid: number | undefined): boolean {
  if (!stats.isDirectory() || stats.isSymbolicLink()) return false;
  if (uid === undefined) return true;
  return stats.uid === uid && (stats.mode & 0o022) === 0;
}

/** Makes the cache's directory if missing (this user's alone), and says whether it can be used. */
function openCacheDirectory(directory: string): "private" | "not private" | "no directory" {
  try {
    fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
    return isPrivateDirectory(fs.lstatSync(directory), process.getuid?.()) ? "private" : "not private";
  } catch {
    return "no directory";
  }
}

function load(): InProcessEngine {
  const file = path.join(__dirname, "in-process-engine.js");
  let source: string | undefined;
  try {
    source = fs.readFileSync(file, "utf8");
  } catch {
    // Run from the TypeScript sources: no compiled file beside this one.
  }
  if (source === undefined || !source.startsWith(ENGINE_BUNDLE_BANNER)) {
    codeCache = "no bundle";
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require("./in-process-engine") as InProcessEngine;
  }
  if (process.env.NODE_DISABLE_COMPILE_CACHE !== undefined) {
    codeCache = "off";
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require("./in-process-engine") as InProcessEngine;
  }
  return compileWithCodeCache(file, source);
}

function cacheFileOf(file: string, directory: string): string {
  const { size, mtimeMs } = fs.statSync(file);
  return path.join(directory, `engine-${size}-${Math.trunc(mtimeMs)}-${process.version}-${process.arch}.bin`);
}

/** Runs the bundle as Node runs a CommonJS module, compiled with the code cache when there is one. */
function compileWithCodeCache(file: string, source: string): InProcessEngine {
  const directory = engineCodeCacheDirectory();
  const opened = openCacheDirectory(directory);
  const cacheFile = opened === "private" ? cacheFileOf(file, directory) : undefined;
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile !== undefined) cachedData = fs.readFileSync(cacheFile);
  } catch {
    // None yet.
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  if (opened !== "private") codeCache = opened;
  else codeCache = cachedData === undefined ? "none yet" : script.cachedDataRejected === true ? "refused" : "used";
  const engineModule = new Module(file, module);
  engineModule.filename = file;
  engineModule.paths = (Module as unknown as { _nodeModulePaths(from: string): string[] })._nodeModulePaths(path.dirname(file));
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  const moduleRequire = Module.createRequire(file);
  // As Node's loader does: one instance for any later require of the same file.
  moduleRequire.cache[file] = engineModule;
  wrapper.call(engineModule.exports, engineModule.exports, moduleRequire, engineModule, file, path.dirname(file));
  engineModule.loaded = true;
  // The cache is made when the run ends, so it holds the functions the run compiled.
  if (cacheFile !== undefined && codeCache !== "used" && isMainThread) process.once("exit", () => writeCodeCache(script, cacheFile));
  return engineModule.exports as InProcessEngine;
}

/** Written beside and renamed over, so a process reading it never sees half a file. */
function writeCodeCache(script: vm.Script, cacheFile: string): void {
  try {
    const partial = `${cacheFile}.${process.pid}`;
    fs.writeFileSync(partial, script.createCachedData());
    fs.renameSync(partial, cacheFile);
    pruneCodeCaches(path.dirname(cacheFile), cacheFile);
  } catch {
    // A cache is an optimisation: a read-only temporary directory only makes the next run compile.
  }
}

/** How many code caches the directory keeps: one per build of the bundle and Node.js version in use. */
export const CODE_CACHES_KEPT = 8;

/** A cache half-written this long ago belongs to a process that died before renaming it. */
export const ABANDONED_PARTIAL_MS = 10 * 60 * 1000;

/**
 * Every install or build of the package, and every Node.js version, makes a cache of its own
 * (about 2 MB); without this they would pile up. The newest files are kept: a project still on
 * an older build whose cache goes only compiles once more, and writes it again. Partial files
 * (`<cache>.<pid>`) old enough that no live process is still writing them go too.
 */
function pruneCodeCaches(directory: string, written: string): void {
  const files = fs
    .readdirSync(directory)
    .filter((name) => /^engine-.*\.bin(\.\d+)?$/.test(name))
    .map((name) => path.join(directory, name))
    .filter((file) => file !== written)
    .flatMap((file) => {
      try {
        return [{ file, mtimeMs: fs.statSync(file).mtimeMs }];
      } catch {
        return []; // removed meanwhile by another process's pruning
      }
    });
  const caches = files.filter(({ file }) => file.endsWith(".bin")).sort((a, b) => b.mtimeMs - a.mtimeMs);
  const abandoned = files.filter(({ file, mtimeMs }) => !file.endsWith(".bin") && Date.now() - mtimeMs > ABANDONED_PARTIAL_MS);
  for (const { file } of [...caches.slice(CODE_CACHES_KEPT - 1), ...abandoned]) fs.rmSync(file, { force: true });
}
