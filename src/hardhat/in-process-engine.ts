/**
 * What the in-process network, on Hardhat 3 and on Hardhat 2, loads to start a chain (the
 * engine's provider and the plugin's engine options) and to explain a failed transaction (the
 * project's Solidity stack traces). It is the one module Hardhat 3's network hooks, the engine
 * thread and Hardhat 2's network provider import for these (through
 * in-process-engine-loader.ts), so the package build (scripts/bundle-engine.js) can replace its
 * compiled file with a single-file bundle of everything it reaches.
 *
 * Why a bundle: the engine reaches about 500 modules in a dozen packages. Under Hardhat 3 every
 * one of them goes through Node's resolver and Hardhat's TypeScript loader hooks, and a user's
 * project holds up to five copies of the same @noble packages (each ethereumjs package nests its
 * own), so a fresh process spent about 0.25 s loading the engine before its first answer.
 * Bundled from this repository's deduplicated node_modules, the same code loads as one file.
 * Hardhat 2 has no loader hooks, but on Node.js 20 no module compile cache either: there the
 * bundle, with its code cache, brought the network's start from 0.14 to 0.06 s (bench/README.md).
 * Run from the sources (ts-node, tsx), this module is the plain re-export below.
 */
export { createNativeProvider } from "../engine/provider";
export { jumpAnalysisMemoInstalled } from "../engine/jump-analysis-memo";
export { networkEngineOptions } from "./network-options";
export { keptSignatures } from "./signature-cache";
export { ProjectSolidityTraces } from "./solidity/project-traces";
