import { RpcError, RpcErrorCode, methodNotFound } from "../engine/errors";
import type { Dispatch } from "../node/jsonrpc";
import type { NetworkIdentifiers } from "./constants";

/**
 * The info API (path /ext/info) as far as wallets and SDKs need it to find their way on the
 * simulated network: IDs, fees, bootstrap state. Numbers follow the node's JSON conventions.
 */
export function createInfoDispatch(network: NetworkIdentifiers, version: string): Dispatch {
  const aliases: Record<string, string> = { X: network.xChainId, C: network.cChainId, P: "11111111111111111111111111111111LpoYY" };
  const known = new Set(Object.values(aliases));
  const methods: Record<string, (params: Record<string, unknown>) => unknown> = {
    "info.getNetworkID": () => ({ networkID: String(network.networkId) }),
    "info.getNetworkName": () => ({ networkName: network.hrp }),
    "info.getBlockchainID": (params) => {
      const alias = params.alias;
      if (typeof alias !== "string") throw new RpcError(RpcErrorCode.InvalidParams, "alias must be a string such as \"X\" or \"C\"");
      const id = aliases[alias] ?? (known.has(alias) ? alias : undefined);
      if (id === undefined) throw new RpcError(RpcErrorCode.ServerError, `there is no chain with alias/ID '${alias}'`);
      return { blockchainID: id };
    },
    "info.isBootstrapped": (params) => {
      const chain = params.chain;
      if (typeof chain !== "string") throw new RpcError(RpcErrorCode.InvalidParams, "chain must be a chain ID or alias");
      if (aliases[chain] === undefined && !known.has(chain)) throw new RpcError(RpcErrorCode.ServerError, `there is no chain with alias/ID '${chain}'`);
      return { isBootstrapped: true };
    },
    "info.getTxFee": () => ({ txFee: String(network.txFee), createAssetTxFee: String(network.createAssetTxFee), creationTxFee: String(network.createAssetTxFee) }),
    "info.getNodeVersion": () => ({ version: `nativekit/${version}`, databaseVersion: "v1.4.5", gitCommit: "", vmVersions: { avm: version, evm: version } }),
    "info.getNodeID": () => ({ nodeID: "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg" }),
    "info.peers": () => ({ numPeers: "0", peers: [] }),
  };
  return async (method, params) => {
    const handler = methods[method];
    if (handler === undefined) throw methodNotFound(method);
    const object = params === undefined || params === null ? {} : params;
    if (typeof object !== "object" || Array.isArray(object)) throw new RpcError(RpcErrorCode.InvalidParams, `${method} takes its params as an object`);
    return handler(object as Record<string, unknown>);
  };
}
