/**
 * ethers, loaded on first use. The engine needs it only for what a run may never do (keys from a
 * mnemonic other than the default one, eth_sign and typed data, Solidity's console.log), and
 * loading it costs about 170 modules: where no copy is loaded yet (a Hardhat 3 project, whose
 * hardhat-ethers loads the ES-module build, a viem project, the node's CLI), that is a
 * noticeable part of the engine's start.
 */
import type * as Ethers from "ethers";

let loaded: typeof Ethers | undefined;

export function ethers(): typeof Ethers {
  loaded ??= require("ethers") as typeof Ethers;
  return loaded;
}
