/**
 * `nativekit node --load-state FILE` and `--dump-state FILE`, as anvil's flags: the contract
 * chain's accounts (balances, nonces, code, storage) read from anvil's state JSON at start, and
 * written to it when the node stops, through the chain's own anvil_loadState and
 * anvil_dumpState (so a file made by anvil loads here, and one made here loads in anvil).
 */
import { promises as fs } from "node:fs";
import { gunzipSync } from "node:zlib";
import { PATHS } from "../network/paths";
import type { Dispatch } from "../rpc/types";

function contractChain(routes: Record<string, Dispatch>): Dispatch {
  const dispatch = routes[PATHS.contractRpc];
  if (dispatch === undefined) throw new Error("the node serves no contract chain to load a state into");
  return dispatch;
}

/** Writes the state in `file` (anvil's JSON, or its gzip) over the contract chain's head state. */
export async function loadStateFile(routes: Record<string, Dispatch>, file: string): Promise<void> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch (error) {
    throw new Error(`cannot read the state file ${file}: ${(error as Error).message}`);
  }
  try {
    await contractChain(routes)("anvil_loadState", [`0x${bytes.toString("hex")}`]);
  } catch (error) {
    throw new Error(`the state file ${file} cannot be loaded: ${(error as Error).message}`);
  }
}

/** Writes the contract chain's state to `file` as anvil's JSON (what `--load-state` reads). */
export async function dumpStateFile(routes: Record<string, Dispatch>, file: string): Promise<void> {
  const hex = (await contractChain(routes)("anvil_dumpState", [])) as string;
  const json = gunzipSync(Buffer.from(hex.slice(2), "hex"));
  await fs.writeFile(file, json);
}
