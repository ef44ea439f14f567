/**
 * The contract chain's cross-chain API (the seed's `cvm.*` at /ext/bc/C/cvm, the reference
 * node's `avax.*` at /ext/bc/C/avax; both names are served by the same method table) over one
 * `ContractChainAtomics`. Parameters are named (`NamedParams`); results have the node's shapes,
 * with 64-bit numbers as decimal strings.
 *
 * Errors: -32602 for a parameter that cannot be read (the message names it), -32000 for a
 * request the node refuses (keystore, funds, verification; the node's wording), -32601 for an
 * unknown method.
 */
import {
  SHORT_ID_LENGTH,
  decodeCb58,
  decodePrivateKey,
  encodeCb58,
  encodeNodeBytes,
  encodePrivateKey,
  equalBytes,
  formatChainAddress,
  toChecksumAddress,
} from "../../encoding";
import type { Keystore } from "../../keystore/keystore";
import type { NetworkIdentifiers } from "../../network/constants";
import { PATHS } from "../../network/paths";
import { type NamedParams, RpcApi, type RpcError, describeValue, invalidParams, serverError } from "../../rpc";
import { evmAddressOfPrivateKey } from "../atomic-codec";
import { AtomicTxError } from "../errors";
import type { ContractChainAtomics } from "../service";
import {
  ContractChainParams,
  EVM_ADDRESS_PATTERN,
  ZERO_ID,
  authenticate,
  baseFeeParam,
  decoded,
  encodingParam,
  evmAddressParam,
  idParam,
  txBytesParam,
  txIdParam,
} from "./params";

export interface ContractChainAtomicApiOptions {
  /** The chain's atomic-transaction service the API issues to and reads from. */
  atomics: ContractChainAtomics;
  /** The keystore whose users' contract-chain keys sign imports and exports. */
  keystore: Keystore;
}

/** Namespaces the methods answer under: the seed's and the reference node's. */
export const CONTRACT_CHAIN_ATOMIC_NAMESPACES = ["cvm", "avax"] as const;
/** Paths the API is meant for. */
export const CONTRACT_CHAIN_CVM_PATH = PATHS.contractCvm;
export const CONTRACT_CHAIN_AVAX_PATH = PATHS.contractAvax;

/** Most addresses one getUTXOs call may name, and most UTXOs it returns. */
export const MAX_GET_UTXOS_ADDRESSES = 1024;
export const MAX_UTXOS_TO_FETCH = 1024;

const METHODS = [
  "export",
  "exportAVAX",
  "import",
  "importAVAX",
  "exportKey",
  "importKey",
  "getUTXOs",
  "getAtomicTx",
  "getAtomicTxStatus",
  "issueTx",
] as const;

/** Every method name served, in both namespaces (e.g. "cvm.export" and "avax.export"). */
export const CONTRACT_CHAIN_ATOMIC_METHODS: readonly string[] = CONTRACT_CHAIN_ATOMIC_NAMESPACES.flatMap((ns) => METHODS.map((m) => `${ns}.${m}`));

/** What the methods work on, built once per API. */
interface ContractChainAtomicContext {
  readonly atomics: ContractChainAtomics;
  readonly keystore: Keystore;
  readonly network: NetworkIdentifiers;
  /** This chain's ID: the key ring of its users' keys, and the atomic memory's side read here. */
  readonly cChainId: Uint8Array;
  readonly nativeAssetId: Uint8Array;
  readonly chains: ContractChainParams;
}

/** An AtomicTxError is a refusal of the node's, in its words (-32000). */
function atomicRefusal(error: unknown): RpcError | undefined {
  return error instanceof AtomicTxError ? serverError(error.message) : undefined;
}

/**
 * The contract chain's cross-chain API: `cvm.<method>` and `avax.<method>` for export,
 * exportAVAX, import, importAVAX, exportKey, importKey, getUTXOs, getAtomicTx,
 * getAtomicTxStatus and issueTx. Mount its `dispatch` on both paths.
 */
