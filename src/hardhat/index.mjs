// nativekit/hardhat as an ES module: what a Hardhat 3 project's hardhat.config.ts imports.
//
//   import nativekit from "nativekit/hardhat";
//   export default defineConfig({ plugins: [hardhatToolboxMochaEthers, nativekit], ... });
//
// One import path serves both majors: in a Hardhat 3 project the default export is the plugin
// object (built in ./hardhat3/plugin.js from Hardhat 3's own task builder and the project's
// chai); in a Hardhat 2 project (whose config loads this package with require(), which gets
// ./index.js) an ES-module import registers the Hardhat 2 plugin as ./index.js does.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The major version of the hardhat package this project resolves, or undefined without one. */
function hardhatMajor() {
  try {
    return Number(require("hardhat/package.json").version.split(".")[0]);
  } catch {
    return undefined;
  }
}

async function importChai() {
  try {
    return await import("chai");
  } catch (error) {
    if (error?.code === "ERR_MODULE_NOT_FOUND") return undefined; // no chai in this project
    throw error;
  }
}

async function hardhat3Plugin() {
  const { task } = await import("hardhat/config");
  const { ArgumentType } = await import("hardhat/types/arguments");
  const { HardhatPluginError } = await import("hardhat/plugins");
  const { createHardhat3Plugin } = require("./hardhat3/plugin.js");
  return createHardhat3Plugin({ task, argumentTypes: ArgumentType, pluginError: HardhatPluginError, importChai });
}

/**
 * Node's on-disk cache of compiled code (Node 22.1+), for the modules loaded from here on: the
 * engine's, which a Hardhat 3 test run loads when it first connects to the nativekit network
 * (about 300 ms to compile, 200 ms from the cache, measured under Node 22). NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
function useCompileCache(moduleApi) {
  if (typeof moduleApi.enableCompileCache === "function" && process.env.NODE_DISABLE_COMPILE_CACHE === undefined) moduleApi.enableCompileCache();
}

const major = hardhatMajor();
if (major !== undefined && major >= 3) useCompileCache(await import("node:module"));
const nativekit = major !== undefined && major >= 3 ? await hardhat3Plugin() : require("./index.js");

export default nativekit;
export const { NATIVEKIT_NETWORK } = require("./config.js");
export const { assertAssetBalanceChanges } = require("./asset-assertions.js");
export const { solcjsVersion } = require("./solc-bundle.js");
