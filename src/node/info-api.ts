import type { NetworkIdentifiers } from "../network/constants";
import { ChainDirectory } from "../network/chains";
import { RpcApi, serverError, type NamedParams } from "../rpc";

/**
 * The info API (path /ext/info) as far as wallets and SDKs need it to find their way on the
 * simulated network: IDs, fees, bootstrap state. Numbers follow the node's JSON conventions
 * (uint64s as decimal strings).
 */
export function createInfoApi(network: NetworkIdentifiers, version: string): RpcApi {
  const chains = new ChainDirectory(network);
  const chainNamed = (p: NamedParams, name: string, expected: string) => {
    const text = p.string(name, `${name} must be ${expected}`);
    const chain = chains.lookup(text);
    if (chain === undefined) throw serverError(`there is no chain with alias/ID '${text}'`);
    return chain;
  };
  return new RpcApi({ namespaces: ["info"] })
    .named("getNetworkID", () => ({ networkID: String(network.networkId) }))
    .named("getNetworkName", () => ({ networkName: network.hrp }))
    .named("getBlockchainID", (p) => ({ blockchainID: chainNamed(p, "alias", 'a string such as "X" or "C"').id }))
    .named("isBootstrapped", (p) => (chainNamed(p, "chain", "a chain ID or alias"), { isBootstrapped: true }))
    .named("getTxFee", () => ({
      txFee: String(network.txFee),
      createAssetTxFee: String(network.createAssetTxFee),
      // The legacy SDK (avalanche 3.x) reads the fee under its older name.
      creationTxFee: String(network.createAssetTxFee),
    }))
    .named("getNodeVersion", () => ({ version: `nativekit/${version}`, databaseVersion: "v1.4.5", gitCommit: "", vmVersions: { avm: version, evm: version } }))
    .named("getNodeID", () => ({ nodeID: "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg" }))
    .named("peers", () => ({ numPeers: "0", peers: [] }));
}