export function createContractChainAtomicApi(options: ContractChainAtomicApiOptions): RpcApi {
  const { atomics, keystore } = options;
  const { network } = atomics;
  const cChainId = atomics.ctx.chainId;
  const context: ContractChainAtomicContext = {
    atomics,
    keystore,
    network,
    cChainId,
    nativeAssetId: decodeCb58(network.nativeAsset.id),
    chains: new ContractChainParams(network, cChainId),
  };
  const api = new RpcApi({
    mapError: atomicRefusal,
    unknownMethodHint: `this path serves ${METHODS.map((m) => `cvm.${m}`).join(", ")}, also under the avax. prefix`,
  });
  return api.namedMethods(context, {
    "avax.export": exportAsset,
    "cvm.export": exportAsset,
    "avax.exportAVAX": exportAVAX,
    "cvm.exportAVAX": exportAVAX,
    "avax.import": importFunds,
    "cvm.import": importFunds,
    "avax.importAVAX": importFunds,
    "cvm.importAVAX": importFunds,
    "avax.exportKey": exportKey,
    "cvm.exportKey": exportKey,
    "avax.importKey": importKey,
    "cvm.importKey": importKey,
    "avax.getUTXOs": getUTXOs,
    "cvm.getUTXOs": getUTXOs,
    "avax.getAtomicTx": getAtomicTx,
    "cvm.getAtomicTx": getAtomicTx,
    "avax.getAtomicTxStatus": getAtomicTxStatus,
    "cvm.getAtomicTxStatus": getAtomicTxStatus,
    "avax.issueTx": issueTx,
    "cvm.issueTx": issueTx,
  });
}

/** to (X- address), amount, assetID (or the native alias), baseFee?, username, password → txID. */
function exportAsset(context: ContractChainAtomicContext, p: NamedParams) {
  const assetText = p.string("assetID", "assetID is required");
  return exportAmountOf(context, p, assetText === context.network.nativeAsset.alias ? context.nativeAssetId : idParam(p, "assetID"));
}

/** export of the native coin (the node's older name). */
function exportAVAX(context: ContractChainAtomicContext, p: NamedParams) {
  return exportAmountOf(context, p, context.nativeAssetId);
}

/** What export and exportAVAX do: `amount` of `assetId` to the chain and owner `to` names. */
async function exportAmountOf({ atomics, keystore, cChainId, chains }: ContractChainAtomicContext, p: NamedParams, assetId: Uint8Array) {
  const amount = p.uint("amount", 64, 0n);
  if (amount === 0n) throw invalidParams("argument 'amount' must be > 0");
  const { chain, shortId } = chains.exportDestination(p);
  const baseFee = baseFeeParam(p);
  const user = await authenticate(keystore, p, (u) => `problem retrieving user '${u}'`);
  const keys = user.keysFor(cChainId);
  try {
    const accepted = await atomics.exportFunds({ assetId, amount, destinationChain: chain, to: shortId, keys, ...(baseFee === undefined ? {} : { baseFee }) });
    return { txID: accepted.txId };
  } catch (error) {
    if (error instanceof AtomicTxError && error.txId === undefined) throw serverError(`couldn't create tx: ${error.message}`);
    throw error;
  }
}

/** import and importAVAX: every atomic UTXO from `sourceChain` the user's keys can spend, credited to `to`. */
async function importFunds({ atomics, keystore, cChainId, chains }: ContractChainAtomicContext, p: NamedParams) {
  const to = evmAddressParam(p, "to");
  const sourceChain = chains.chain(p, "sourceChain");
  const baseFee = baseFeeParam(p);
  const user = await authenticate(keystore, p, (u) => `couldn't get user '${u}'`);
  const accepted = await atomics.importFunds({ sourceChain, to, keys: user.keysFor(cChainId), ...(baseFee === undefined ? {} : { baseFee }) });
  return { txID: accepted.txId };
}

