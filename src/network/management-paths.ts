/**
 * The HTTP paths of the node's management APIs built on the chains' acceptances: the four
 * indexes (`/ext/index/<chain>/<kind>`), the IPC API and the contract chain's admin API.
 * The node mounts them here; the clients call them here.
 */
export const INDEX_PATHS = {
  exchangeTx: "/ext/index/X/tx",
  exchangeVertex: "/ext/index/X/vtx",
  platformBlock: "/ext/index/P/block",
  contractBlock: "/ext/index/C/block",
} as const;

export type IndexName = keyof typeof INDEX_PATHS;

export const IPCS_PATH = "/ext/ipcs";

export const CONTRACT_ADMIN_PATH = "/ext/bc/C/admin";
