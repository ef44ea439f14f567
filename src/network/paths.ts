/**
 * The HTTP paths of the node's APIs, as the reference node serves them, with the seed's names
 * beside the reference's where they differ (`xvm`/`avm`, `cvm`/`avax`). The node mounts its
 * APIs here; the clients call them here.
 */
export const PATHS = {
  contractRpc: "/ext/bc/C/rpc",
  contractWs: "/ext/bc/C/ws",
  contractCvm: "/ext/bc/C/cvm",
  contractAvax: "/ext/bc/C/avax",
  exchange: "/ext/bc/X",
  exchangeStaticSeed: "/ext/vm/xvm",
  exchangeStaticReference: "/ext/vm/avm",
  keystore: "/ext/keystore",
  info: "/ext/info",
  auth: "/ext/auth",
  health: "/ext/health",
  ipcs: "/ext/ipcs",
  contractAdmin: "/ext/bc/C/admin",
} as const;

/** The four indexes of the index API (`/ext/index/<chain>/<kind>`). */
export const INDEX_PATHS = {
  exchangeTx: "/ext/index/X/tx",
  exchangeVertex: "/ext/index/X/vtx",
  platformBlock: "/ext/index/P/block",
  contractBlock: "/ext/index/C/block",
} as const;

export type IndexName = keyof typeof INDEX_PATHS;

/** `/ext/bc/<chain>`: a chain's API (the exchange chain's, and the root of the others'). */
export function chainPath(chain: string): string {
  return `/ext/bc/${chain}`;
}
