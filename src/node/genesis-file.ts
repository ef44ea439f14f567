import { promises as fs } from "node:fs";
import type { NetworkIdentifiers } from "../network/constants";
import { parsePlatformGenesisJson, type PlatformGenesisOptions } from "../pchain/genesis";

/**
 * The genesis of `nativekit node --genesis-file FILE`: a JSON file with the keys of the
 * reference's local genesis that apply here (today the platform chain's
 * `initialMultisigAddresses`). Errors name the file and the field.
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