/** username, password, address (0x) → privateKey ("PrivateKey-…") and privateKeyHex. */
async function exportKey({ keystore, cChainId }: ContractChainAtomicContext, p: NamedParams) {
  const text = p.raw("address");
  if (typeof text !== "string" || !EVM_ADDRESS_PATTERN.test(text)) {
    throw invalidParams(`couldn't parse ${typeof text === "string" ? text : describeValue(text)} to address: expected 0x followed by 40 hex digits`);
  }
  const address = evmAddressParam(p, "address");
  const user = await authenticate(keystore, p, (u) => `problem retrieving user '${u}'`);
  const key = user.keysFor(cChainId).find((k) => equalBytes(evmAddressOfPrivateKey(k), address));
  if (key === undefined) {
    throw serverError(`problem retrieving private key: not found (user '${user.username}' holds no contract-chain key for ${toChecksumAddress(address)}; import it with importKey)`);
  }
  return { privateKey: encodePrivateKey(key), privateKeyHex: "0x" + Buffer.from(key).toString("hex") };
}

/** username, password, privateKey ("PrivateKey-…") → address (0x, checksummed). */
async function importKey({ keystore, cChainId }: ContractChainAtomicContext, p: NamedParams) {
  const text = p.string("privateKey", "argument 'privateKey' not given");
  const key = decoded("privateKey", () => decodePrivateKey(text));
  const user = await authenticate(keystore, p, () => "problem retrieving data");
  await user.addKey(cChainId, key);
  return { address: toChecksumAddress(evmAddressOfPrivateKey(key)) };
}

/** Atomic UTXOs waiting on this chain from sourceChain, owned by any of the C- addresses. */
async function getUTXOs({ atomics, network, cChainId, chains }: ContractChainAtomicContext, p: NamedParams) {
  const addresses = p.stringArray("addresses");
  if (addresses.length === 0) throw invalidParams("no addresses provided");
  if (addresses.length > MAX_GET_UTXOS_ADDRESSES) {
    throw invalidParams(`number of addresses given, ${addresses.length}, exceeds maximum, ${MAX_GET_UTXOS_ADDRESSES}`);
  }
  const sourceChain = chains.chain(p, "sourceChain");
  const owners = addresses.map((a) => chains.serviceAddress(a));
  const encoding = encodingParam(p);
  let limit = Number(p.uint("limit", 32, 0n));
  if (limit <= 0 || limit > MAX_UTXOS_TO_FETCH) limit = MAX_UTXOS_TO_FETCH;
  let startTrait: Uint8Array | undefined;
  let startKey: Uint8Array | undefined;
  const start = p.object("startIndex");
  if (start !== undefined && (start.given("address") || start.given("utxo"))) {
    startTrait = chains.serviceAddress(start.string("address"));
    startKey = idParam(start, "utxo");
  }
  const page = atomics.sharedMemory.indexed(cChainId, sourceChain, owners, startTrait, startKey, limit);
  return {
    numFetched: String(page.values.length),
    utxos: page.values.map((v) => encodeNodeBytes(v, encoding)),
    endIndex: {
      address: formatChainAddress(page.lastTrait ?? new Uint8Array(SHORT_ID_LENGTH), network.hrp, "C"),
      utxo: encodeCb58(page.lastKey ?? ZERO_ID),
    },
    encoding,
  };
}

/** txID, encoding → tx, encoding, blockHeight (when accepted). */
async function getAtomicTx({ atomics }: ContractChainAtomicContext, p: NamedParams) {
  const id = txIdParam(p);
  const encoding = encodingParam(p);
  const txId = encodeCb58(id);
  const known = atomics.transaction(txId);
  if (known === undefined) throw serverError(`could not find tx ${txId}`);
  return {
    tx: encodeNodeBytes(known.bytes, encoding),
    encoding,
    ...(known.blockHeight === undefined ? {} : { blockHeight: known.blockHeight.toString() }),
  };
}

/** txID → status, blockHeight (when accepted). */
async function getAtomicTxStatus({ atomics }: ContractChainAtomicContext, p: NamedParams) {
  const { status, blockHeight } = atomics.status(encodeCb58(txIdParam(p)));
  return blockHeight === undefined ? { status } : { status, blockHeight: blockHeight.toString() };
}

/** A signed atomic transaction (cb58 or hex) → txID. */
async function issueTx({ atomics }: ContractChainAtomicContext, p: NamedParams) {
  const bytes = txBytesParam(p);
  try {
    return { txID: (await atomics.issue(bytes)).txId };
  } catch (error) {
    if (error instanceof AtomicTxError && error.code === "malformed") throw invalidParams(`tx: ${error.message}`);
    throw error;
  }
}
