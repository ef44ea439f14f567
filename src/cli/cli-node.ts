/**
 * The node the `node` command serves (the nativekit command's and the Hardhat task's): one
 * node's chains, built from their options, with what its banner lists: the funded accounts
 * (address, private key and balance), the exchange chain's test key, the multisig aliases of
 * its genesis file with their addresses, and the management and operator notes. Nothing here
 * listens: the command starts it with `startNode`.
 */
import { getAddress } from "ethers";
import type { CliNode } from "./cli";
import type { CreateNodeOptions } from "./node-flags";
import { NodeChains, type NodeChainsOptions } from "../node/node-chains";
import { servedChains } from "../node/start-node";
import type { NetworkIdentifiers } from "../network/constants";
import { genesisAliases } from "../node/genesis-file";
import { describeGenesisAliases } from "./genesis-banner";
import { nodeChainsOptionsOf } from "./node-options";

/** The `node` command's node from its flags (the CLI's `createNode`). */
export async function createCliNode(flags: CreateNodeOptions, log?: (line: string) => void): Promise<CliNode> {
  // What the node writes (its data directory's files, its logs) is its user's alone.
  process.umask(0o077);
  return createNodeChainsForCli(await nodeChainsOptionsOf(flags, log));
}

/** Builds one node's chains from `options`, with the listing and notes its banner prints. */
export async function createNodeChainsForCli(options: NodeChainsOptions): Promise<CliNode> {
  const chains = await NodeChains.create(options);
  const engine = chains.engine;
  const accounts = await Promise.all(
    [...engine.unlocked.values()].map(async (a) => ({
      address: getAddress(a.address.toString()),
      privateKey: a.privateKeyHex,
      balanceWei: (await engine.getAccount(a.address, engine.head)).balance,
    })),
  );
  return {
    ...servedChains(chains),
    accounts,
    chainId: engine.options.chainId,
    notes: [...chains.describeTestKey(), ...genesisAliasNotes(chains.network, options), ...chains.management.notes, ...chains.operator.describe()],
  };
}

/** The banner's lines about the genesis file's multisig aliases, after a blank line (none without aliases). */
function genesisAliasNotes(network: NetworkIdentifiers, options: NodeChainsOptions): string[] {
  const lines = describeGenesisAliases(genesisAliases(network, options.platformGenesis));
  return lines.length === 0 ? [] : ["", ...lines];
}
