/**
 * The identifiers of the network a node runs with `--network-id <id>`.
 *
 * The reference node builds every network it has no genesis of its own for (any ID but mainnet's
 * and fuji's) from its local genesis with the network ID replaced: the same allocations and
 * chains, but its addresses use that ID's bech32 hrp ("custom" for an unnamed ID), and the
 * native asset, whose creation transaction carries the network ID, gets another ID. So does
 * this node: the local network's identifiers with the ID, the hrp and the native asset's ID of
 * `networkId`. The blockchain IDs of the X and C chains stay the local network's (the
 * reference's differ too, through the platform genesis this simulator does not build).
 */
import { encodeCb58 } from "../encoding";
import { LOCAL_NETWORK, type NetworkIdentifiers } from "../network/constants";
import { networkHrp } from "../network/names";
import { genesisAssetId, localGenesis } from "../xchain/genesis";

/** The identifiers of a node started with `--network-id networkId` (the local network's for 12345). */
export function networkForId(networkId: number): NetworkIdentifiers {
  if (!Number.isSafeInteger(networkId) || networkId < 1 || networkId > 0xffff_ffff) {
    throw new RangeError(`a network ID is an integer from 1 to 4294967295, got ${networkId}`);
  }
  if (networkId === LOCAL_NETWORK.networkId) return LOCAL_NETWORK;
  const network = { ...LOCAL_NETWORK, networkId, hrp: networkHrp(networkId) };
  // The genesis asset's ID is that of its creation transaction, which names the network.
  const [nativeAsset] = localGenesis(network).assets;
  return { ...network, nativeAsset: { ...LOCAL_NETWORK.nativeAsset, id: encodeCb58(genesisAssetId(nativeAsset!.tx)) } };
}
