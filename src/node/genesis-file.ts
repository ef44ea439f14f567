import { promises as fs } from "node:fs";
import { formatChainAddress } from "../encoding";
import type { NetworkIdentifiers } from "../network/constants";
import { parsePlatformGenesisJson, platformGenesis, type PlatformGenesisOptions } from "../pchain/genesis";

/**
 * The genesis of `nativekit node --genesis-file FILE`: a JSON file with the keys of the
 * reference's local genesis that apply here: the platform chain's `initialMultisigAddresses`,
 * and its fee rule's `etnaTime` and `dynamicFeeConfig`. Errors name the file and the field.
 */
export async function readGenesisFile(file: string, network: NetworkIdentifiers): Promise<PlatformGenesisOptions> {
  let json: unknown;
  try {
    json = JSON.parse(await fs.readFile(file, "utf8"));
  } catch (error) {
    throw new Error(`cannot read the genesis file ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    return parsePlatformGenesisJson(json, network);
  } catch (error) {
    throw new Error(`genesis file ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A multisig alias a genesis declares, as a person reads it: its address, threshold, owners and memo. */
export interface GenesisAliasListing {
  address: string;
  threshold: number;
  owners: string[];
  memo: string;
}

/**
 * The multisig aliases a platform genesis declares, with the addresses the chain gives them
 * (Camino computes each from its owners, threshold and memo); none without a genesis file.
 */
export function genesisAliases(network: NetworkIdentifiers, genesis: PlatformGenesisOptions | undefined): GenesisAliasListing[] {
  const declared = genesis?.initialMultisigAddresses ?? [];
  if (declared.length === 0) return [];
  const format = (shortId: Uint8Array): string => formatChainAddress(shortId, network.hrp, "P");
  return platformGenesis(network, { fundTestKey: false, initialMultisigAddresses: declared }).aliases.map(({ alias }) => ({
    address: format(alias.id),
    threshold: alias.owners.threshold,
    owners: alias.owners.addresses.map(format),
    memo: new TextDecoder().decode(alias.memo),
  }));
}
