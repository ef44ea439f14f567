/** The platform chain's view of the network: its blockchains, their status and IDs, and the staking asset. */
import type { Endpoint } from "../call";
import type { RequestOptions } from "../types";

export interface Blockchain {
  id: string;
  name: string;
  subnetID: string;
  vmID: string;
}

export interface GetBlockchainStatusParameters {
  blockchainID: string;
}

/** The platform chain's own ID, the same on every network. */
const PLATFORM_CHAIN_ID = "11111111111111111111111111111111LpoYY";

/** The names `getBlockchains` gives the chains of the primary network, by their aliases. */
const PRIMARY_CHAIN_NAMES: Record<string, string> = {
  X: "X-Chain",
  avm: "X-Chain",
  xvm: "X-Chain",
  C: "C-Chain",
  evm: "C-Chain",
  cvm: "C-Chain",
};

export function getBlockchains(chain: Endpoint, options?: RequestOptions): Promise<Blockchain[]> {
  return chain.call(
    "getBlockchains",
    () => ({}),
    (r) =>
      r
        .get("blockchains")
        .array()
        .map((b) => ({ id: b.get("id").string(), name: b.get("name").string(), subnetID: b.get("subnetID").string(), vmID: b.get("vmID").string() })),
    options,
  );
}

export function getBlockchainStatus(
  chain: Endpoint,
  parameters: GetBlockchainStatusParameters,
  options?: RequestOptions,
): Promise<string> {
  return chain.call(
    "getBlockchainStatus",
    (args) => ({ blockchainID: args.string(args.object(parameters).blockchainID, "blockchainID") }),
    (r) => r.get("status").string(),
    options,
  );
}

/** The ID of the chain named "X", "C" or "P" (or a name of getBlockchains, e.g. "X-Chain"). */
export async function getBlockchainID(chain: Endpoint, alias: string, options?: RequestOptions): Promise<string> {
  if (alias === "P" || alias === "platform") return PLATFORM_CHAIN_ID;
  const wanted = PRIMARY_CHAIN_NAMES[alias] ?? alias;
  const found = (await getBlockchains(chain, options)).find((b) => b.name === wanted || b.id === alias);
  if (found === undefined) throw new RangeError(`no blockchain named ${JSON.stringify(alias)} on the primary network`);
  return found.id;
}

export function getStakingAssetID(chain: Endpoint, options?: RequestOptions): Promise<string> {
  return chain.call("getStakingAssetID", () => ({}), (r) => r.get("assetID").string(), options);
}
