/**
 * Client of the info API (`info.*` at `/ext/info`, the same under both namings): each method is
 * a named function of this file, beside its result type; the client is built from them.
 */
import { checkTransport, Endpoint } from "./call";
import type { Reader } from "./internal";
import type { JsonRpcParams } from "./json";
import { INFO_PATH } from "./naming";
import type { Transport } from "./transport";
import type { RequestOptions } from "./types";

export interface InfoClientOptions {
  transport: Transport;
}

/** Fees of the exchange chain, in the native asset's smallest unit. */
export interface TxFees {
  /** Fee for creating an asset (`creationTxFee`; `createAssetTxFee` on recent reference nodes). */
  readonly creationTxFee: bigint;
  /** Fee for an ordinary transaction. */
  readonly txFee: bigint;
  /** Every uint64 field of the answer, by name (recent nodes list more fees). */
  readonly all: Readonly<Record<string, bigint>>;
}

/** The node's identity: its node ID and, on recent nodes, its BLS key's proof of possession. */
export interface NodeIdentity {
  /** `NodeID-…`. */
  readonly nodeID: string;
  /** 0x-hex BLS public key and proof of possession; absent on nodes that send none. */
  readonly nodePOP?: { readonly publicKey: string; readonly proofOfPossession: string };
}

export interface NodeVersion {
  /** e.g. `avalanchego/1.11.1` or `nativekit/0.1.0`. */
  readonly version: string;
  readonly databaseVersion: string;
  /** Absent on old nodes. */
  readonly rpcProtocolVersion?: number;
  readonly gitCommit: string;
  /** VM name (`avm`, `evm`, `platform`) to its version. */
  readonly vmVersions: Readonly<Record<string, string>>;
}

export interface VirtualMachines {
  /** VM ID to its aliases. */
  readonly vms: Readonly<Record<string, readonly string[]>>;
  /** Feature-extension ID to its name (absent on old nodes: empty). */
  readonly fxs: Readonly<Record<string, string>>;
}

export interface Peer {
  readonly ip: string;
  readonly publicIP: string;
  readonly nodeID: string;
  readonly version: string;
  readonly lastSent: string;
  readonly lastReceived: string;
  readonly benched: readonly string[];
  /** Every field as sent, for those not listed here. */
  readonly raw: Readonly<Record<string, unknown>>;
}

export interface Uptime {
  /** Percent of stake that sees this node above the uptime requirement (0 to 100). */
  readonly rewardingStakePercentage: number;
  /** Stake-weighted average of the uptime others observe (0 to 100). */
  readonly weightedAveragePercentage: number;
}

export interface InfoClient {
  readonly path: string;
  getNetworkID(options?: RequestOptions): Promise<number>;
  /** Blockchain ID (cb58) of a chain alias such as `X` or `C`. */
  getBlockchainID(alias: string, options?: RequestOptions): Promise<string>;
  getTxFee(options?: RequestOptions): Promise<TxFees>;
  getNetworkName(options?: RequestOptions): Promise<string>;
  /** Whether the chain (ID or alias) has finished bootstrapping. */
  isBootstrapped(chain: string, options?: RequestOptions): Promise<boolean>;
  getNodeID(options?: RequestOptions): Promise<NodeIdentity>;
  /** The node's public `host:port`. */
  getNodeIP(options?: RequestOptions): Promise<string>;
  getNodeVersion(options?: RequestOptions): Promise<NodeVersion>;
  getVMs(options?: RequestOptions): Promise<VirtualMachines>;
  /** The node's peers, or only those of `nodeIDs` it is connected to. */
  peers(nodeIDs?: readonly string[], options?: RequestOptions): Promise<{ numPeers: number; peers: Peer[] }>;
  uptime(options?: RequestOptions): Promise<Uptime>;
}

/** A float the node writes as a string ("100.0000") or a number. */
function readFloat(r: Reader): number {
  const value = r.value;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && /^-?[0-9]+(\.[0-9]+)?$/.test(value)) return Number(value);
  return r.fail("a decimal number (a string such as \"100.0000\" or a number)");
}

function readStringMap(r: Reader | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (r === undefined) return out;
  for (const key of Object.keys(r.object())) out[key] = r.get(key).string();
  return out;
}

function readPeer(r: Reader): Peer {
  const text = (key: string) => r.maybe(key)?.string() ?? "";
  return {
    ip: text("ip"),
    publicIP: text("publicIP"),
    nodeID: r.get("nodeID").string(),
    version: text("version"),
    lastSent: text("lastSent"),
    lastReceived: text("lastReceived"),
    benched: r.maybe("benched")?.stringArray() ?? [],
    raw: { ...r.object() },
  };
}

/** Reads `getTxFee`: the two named fees, and every uint64 member by name. */
function readFees(r: Reader): TxFees {
  const all: Record<string, bigint> = {};
  for (const key of Object.keys(r.object())) {
    const member = r.get(key);
    const value = member.value;
    const isUint64 =
      (typeof value === "string" && /^[0-9]{1,20}$/.test(value)) ||
      (typeof value === "number" && Number.isSafeInteger(value) && value >= 0);
    if (isUint64) all[key] = member.uint64();
  }
  return {
    creationTxFee: r.first("creationTxFee", "createAssetTxFee").uint64(),
    txFee: r.get("txFee").uint64(),
    all,
  };
}

