/**
 * Names of networks (with the hrp of their addresses) and of the primary network's virtual
 * machines, as the reference node reports them (`info.getNetworkName`, `info.getVMs`).
 */
import { encodeCb58 } from "../encoding";

/**
 * The reference node's named networks by ID: the name `info.getNetworkName` reports and the
 * bech32 hrp of the exchange- and platform-chain addresses. Any other ID is named
 * `network-<id>` and has the fallback hrp, "custom".
 */
const NAMED_NETWORKS: ReadonlyMap<number, { name: string; hrp: string }> = new Map([
  [1, { name: "mainnet", hrp: "avax" }],
  [2, { name: "cascade", hrp: "cascade" }],
  [3, { name: "denali", hrp: "denali" }],
  [4, { name: "everest", hrp: "everest" }],
  [5, { name: "fuji", hrp: "fuji" }],
  [10, { name: "testing", hrp: "testing" }],
  [12345, { name: "local", hrp: "local" }],
]);

/** `mainnet`, `fuji`, `local`, ... or `network-<id>`. */
export function networkName(networkId: number): string {
  return NAMED_NETWORKS.get(networkId)?.name ?? `network-${networkId}`;
}

/** The hrp of addresses on a network, e.g. "local" for 12345 and "custom" for 54321. */
export function networkHrp(networkId: number): string {
  return NAMED_NETWORKS.get(networkId)?.hrp ?? "custom";
}

/**
 * An ID made of a short ASCII name padded with zeros to 32 bytes: how the reference node names
 * its built-in VMs and feature extensions (the VM `avm` has the ID of the bytes "avm" + 29 zeros).
 */
export function builtinId(name: string): string {
  const bytes = new Uint8Array(32);
  bytes.set(new TextEncoder().encode(name));
  return encodeCb58(bytes);
}

/** The primary network's VMs: the name each is known by (its alias) and the chain running it. */
export const PRIMARY_VMS = [
  { name: "avm", chain: "X" },
  { name: "evm", chain: "C" },
  { name: "platform", chain: "P" },
] as const;

/** The exchange chain's feature extensions, in their order on that chain. */
export const EXCHANGE_FXS = ["secp256k1fx", "nftfx", "propertyfx"] as const;

/**
 * The ID of a primary-network VM: the platform VM's is the empty (all-zero) ID, the others are
 * their names padded ({@link builtinId}).
 */
export function vmId(name: (typeof PRIMARY_VMS)[number]["name"]): string {
  return name === "platform" ? encodeCb58(new Uint8Array(32)) : builtinId(name);
}
