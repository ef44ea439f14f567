/**
 * Genesis of the exchange chain: the assets it starts with, their byte form (what the
 * reference node's static `buildGenesis` returns and its VM parses), and the local network's
 * genesis, which reproduces the reference node's so that the native asset ID is exactly the
 * one of a real local network.
 *
 * Byte layout (reference: avalanchego vms/avm/genesis.go `Genesis`/`GenesisAsset`, marshalled
 * with the VM's genesis codec, codec version 0):
 *
 *   uint16 codec version (0)
 *   uint32 number of assets, then for each asset, sorted by alias (bytewise):
 *     string alias (uint16 length + UTF-8)
 *     the CreateAssetTx's fields, embedded as a struct, so WITHOUT its uint32 type ID:
 *       networkID, blockchainID (empty), outputs (none), inputs (none), memo, name, symbol,
 *       denomination, initial states
 *
 * An asset's ID is the ID of its CreateAssetTx as a transaction: sha256 of codec version ‖
 * type ID 1 ‖ fields ‖ zero credentials.
 */
import { parseBech32Address, parseChainAddress, UINT64_MAX } from "../encoding";
import { LOCAL_NETWORK, type NetworkIdentifiers } from "../network/constants";
import {
  ByteReader,
  ByteWriter,
  CodecError,
  compareOutputs,
  compareShortIds,
  type CreateAssetTx,
  decodeUnsignedTx,
  encodeSignedTx,
  encodeUnsignedTx,
  FxIndex,
  type InitialState,
  type Output,
  SHORT_ID_LENGTH,
  txId,
  TypeId,
} from "../utxo/codec";

/** One asset of the genesis: its alias (usable in place of its ID in API calls) and its creation. */
export interface GenesisAsset {
  alias: string;
  tx: CreateAssetTx;
}

/**
 * Extra native-asset funds (a nativekit extension, not part of the reference genesis): each
 * becomes an output of one extra genesis transaction, so the native asset ID stays the
 * reference one.
 */
export interface GenesisAllocation {
  /** 20-byte short ID of the owner. */
  shortId: Uint8Array;
  amount: bigint;
  /** Unix seconds before which the output cannot be spent; default 0. */
  locktime?: bigint;
}

/** Everything an exchange chain starts with. The first asset pays the fees (as on the node). */
export interface ExchangeGenesis {
  assets: GenesisAsset[];
  allocations?: GenesisAllocation[];
}

/** Length of the codec version + CreateAssetTx type ID that the genesis layout leaves out. */
const TX_PREFIX = Uint8Array.of(0, 0, 0, 0, 0, TypeId.CreateAssetTx);

/** ID of a genesis asset: the ID of its CreateAssetTx without credentials. */
export function genesisAssetId(tx: CreateAssetTx): Uint8Array {
  return txId(encodeSignedTx({ unsignedTx: tx, credentials: [] }));
}