function getNetworkID(info: Endpoint, options?: RequestOptions): Promise<number> {
  return info.call("getNetworkID", () => ({}), (r) => r.get("networkID").count(), options);
}

/** Blockchain ID (cb58) of a chain alias such as `X` or `C`. */
function getBlockchainID(info: Endpoint, alias: string, options?: RequestOptions): Promise<string> {
  return info.call(
    "getBlockchainID",
    (args) => ({ alias: args.nonEmptyString(alias, "alias") }),
    (r) => r.get("blockchainID").string(),
    options,
  );
}

function getTxFee(info: Endpoint, options?: RequestOptions): Promise<TxFees> {
  return info.call("getTxFee", () => ({}), readFees, options);
}

function getNetworkName(info: Endpoint, options?: RequestOptions): Promise<string> {
  return info.call("getNetworkName", () => ({}), (r) => r.get("networkName").string(), options);
}

/** Whether the chain (ID or alias) has finished bootstrapping. */
function isBootstrapped(info: Endpoint, chain: string, options?: RequestOptions): Promise<boolean> {
  return info.call(
    "isBootstrapped",
    (args) => ({ chain: args.nonEmptyString(chain, "chain") }),
    (r) => r.get("isBootstrapped").boolean(),
    options,
  );
}

function getNodeID(info: Endpoint, options?: RequestOptions): Promise<NodeIdentity> {
  return info.call(
    "getNodeID",
    () => ({}),
    (r) => {
      const pop = r.maybe("nodePOP");
      const nodeID = r.get("nodeID").string();
      if (pop === undefined) return { nodeID };
      return { nodeID, nodePOP: { publicKey: pop.get("publicKey").string(), proofOfPossession: pop.get("proofOfPossession").string() } };
    },
    options,
  );
}

/** The node's public `host:port`. */
function getNodeIP(info: Endpoint, options?: RequestOptions): Promise<string> {
  return info.call("getNodeIP", () => ({}), (r) => r.get("ip").string(), options);
}

function getNodeVersion(info: Endpoint, options?: RequestOptions): Promise<NodeVersion> {
  return info.call(
    "getNodeVersion",
    () => ({}),
    (r) => {
      const rpc = r.maybe("rpcProtocolVersion");
      return {
        version: r.get("version").string(),
        databaseVersion: r.get("databaseVersion").string(),
        ...(rpc === undefined ? {} : { rpcProtocolVersion: rpc.count() }),
        gitCommit: r.maybe("gitCommit")?.string() ?? "",
        vmVersions: readStringMap(r.get("vmVersions")),
      };
    },
    options,
  );
}

function getVMs(info: Endpoint, options?: RequestOptions): Promise<VirtualMachines> {
  return info.call(
    "getVMs",
    () => ({}),
    (r) => {
      const vms: Record<string, string[]> = {};
      const members = r.get("vms");
      for (const id of Object.keys(members.object())) vms[id] = members.get(id).stringArray();
      return { vms, fxs: readStringMap(r.maybe("fxs")) };
    },
    options,
  );
}

/** The node's peers, or only those of `nodeIDs` it is connected to. */
function peers(
  info: Endpoint,
  nodeIDs?: readonly string[],
  options?: RequestOptions,
): Promise<{ numPeers: number; peers: Peer[] }> {
  return info.call(
    "peers",
    (args) => {
      const ids = args.optionalStringArray(nodeIDs, "nodeIDs");
      return ids === undefined ? {} : ({ nodeIDs: ids } as JsonRpcParams);
    },
    (r) => ({
      numPeers: r.get("numPeers").count(),
      peers: (r.maybe("peers")?.array() ?? []).map(readPeer),
    }),
    options,
  );
}

function uptime(info: Endpoint, options?: RequestOptions): Promise<Uptime> {
  return info.call(
    "uptime",
    () => ({}),
    (r) => ({
      rewardingStakePercentage: readFloat(r.get("rewardingStakePercentage")),
      weightedAveragePercentage: readFloat(r.get("weightedAveragePercentage")),
    }),
    options,
  );
}

export function createInfoClient(options: InfoClientOptions): InfoClient {
  const info = new Endpoint(checkTransport("createInfoClient", options.transport), INFO_PATH, "info");
  return {
    path: info.path,
    getNetworkID: (o) => getNetworkID(info, o),
    getBlockchainID: (alias, o) => getBlockchainID(info, alias, o),
    getTxFee: (o) => getTxFee(info, o),
    getNetworkName: (o) => getNetworkName(info, o),
    isBootstrapped: (chain, o) => isBootstrapped(info, chain, o),
    getNodeID: (o) => getNodeID(info, o),
    getNodeIP: (o) => getNodeIP(info, o),
    getNodeVersion: (o) => getNodeVersion(info, o),
    getVMs: (o) => getVMs(info, o),
    peers: (nodeIDs, o) => peers(info, nodeIDs, o),
    uptime: (o) => uptime(info, o),
  };
}
