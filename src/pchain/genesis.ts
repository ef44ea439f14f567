/**
 * The platform chain's genesis: funded UTXOs and the multisig aliases declared there
 * (Camino's `initialMultisigAddresses`), and the parser of that JSON for a genesis file.
 *
 * As the reference node builds it (platformvm api BuildGenesis), genesis UTXOs have the empty
 * tx ID and output indices 0, 1, ...; the genesis block is an Apricot commit block whose parent
 * is sha256(genesis bytes). The genesis bytes here are the simulator's own (codec version,
 * the UTXOs, the aliases), not the reference's genesis state format.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { decodeCb58, decodePrivateKey, EncodingError, formatChainAddress, parseChainAddress } from "../encoding";
import { LOCAL_TEST_KEY, type NetworkIdentifiers } from "../network/constants";
import { ByteWriter, CODEC_VERSION, compareShortIds, encodeUtxo, shortIdFromPrivateKey, TypeId, type Utxo } from "../utxo/codec";
import { type AliasWithNonce, encodeAliasWithNonce, genesisAliasId } from "./codec";
import { type PlatformFeeOptions, parseFeeOptionsJson } from "./fees";

/**
 * The local test key's funds on the platform chain: the reference local genesis's unlock
 * schedule for that key (20 000 000 AVAX, and 10 000 000 AVAX whose lock ended in 2021), as
 * two UTXOs. The stake of the local validators is not taken from it.
 */
export const LOCAL_TEST_KEY_P_UTXOS: readonly bigint[] = [20_000_000n * 10n ** 9n, 10_000_000n * 10n ** 9n];

/** A multisig alias declared at genesis: `threshold` of `addresses` (20-byte short IDs). */
export interface InitialMultisigAlias {
  /** The alias's address; when given it must be the one Camino computes from the rest. */
  alias?: Uint8Array;
  addresses: Uint8Array[];
  threshold: number;
  memo?: string;
}

export interface PlatformGenesisOptions {
  /** Fund the local test key as on a real local network (default true). */
  fundTestKey?: boolean;
  /** More funded addresses (short IDs) with native-asset amounts. */
  allocations?: { address: Uint8Array; amount: bigint; locktime?: bigint }[];
  initialMultisigAddresses?: InitialMultisigAlias[];
  /** The fee rule's schedule and numbers (default: the dynamic fee from the start, with the local network's config; see fees/schedule.ts). */
  fees?: PlatformFeeOptions;
}

export interface PlatformGenesis {
  utxos: Utxo[];
  aliases: AliasWithNonce[];
  /** The simulator's genesis bytes; sha256 of them is the genesis block's parent. */
  bytes: Uint8Array;
  /** The fee schedule (not part of the genesis bytes: as on the reference, it is the upgrade and fee config, not state). */
  fees?: PlatformFeeOptions;
}

export class GenesisError extends Error {
  override readonly name = "GenesisError";
}

/** Builds the genesis state; throws GenesisError naming the bad entry. */
export function platformGenesis(network: NetworkIdentifiers, options: PlatformGenesisOptions = {}): PlatformGenesis {
  const assetId = decodeCb58(network.nativeAsset.id);
  const funds: { address: Uint8Array; amount: bigint; locktime: bigint }[] = [];
  if (options.fundTestKey ?? true) {
    const address = shortIdFromPrivateKey(decodePrivateKey(LOCAL_TEST_KEY));
    for (const amount of LOCAL_TEST_KEY_P_UTXOS) funds.push({ address, amount, locktime: 0n });
  }
  for (const a of options.allocations ?? []) funds.push({ address: a.address, amount: a.amount, locktime: a.locktime ?? 0n });
  const utxos: Utxo[] = funds.map((f, i) => ({
    txId: new Uint8Array(32),
    outputIndex: i,
    assetId,
    output: { typeId: TypeId.Secp256k1TransferOutput, amount: f.amount, locktime: f.locktime, threshold: 1, addresses: [f.address] },
  }));
  const seen = new Set<string>();
  const aliases = (options.initialMultisigAddresses ?? []).map((entry, i) => {
    const alias = genesisAlias(entry, network, `initialMultisigAddresses[${i}]`);
    const key = Buffer.from(alias.alias.id).toString("hex");
    if (seen.has(key)) throw new GenesisError(`initialMultisigAddresses[${i}]: alias ${formatChainAddress(alias.alias.id, network.hrp, "P")} is declared twice`);
    seen.add(key);
    return alias;
  });
  const w = new ByteWriter();
  w.uint16(CODEC_VERSION, "codecVersion");
  w.list(utxos, "utxos", (u) => w.bytes(encodeUtxo(u), "utxo"));
  w.list(aliases, "aliases", (a) => w.bytes(encodeAliasWithNonce(a), "alias"));
  return { utxos, aliases, bytes: w.finish(), ...(options.fees === undefined ? {} : { fees: options.fees }) };
}

