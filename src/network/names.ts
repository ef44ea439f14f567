/**
 * Names of networks and of the primary network's virtual machines, as the reference node reports
 * them (`info.getNetworkName`, `info.getVMs`).
 */
import { encodeCb58 } from "../encoding";

/** The reference node's named networks by ID; any other ID is named `network-<id>`. */
const NETWORK_NAMES: ReadonlyMap<number, string> = new Map([
  [1, "mainnet"],
  [2, "cascade"],
  [3, "denali"],
  [4, "everest"],
  [5, "fuji"],
  [10, "testing"],
  [12345, "local"],
]);

/** `mainnet`, `fuji`, `local`, ... or `network-<id>`. */
export function networkName(networkId: number): string {
  return NETWORK_NAMES.get(networkId) ?? `network-${networkId}`;
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