function compareAliases(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** Genesis bytes of the reference layout (assets are written sorted by alias, as the node does). */
export function encodeGenesisBytes(assets: readonly GenesisAsset[]): Uint8Array {
  const sorted = [...assets].sort((a, b) => compareAliases(a.alias, b.alias));
  const w = new ByteWriter();
  w.uint16(0, "Genesis.codecVersion");
  w.list(sorted, "Genesis.txs", (asset, i) => {
    if (asset.tx.typeId !== TypeId.CreateAssetTx) {
      throw new CodecError(`cannot encode Genesis.txs[${i}]: a genesis asset must be a CreateAssetTx`, { path: `Genesis.txs[${i}]` });
    }
    w.string(asset.alias, `Genesis.txs[${i}].alias`);
    const body = encodeUnsignedTx(asset.tx).subarray(TX_PREFIX.length);
    w.fixedBytes(body, body.length, `Genesis.txs[${i}]`);
  });
  return w.finish();
}

function skipOwners(r: ByteReader, path: string): void {
  r.uint64(`${path}.locktime`);
  r.uint32(`${path}.threshold`);
  const n = r.count(`${path}.addresses`);
  for (let i = 0; i < n; i++) r.fixedBytes(SHORT_ID_LENGTH, `${path}.addresses[${i}]`);
}

function skipTypedOutput(r: ByteReader, path: string): void {
  const typeId = r.uint32(`${path}.typeId`);
  switch (typeId) {
    case TypeId.Secp256k1TransferOutput:
      r.uint64(`${path}.amount`);
      return skipOwners(r, path);
    case TypeId.NftMintOutput:
      r.uint32(`${path}.groupId`);
      return skipOwners(r, path);
    case TypeId.NftTransferOutput:
      r.uint32(`${path}.groupId`);
      r.bytesWithLength(`${path}.payload`);
      return skipOwners(r, path);
    case TypeId.Secp256k1MintOutput:
    case TypeId.PropertyMintOutput:
    case TypeId.PropertyOwnedOutput:
      return skipOwners(r, path);
    default:
      return r.fail(`${path}.typeId`, `unexpected output type ID ${typeId}`);
  }
}

/** Moves the reader over one embedded CreateAssetTx (the fields, no type ID). */
function skipCreateAssetBody(r: ByteReader, p: string): void {
  r.uint32(`${p}.networkId`);
  r.fixedBytes(32, `${p}.blockchainId`);
  const outs = r.count(`${p}.outputs`);
  for (let i = 0; i < outs; i++) {
    r.fixedBytes(32, `${p}.outputs[${i}].assetId`);
    skipTypedOutput(r, `${p}.outputs[${i}].output`);
  }
  const ins = r.count(`${p}.inputs`);
  for (let i = 0; i < ins; i++) {
    const q = `${p}.inputs[${i}]`;
    r.fixedBytes(32, `${q}.txId`);
    r.uint32(`${q}.outputIndex`);
    r.fixedBytes(32, `${q}.assetId`);
    r.uint32(`${q}.input.typeId`);
    r.uint64(`${q}.input.amount`);
    const sigs = r.count(`${q}.input.signatureIndices`);
    for (let j = 0; j < sigs; j++) r.uint32(`${q}.input.signatureIndices[${j}]`);
  }
  r.bytesWithLength(`${p}.memo`);
  r.string(`${p}.name`);
  r.string(`${p}.symbol`);
  r.uint8(`${p}.denomination`);
  const states = r.count(`${p}.initialStates`);
  for (let i = 0; i < states; i++) {
    r.uint32(`${p}.initialStates[${i}].fxIndex`);
    const n = r.count(`${p}.initialStates[${i}].outputs`);
    for (let j = 0; j < n; j++) skipTypedOutput(r, `${p}.initialStates[${i}].outputs[${j}]`);
  }
}

/** Parse genesis bytes of the reference layout; throws CodecError naming the field and offset. */
export function decodeGenesisBytes(bytes: Uint8Array): GenesisAsset[] {
  const r = new ByteReader(bytes);
  const version = r.uint16("Genesis.codecVersion");
  if (version !== 0) r.fail("Genesis.codecVersion", `unsupported codec version ${version} (expected 0)`, 0);
  const assets = r.list("Genesis.txs", (i) => {
    const alias = r.string(`Genesis.txs[${i}].alias`);
    const start = r.offset;
    skipCreateAssetBody(r, `Genesis.txs[${i}]`);
    const body = bytes.subarray(start, r.offset);
    const whole = new Uint8Array(TX_PREFIX.length + body.length);
    whole.set(TX_PREFIX, 0);
    whole.set(body, TX_PREFIX.length);
    return { alias, tx: decodeUnsignedTx(whole) as CreateAssetTx };
  });
  r.end("Genesis");
  return assets;
}

// ---------------------------------------------------------------------------------------
// Building genesis assets the way the reference node's static service does
// ---------------------------------------------------------------------------------------

/** An asset as `buildGenesis` describes it (addresses as 20-byte short IDs). */
export interface GenesisAssetDefinition {
  name: string;
  symbol: string;
  denomination?: number;
  memo?: Uint8Array;
  initialState?: {
    /** Initial holders: one transfer output (threshold 1) each. */
    fixedCap?: { amount: bigint; address: Uint8Array }[];
    /**
     * Minter sets: one mint output each. As on the reference node's static service, the
     * threshold of a genesis minter set is always 1 (the given threshold is not used).
     */
    variableCap?: { minters: Uint8Array[]; threshold?: number }[];
  };
}

/**
 * CreateAssetTxs of a genesis, built like the reference node's static service: one secp256k1fx
 * initial state holding the fixedCap holders and the variableCap minter sets (outputs sorted
 * by their bytes, minter addresses sorted), empty blockchain ID, no inputs or outputs; assets
 * sorted by alias.
 */
export function buildGenesisAssets(
  networkId: number,
  definitions: Record<string, GenesisAssetDefinition> | Iterable<[string, GenesisAssetDefinition]>,
): GenesisAsset[] {
  const entries: [string, GenesisAssetDefinition][] =
    Symbol.iterator in Object(definitions) ? [...(definitions as Iterable<[string, GenesisAssetDefinition]>)] : Object.entries(definitions);
  const assets = entries.map(([alias, def]): GenesisAsset => {
    const initialStates: InitialState[] = [];
    const fixedCap = def.initialState?.fixedCap ?? [];
    const variableCap = def.initialState?.variableCap ?? [];
    if (def.initialState !== undefined && (def.initialState.fixedCap !== undefined || def.initialState.variableCap !== undefined)) {
      const outputs: Output[] = [
        ...fixedCap.map((holder): Output => ({
          typeId: TypeId.Secp256k1TransferOutput,
          amount: holder.amount,
          locktime: 0n,
          threshold: 1,
          addresses: [holder.address],
        })),
        ...variableCap.map((set): Output => ({
          typeId: TypeId.Secp256k1MintOutput,
          locktime: 0n,
          threshold: 1,
          addresses: [...set.minters].sort(compareShortIds),
        })),
      ];
      outputs.sort(compareOutputs);
      initialStates.push({ fxIndex: FxIndex.Secp256k1, outputs });
    }
    return {
      alias,
      tx: {
        typeId: TypeId.CreateAssetTx,
        networkId,
        blockchainId: new Uint8Array(32),
        outputs: [],
        inputs: [],
        memo: def.memo ?? new Uint8Array(0),
        name: def.name,
        symbol: def.symbol,
        denomination: def.denomination ?? 0,
        initialStates,
      },
    };
  });
  return assets.sort((a, b) => compareAliases(a.alias, b.alias));
}

// ---------------------------------------------------------------------------------------
// The local network
// ---------------------------------------------------------------------------------------

/**
 * The exchange-chain allocations of the reference node's local network (avalanchego
 * genesis/genesis_local.json: the allocations with a non-zero initialAmount; each allocation's
 * ethAddr, 0xb3d82b1367d362de99ab59a658165aff520cbd4d for all, is appended to the memo).
 * Sorted by output bytes, the ewoq key's 300 000 000 AVAX is output 1 of the genesis asset.
 */
export const LOCAL_GENESIS_HOLDERS: readonly { address: string; amount: bigint }[] = [
  { address: "local1ur873jhz9qnaqv5qthk5sn3e8nj3e0kmggalnu", amount: 10_000_000_000_000_000n },
  { address: "local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u", amount: 300_000_000_000_000_000n },
];
export const LOCAL_GENESIS_ETH_ADDR = "0xb3d82b1367d362de99ab59a658165aff520cbd4d";

export interface LocalGenesisOptions {
  /**
   * Extra funded addresses ("X-..." or bare bech32, or 20-byte short IDs) with amounts of the
   * native asset (smallest unit). They are added by one extra genesis transaction; the native
   * asset ID and the reference allocations stay exactly those of a real local network.
   */
  fundedAddresses?: { address: string | Uint8Array; amount: bigint | number | string; locktime?: bigint | number }[];
}

function shortIdOf(address: string | Uint8Array): Uint8Array {
  if (address instanceof Uint8Array) {
    if (address.length !== SHORT_ID_LENGTH) throw new RangeError(`a funded address short ID must be ${SHORT_ID_LENGTH} bytes, got ${address.length}`);
    return address;
  }
  return address.includes("-") ? parseChainAddress(address).shortId : parseBech32Address(address).shortId;
}

function toAmount(value: bigint | number | string, what: string): bigint {
  let amount: bigint;
  try {
    amount = BigInt(value);
  } catch {
    throw new RangeError(`${what} must be an integer, got ${String(value)}`);
  }
  if (amount <= 0n || amount > UINT64_MAX) throw new RangeError(`${what} must be in [1, 2^64 - 1], got ${amount}`);
  return amount;
}

/**
 * The reference local network's exchange-chain genesis for `network` (by default the local
 * network): the native asset "AVAX" (name, symbol and denomination from `network`) whose
 * creation is byte-for-byte the reference one, so its ID is
 * 2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe for network ID 12345, with the ewoq key
 * holding 300 000 000 AVAX in output 1. Options add funded addresses.
 */
export function localGenesis(network: NetworkIdentifiers = LOCAL_NETWORK, options: LocalGenesisOptions = {}): ExchangeGenesis {
  const eth = Buffer.from(LOCAL_GENESIS_ETH_ADDR.slice(2), "hex");
  const memo = new Uint8Array(Buffer.concat(LOCAL_GENESIS_HOLDERS.map(() => eth)));
  const assets = buildGenesisAssets(network.networkId, {
    [network.nativeAsset.alias]: {
      name: network.nativeAsset.name,
      symbol: network.nativeAsset.symbol,
      denomination: network.nativeAsset.denomination,
      memo,
      initialState: {
        fixedCap: LOCAL_GENESIS_HOLDERS.map((h) => ({ amount: h.amount, address: parseBech32Address(h.address).shortId })),
      },
    },
  });
  const allocations = (options.fundedAddresses ?? []).map((f, i): GenesisAllocation => ({
    shortId: shortIdOf(f.address),
    amount: toAmount(f.amount, `fundedAddresses[${i}].amount`),
    locktime: f.locktime === undefined ? 0n : BigInt(f.locktime),
  }));
  return allocations.length === 0 ? { assets } : { assets, allocations };
}