function genesisAlias(entry: InitialMultisigAlias, network: NetworkIdentifiers, where: string): AliasWithNonce {
  const addresses = [...entry.addresses].sort(compareShortIds);
  if (addresses.length === 0) throw new GenesisError(`${where}: an alias needs at least one address`);
  for (let i = 1; i < addresses.length; i++) {
    if (compareShortIds(addresses[i - 1]!, addresses[i]!) === 0) throw new GenesisError(`${where}: address ${formatChainAddress(addresses[i]!, network.hrp, "P")} is listed twice`);
  }
  if (!Number.isInteger(entry.threshold) || entry.threshold < 1 || entry.threshold > addresses.length) {
    throw new GenesisError(`${where}: threshold must be an integer from 1 to the number of addresses (${addresses.length}), got ${String(entry.threshold)}`);
  }
  const memo = new TextEncoder().encode(entry.memo ?? "");
  if (memo.length > 256) throw new GenesisError(`${where}: memo is ${memo.length} bytes, at most 256`);
  const id = genesisAliasId(entry.threshold, memo, addresses);
  if (entry.alias !== undefined && Buffer.compare(entry.alias, id) !== 0) {
    const format = (a: Uint8Array): string => formatChainAddress(a, network.hrp, "P");
    throw new GenesisError(`${where}: alias ${format(entry.alias)} is not the address of these owners, threshold and memo: expected ${format(id)} (or leave alias out)`);
  }
  return { alias: { id, memo, owners: { locktime: 0n, threshold: entry.threshold, addresses } }, nonce: 0n };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads the platform-chain part of a genesis file (parsed JSON): `initialMultisigAddresses`
 * at the top or under `camino` (Camino's layout), each {alias?, addresses: ["P-…"], threshold,
 * memo?}; and the fee keys `etnaTime` and `dynamicFeeConfig` (see fees/json.ts). Throws
 * GenesisError naming the field, e.g. `initialMultisigAddresses[0].addresses[1]: ...`.
 */
export function parsePlatformGenesisJson(json: unknown, network: NetworkIdentifiers): PlatformGenesisOptions {
  if (!isRecord(json)) throw new GenesisError("genesis: expected a JSON object");
  let fees: PlatformFeeOptions | undefined;
  try {
    fees = parseFeeOptionsJson(json);
  } catch (error) {
    if (error instanceof RangeError) throw new GenesisError(error.message);
    throw error;
  }
  const withFees = fees === undefined ? {} : { fees };
  const camino = json.camino;
  const list = json.initialMultisigAddresses ?? (isRecord(camino) ? camino.initialMultisigAddresses : undefined);
  if (list === undefined) return withFees;
  if (!Array.isArray(list)) throw new GenesisError("initialMultisigAddresses: expected an array");
  const address = (text: unknown, where: string): Uint8Array => {
    if (typeof text !== "string") throw new GenesisError(`${where}: expected a "P-${network.hrp}1…" address string`);
    try {
      return parseChainAddress(text, { hrp: network.hrp, chainAlias: "P" }).shortId;
    } catch (error) {
      if (error instanceof EncodingError) throw new GenesisError(`${where}: ${error.message}`);
      throw error;
    }
  };
  const entries = list.map((entry: unknown, i): InitialMultisigAlias => {
    const where = `initialMultisigAddresses[${i}]`;
    if (!isRecord(entry)) throw new GenesisError(`${where}: expected an object {alias, addresses, threshold, memo}`);
    if (!Array.isArray(entry.addresses)) throw new GenesisError(`${where}.addresses: expected an array of "P-…" addresses`);
    const threshold = entry.threshold;
    if (typeof threshold !== "number" || !Number.isInteger(threshold)) throw new GenesisError(`${where}.threshold: expected an integer`);
    if (entry.memo !== undefined && typeof entry.memo !== "string") throw new GenesisError(`${where}.memo: expected a string`);
    return {
      ...(entry.alias === undefined ? {} : { alias: address(entry.alias, `${where}.alias`) }),
      addresses: entry.addresses.map((a: unknown, j) => address(a, `${where}.addresses[${j}]`)),
      threshold,
      ...(entry.memo === undefined ? {} : { memo: entry.memo }),
    };
  });
  platformGenesis(network, { fundTestKey: false, initialMultisigAddresses: entries });
  return { initialMultisigAddresses: entries, ...withFees };
}
