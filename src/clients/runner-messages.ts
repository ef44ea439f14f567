/**
 * The network runner's messages in their protobuf JSON shape (see `proto/rpcpb/rpc.proto`): the
 * gateway's JSON, the client's results, and the types the runner's handlers receive and answer. Fields the proto marks
 * `optional` are absent when unset; every other field is always present.
 */

export interface NodeInfo {
  name: string;
  execPath: string;
  /** `http://127.0.0.1:<http port>`. */
  uri: string;
  /** `NodeID-…`, as the node reports it. */
  id: string;
  logDir: string;
  dbDir: string;
  pluginDir: string;
  whitelistedSubnets: string;
  /** Base64 of the node's flags as a JSON object. */
  config: string;
  paused: boolean;
}

export interface ClusterInfo {
  nodeNames: string[];
  nodeInfos: Record<string, NodeInfo>;
  pid: number;
  rootDataDir: string;
  healthy: boolean;
  attachedPeerInfos: Record<string, { peers: { id: string }[] }>;
  customChainsHealthy: boolean;
  customChains: Record<string, { chainName: string; vmId: string; subnetId: string; chainId: string }>;
  subnets: Record<string, { isElastic: boolean; elasticSubnetId: string; subnetParticipants: { nodeNames: string[] } | null }>;
  networkId: number;
  logRootDir: string;
}

export interface StartRequest {
  execPath: string;
  numNodes?: number;
  whitelistedSubnets?: string;
  globalNodeConfig?: string;
  rootDataDir?: string;
  pluginDir: string;
  customNodeConfigs: Record<string, string>;
  chainConfigs: Record<string, string>;
  reassignPortsIfUsed?: boolean;
  dynamicPorts?: boolean;
  networkId: number;
  logRootDir?: string;
  logLevel: string;
  healthTimeoutMs: number;
}

export interface AddNodeRequest {
  name: string;
  execPath: string;
  nodeConfig?: string;
  chainConfigs: Record<string, string>;
  pluginDir: string;
}

export interface RestartNodeRequest {
  name: string;
  execPath?: string;
  whitelistedSubnets?: string;
  chainConfigs: Record<string, string>;
  pluginDir: string;
}

export interface NodeNameRequest {
  name: string;
}

export interface StreamStatusRequest {
  /** Nanoseconds, as a decimal string (int64). */
  pushInterval: string;
}

/** Responses carrying the cluster: null before the first start (stop only). */
export interface ClusterInfoResponse {
  clusterInfo: ClusterInfo | null;
}

export interface StartResponse {
  clusterInfo: ClusterInfo | null;
  chainIds: string[];
}

export interface UrisResponse {
  uris: string[];
}

export interface PingResponse {
  pid: number;
}

export interface RpcVersionResponse {
  version: number;
}
