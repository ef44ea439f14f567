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
} as const;

/** `/ext/bc/<chain>`: a chain's API (the exchange chain's, and the root of the others'). */
export function chainPath(chain: string): string {
  return `/ext/bc/${chain}`;
}
