import type { SharedMemory } from "../atomic/shared-memory";
import type { AtomicChainHost } from "../engine/atomic-host";
import { RpcError, RpcErrorCode } from "../rpc/errors";
import {
  EncodingError,
  decodeCb58,
  decodePrivateKey,
  encodeCb58,
  encodePrivateKey,
  equalBytes,
  formatChainAddress,
  parseChainAddress,
  toChecksumAddress,
} from "../encoding";
import { type Keystore, KeystoreError, type KeystoreUser } from "../keystore/keystore";
import { LOCAL_NETWORK, type NetworkIdentifiers } from "../network/constants";
import { SHORT_ID_LENGTH } from "../xchain/codec";
import { P_CHAIN_ID } from "./context";
import { AtomicTxError } from "./errors";
import { ContractChainAtomics } from "./service";
import { evmAddressOfPrivateKey } from "./atomic-codec";
import { type ApiByteEncoding, ApiEncodingError, decodeApiBytes, encodeApiBytes, parseApiByteEncoding, parseTxEncoding } from "./formatting";
import type { Dispatch } from "../rpc/types";

/*
 * The contract chain's cross-chain API (the seed's `cvm.*` at /ext/bc/C/cvm, the reference
 * node's `avax.*` at /ext/bc/C/avax; both names are served by the same dispatch). Parameters
 * are one JSON object (or an array holding it); results have the node's shapes, with 64-bit
 * numbers as decimal strings.
 *
 * Errors: -32602 for a parameter that cannot be read (the message names it), -32000 for a
 * request the node refuses (keystore, funds, verification; the node's wording), -32601 for an
 * unknown method.
 */

/** A JSON-RPC method handler, as the HTTP node mounts it on a path. */
export type AtomicDispatch = Dispatch;

export interface ContractChainAtomicApiOptions {
  host: AtomicChainHost;
  sharedMemory: SharedMemory;
  keystore: Keystore;
  network?: NetworkIdentifiers;
  /** Share an existing instance (e.g. with the Hardhat plugin); one is created otherwise. */
  atomics?: ContractChainAtomics;
  /** The Banff rule (only the native coin crosses chains); default: the host's `deprecatedPrecompiles`. */
  nativeOnly?: boolean;
  /** Unix seconds for UTXO locktimes (default: wall clock, never before the head block). */
  clock?: () => bigint;
}

/** Namespaces the methods answer under: the seed's and the reference node's. */
export const CONTRACT_CHAIN_ATOMIC_NAMESPACES = ["cvm", "avax"] as const;
/** Paths the dispatch is meant for. */
export const CONTRACT_CHAIN_CVM_PATH = "/ext/bc/C/cvm";
export const CONTRACT_CHAIN_AVAX_PATH = "/ext/bc/C/avax";

/** Most addresses one getUTXOs call may name, and most UTXOs it returns. */
export const MAX_GET_UTXOS_ADDRESSES = 1024;
export const MAX_UTXOS_TO_FETCH = 1024;

const UINT64_MAX = (1n << 64n) - 1n;
const UINT32_MAX = 0xffff_ffff;
const ZERO_ID = new Uint8Array(32);

function invalid(message: string): RpcError {
  return new RpcError(RpcErrorCode.InvalidParams, message);
}

function refused(message: string): RpcError {
  return new RpcError(RpcErrorCode.ServerError, message);
}

function show(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}...` : value);
  if (value === undefined) return "nothing";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return typeof value;
  }
}

type Args = Record<string, unknown>;

/** The node's JSON-RPC servers take one object, or an array whose only element is that object. */
function argsOf(method: string, params: unknown): Args {
  if (params === undefined || params === null) return {};
  let value = params;
  if (Array.isArray(value)) {
    if (value.length === 0) return {};
    if (value.length !== 1) throw invalid(`${method} takes one object of named parameters, got an array of ${value.length} values`);
    value = value[0];
    if (value === undefined || value === null) return {};
  }
  if (typeof value !== "object" || Array.isArray(value)) throw invalid(`${method} takes one object of named parameters, got ${show(value)}`);
  return value as Args;
}

function requiredString(args: Args, name: string): string {
  const value = args[name];
  if (value === undefined || value === null || value === "") throw invalid(`missing parameter ${name}`);
  if (typeof value !== "string") throw invalid(`${name} must be a string, got ${show(value)}`);
  return value;
}

function optionalString(args: Args, name: string): string | undefined {
  const value = args[name];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw invalid(`${name} must be a string, got ${show(value)}`);
  return value;
}

/** The node's JSON uint: a non-negative integer, as a JSON number or a decimal string. */
function unsigned(value: unknown, name: string, max: bigint): bigint | undefined {
  if (value === undefined || value === null) return undefined;
  let parsed: bigint | undefined;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) parsed = BigInt(value);
  else if (typeof value === "string" && /^[0-9]+$/.test(value)) parsed = BigInt(value);
  if (parsed === undefined || parsed > max) {
    throw invalid(`${name} must be an integer in [0, ${max}] (a JSON number or a decimal string), got ${show(value)}`);
  }
  return parsed;
}

/** A base fee in wei: "0x..." (the node's form), a decimal string or a JSON number. */
function baseFeeArg(args: Args): bigint | undefined {
  const value = args.baseFee;
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "string" && /^0x[0-9a-fA-F]+$/.test(value)) return BigInt(value);
  const parsed = unsigned(value, "baseFee", (1n << 256n) - 1n);
  return parsed;
}

/** The encoding parameter; with `txText`, the encoding of that transaction (hex when unnamed and "0x…"). */
function encodingArg(args: Args, txText?: string): ApiByteEncoding {
  try {
    return txText === undefined ? parseApiByteEncoding(args.encoding) : parseTxEncoding(args.encoding, txText);
  } catch (error) {
    if (error instanceof ApiEncodingError) throw invalid(`encoding: ${error.message}`);
    throw error;
  }
}

function evmAddressArg(value: unknown, name: string): Uint8Array {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(value)) {
    throw invalid(`${name} must be a contract-chain address (0x followed by 40 hex digits), got ${show(value)}`);
  }
  return new Uint8Array(Buffer.from(value.slice(2), "hex"));
}

function idArg(value: unknown, name: string): Uint8Array {
  if (typeof value !== "string" || value === "") throw invalid(`missing parameter ${name} (a cb58 ID)`);
  let bytes: Uint8Array;
  try {
    bytes = decodeCb58(value);
  } catch (error) {
    throw invalid(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (bytes.length !== 32) throw invalid(`${name} must be a 32-byte ID in cb58, got ${bytes.length} bytes`);
  return bytes;
}

/** The service: every method of the contract chain's cross-chain API over one ContractChainAtomics. */
export class ContractChainAtomicApi {
  readonly atomics: ContractChainAtomics;
  readonly keystore: Keystore;
  readonly network: NetworkIdentifiers;
  private readonly aliases: Map<string, Uint8Array>;
  private readonly primaryAlias: Map<string, string>;

  constructor(options: ContractChainAtomicApiOptions) {
    this.network = options.network ?? options.atomics?.network ?? LOCAL_NETWORK;
    this.atomics =
      options.atomics ??
      new ContractChainAtomics({
        host: options.host,
        sharedMemory: options.sharedMemory,
        network: this.network,
        ...(options.nativeOnly === undefined ? {} : { nativeOnly: options.nativeOnly }),
        ...(options.clock === undefined ? {} : { clock: options.clock }),
      });
    this.keystore = options.keystore;
    const x = decodeCb58(this.network.xChainId);
    const c = decodeCb58(this.network.cChainId);
    this.aliases = new Map([
      ["X", x],
      ["avm", x],
      [this.network.xChainId, x],
      ["C", c],
      ["evm", c],
      [this.network.cChainId, c],
      ["P", P_CHAIN_ID],
      ["platform", P_CHAIN_ID],
      [encodeCb58(P_CHAIN_ID), P_CHAIN_ID],
    ]);
    this.primaryAlias = new Map([
      [Buffer.from(x).toString("hex"), "X"],
      [Buffer.from(c).toString("hex"), "C"],
      [Buffer.from(P_CHAIN_ID).toString("hex"), "P"],
    ]);
  }

  private get cChainId(): Uint8Array {
    return this.atomics.ctx.chainId;
  }

  /** A chain by alias ("X", "C", "P", "avm", "evm", "platform") or cb58 ID. */
  lookupChain(text: string): Uint8Array | undefined {
    return this.aliases.get(text);
  }

  private chainArg(args: Args, name: string): Uint8Array {
    const value = args[name];
    if (value === undefined || value === null || value === "") throw invalid(name === "sourceChain" ? "no source chain provided" : `missing parameter ${name}`);
    if (typeof value !== "string") throw invalid(`${name} must be a chain alias or ID, got ${show(value)}`);
    const chain = this.lookupChain(value);
    if (chain === undefined) {
      throw invalid(`problem parsing ${name === "sourceChain" ? "source " : ""}chainID ${JSON.stringify(value)}: there is no chain with alias or ID ${JSON.stringify(value)} (use "X", "P" or a chain ID)`);
    }
    return chain;
  }

  private async user(args: Args, prefix: (username: string) => string): Promise<KeystoreUser> {
    const username = args.username;
    const password = args.password;
    if (typeof username !== "string" || username === "") throw invalid("missing parameter username");
    if (typeof password !== "string") throw invalid("missing parameter password");
    try {
      return await this.keystore.authenticate(username, password);
    } catch (error) {
      if (error instanceof KeystoreError) throw refused(`${prefix(username)}: ${error.message}`);
      throw error;
    }
  }

  /** "X-local1…" (or a cb58 short ID with `targetChain`) → destination chain and short ID, as the node's export parses `to`. */
  private exportDestination(args: Args): { chain: Uint8Array; shortId: Uint8Array } {
    const to = requiredString(args, "to");
    if (to.includes("-")) {
      let parsed;
      try {
        parsed = parseChainAddress(to);
      } catch (error) {
        if (error instanceof EncodingError) throw invalid(`to: ${error.message}`);
        throw error;
      }
      const chain = this.lookupChain(parsed.chainAlias);
      if (chain === undefined) throw invalid(`to: there is no chain with alias ${JSON.stringify(parsed.chainAlias)} (expected e.g. "X-${this.network.hrp}1...")`);
      if (parsed.hrp !== this.network.hrp) throw invalid(`to: expected hrp ${JSON.stringify(this.network.hrp)} but got ${JSON.stringify(parsed.hrp)}`);
      return { chain, shortId: parsed.shortId };
    }
    const targetChain = optionalString(args, "targetChain");
    if (targetChain === undefined) {
      throw invalid(`to must be an exchange-chain address such as "X-${this.network.hrp}1...", got ${show(to)}`);
    }
    const chain = this.lookupChain(targetChain);
    if (chain === undefined) throw invalid(`problem parsing chainID ${JSON.stringify(targetChain)}: there is no chain with alias or ID ${JSON.stringify(targetChain)}`);
    let shortId: Uint8Array;
    try {
      shortId = decodeCb58(to);
    } catch (error) {
      throw invalid(`to: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (shortId.length !== SHORT_ID_LENGTH) throw invalid(`to must name a ${SHORT_ID_LENGTH}-byte address, got ${shortId.length} bytes`);
    return { chain, shortId };
  }

  /** A getUTXOs address: "C-local1…" or a cb58 short ID. */
  private serviceAddress(text: unknown, name: string): Uint8Array {
    if (typeof text !== "string") throw invalid(`${name} must be a string such as "C-${this.network.hrp}1...", got ${show(text)}`);
    try {
      const raw = decodeCb58(text);
      if (raw.length === SHORT_ID_LENGTH) return raw;
    } catch {
      // not a bare short ID: a chain address then
    }
    let parsed;
    try {
      parsed = parseChainAddress(text);
    } catch (error) {
      if (error instanceof EncodingError) throw invalid(`couldn't parse address ${JSON.stringify(text)}: ${error.message}`);
      throw error;
    }
    const chain = this.lookupChain(parsed.chainAlias);
    if (chain === undefined) throw invalid(`couldn't parse address ${JSON.stringify(text)}: there is no chain with alias ${JSON.stringify(parsed.chainAlias)}`);
    if (parsed.hrp !== this.network.hrp) throw invalid(`couldn't parse address ${JSON.stringify(text)}: expected hrp ${JSON.stringify(this.network.hrp)} but got ${JSON.stringify(parsed.hrp)}`);
    if (!equalBytes(chain, this.cChainId)) {
      throw invalid(
        `couldn't parse address ${JSON.stringify(text)}: expected chainID to be ${JSON.stringify(this.network.cChainId)} but was ${JSON.stringify(encodeCb58(chain))} (atomic UTXOs waiting on this chain are listed by their C- address)`,
      );
    }
    return parsed.shortId;
  }

  private refusedFrom(error: unknown, prefix = ""): never {
    if (error instanceof AtomicTxError) throw refused(prefix + error.message);
    throw error;
  }

  // ---------------------------------------------------------------------------- methods

  /** export: to (X- address), amount, assetID (or the native alias), baseFee?, username, password → txID. */
  async export(args: Args): Promise<{ txID: string }> {
    const assetText = args.assetID;
    if (assetText === undefined || assetText === null || assetText === "") throw invalid("assetID is required");
    if (typeof assetText !== "string") throw invalid(`assetID must be a cb58 asset ID or ${JSON.stringify(this.network.nativeAsset.alias)}, got ${show(assetText)}`);
    const assetId = assetText === this.network.nativeAsset.alias ? decodeCb58(this.network.nativeAsset.id) : idArg(assetText, "assetID");
    const amount = unsigned(args.amount, "amount", UINT64_MAX) ?? 0n;
    if (amount === 0n) throw invalid("argument 'amount' must be > 0");
    const { chain, shortId } = this.exportDestination(args);
    const baseFee = baseFeeArg(args);
    const user = await this.user(args, (u) => `problem retrieving user '${u}'`);
    const keys = user.keysFor(this.cChainId);
    try {
      const accepted = await this.atomics.exportFunds({ assetId, amount, destinationChain: chain, to: shortId, keys, ...(baseFee === undefined ? {} : { baseFee }) });
      return { txID: accepted.txId };
    } catch (error) {
      if (error instanceof AtomicTxError && error.txId === undefined) this.refusedFrom(error, "couldn't create tx: ");
      return this.refusedFrom(error);
    }
  }

  /** exportAVAX: export of the native coin (the node's older name). */
  async exportAVAX(args: Args): Promise<{ txID: string }> {
    return this.export({ ...args, assetID: this.network.nativeAsset.alias });
  }

  /** import: to (0x address credited), sourceChain, baseFee?, username, password → txID. */
  async import(args: Args): Promise<{ txID: string }> {
    const to = evmAddressArg(args.to, "to");
    const sourceChain = this.chainArg(args, "sourceChain");
    const baseFee = baseFeeArg(args);
    const user = await this.user(args, (u) => `couldn't get user '${u}'`);
    const keys = user.keysFor(this.cChainId);
    try {
      const accepted = await this.atomics.importFunds({ sourceChain, to, keys, ...(baseFee === undefined ? {} : { baseFee }) });
      return { txID: accepted.txId };
    } catch (error) {
      return this.refusedFrom(error);
    }
  }

  /** importAVAX: the node's older name of import. */
  async importAVAX(args: Args): Promise<{ txID: string }> {
    return this.import(args);
  }

  /** exportKey: username, password, address (0x) → privateKey ("PrivateKey-…") and privateKeyHex. */
  async exportKey(args: Args): Promise<{ privateKey: string; privateKeyHex: string }> {
    const addressText = args.address;
    if (typeof addressText !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(addressText)) {
      throw invalid(`couldn't parse ${typeof addressText === "string" ? addressText : show(addressText)} to address: expected 0x followed by 40 hex digits`);
    }
    const address = evmAddressArg(addressText, "address");
    const user = await this.user(args, (u) => `problem retrieving user '${u}'`);
    const key = user.keysFor(this.cChainId).find((k) => equalBytes(evmAddressOfPrivateKey(k), address));
    if (key === undefined) {
      throw refused(`problem retrieving private key: not found (user '${user.username}' holds no contract-chain key for ${toChecksumAddress(address)}; import it with importKey)`);
    }
    return { privateKey: encodePrivateKey(key), privateKeyHex: "0x" + Buffer.from(key).toString("hex") };
  }

  /** importKey: username, password, privateKey ("PrivateKey-…") → address (0x, checksummed). */
  async importKey(args: Args): Promise<{ address: string }> {
    const text = args.privateKey;
    if (text === undefined || text === null || text === "") throw invalid("argument 'privateKey' not given");
    let key: Uint8Array;
    try {
      key = decodePrivateKey(text as string);
    } catch (error) {
      if (error instanceof EncodingError) throw invalid(`privateKey: ${error.message}`);
      throw error;
    }
    const user = await this.user(args, () => "problem retrieving data");
    user.addKey(this.cChainId, key);
    return { address: toChecksumAddress(evmAddressOfPrivateKey(key)) };
  }

  /** getUTXOs: atomic UTXOs waiting on this chain from sourceChain, owned by any of the C- addresses. */
  async getUTXOs(args: Args): Promise<{ numFetched: string; utxos: string[]; endIndex: { address: string; utxo: string }; encoding: ApiByteEncoding }> {
    const list = args.addresses;
    if (list !== undefined && list !== null && !Array.isArray(list)) throw invalid(`addresses must be a list of "C-${this.network.hrp}1..." addresses, got ${show(list)}`);
    const addresses = (list ?? []) as unknown[];
    if (addresses.length === 0) throw invalid("no addresses provided");
    if (addresses.length > MAX_GET_UTXOS_ADDRESSES) {
      throw invalid(`number of addresses given, ${addresses.length}, exceeds maximum, ${MAX_GET_UTXOS_ADDRESSES}`);
    }
    const sourceChain = this.chainArg(args, "sourceChain");
    const owners = addresses.map((a, i) => this.serviceAddress(a, `addresses[${i}]`));
    const encoding = encodingArg(args);
    let limit = Number(unsigned(args.limit, "limit", BigInt(UINT32_MAX)) ?? 0n);
    if (limit <= 0 || limit > MAX_UTXOS_TO_FETCH) limit = MAX_UTXOS_TO_FETCH;
    let startTrait: Uint8Array | undefined;
    let startKey: Uint8Array | undefined;
    const start = args.startIndex;
    if (start !== undefined && start !== null) {
      if (typeof start !== "object" || Array.isArray(start)) throw invalid(`startIndex must be an object {address, utxo}, got ${show(start)}`);
      const { address, utxo } = start as { address?: unknown; utxo?: unknown };
      if ((address ?? "") !== "" || (utxo ?? "") !== "") {
        startTrait = this.serviceAddress(address, "startIndex.address");
        startKey = idArg(utxo, "startIndex.utxo");
      }
    }
    const page = this.atomics.sharedMemory.indexed(this.cChainId, sourceChain, owners, startTrait, startKey, limit);
    return {
      numFetched: String(page.values.length),
      utxos: page.values.map((v) => encodeApiBytes(v, encoding)),
      endIndex: {
        address: formatChainAddress(page.lastTrait ?? new Uint8Array(SHORT_ID_LENGTH), this.network.hrp, "C"),
        utxo: encodeCb58(page.lastKey ?? ZERO_ID),
      },
      encoding,
    };
  }

  /** getAtomicTx: txID, encoding → tx, encoding, blockHeight (when accepted). */
  async getAtomicTx(args: Args): Promise<{ tx: string; encoding: ApiByteEncoding; blockHeight?: string }> {
    const id = idArg(args.txID, "txID");
    if (equalBytes(id, ZERO_ID)) throw invalid("nil transaction ID");
    const encoding = encodingArg(args);
    const txId = encodeCb58(id);
    const known = this.atomics.transaction(txId);
    if (known === undefined) throw refused(`could not find tx ${txId}`);
    return {
      tx: encodeApiBytes(known.bytes, encoding),
      encoding,
      ...(known.blockHeight === undefined ? {} : { blockHeight: known.blockHeight.toString() }),
    };
  }

  /** getAtomicTxStatus: txID → status, blockHeight (when accepted). */
  async getAtomicTxStatus(args: Args): Promise<{ status: string; blockHeight?: string }> {
    const id = idArg(args.txID, "txID");
    if (equalBytes(id, ZERO_ID)) throw invalid("nil transaction ID");
    const { status, blockHeight } = this.atomics.status(encodeCb58(id));
    return blockHeight === undefined ? { status } : { status, blockHeight: blockHeight.toString() };
  }

  /** issueTx: a signed atomic transaction (cb58 or hex) → txID. */
  async issueTx(args: Args): Promise<{ txID: string }> {
    const text = requiredString(args, "tx");
    const encoding = encodingArg(args, text);
    let bytes: Uint8Array;
    try {
      bytes = decodeApiBytes(text, encoding);
    } catch (error) {
      if (error instanceof ApiEncodingError) throw invalid(`problem decoding transaction: ${error.message}`);
      throw error;
    }
    try {
      const accepted = await this.atomics.issue(bytes);
      return { txID: accepted.txId };
    } catch (error) {
      if (error instanceof AtomicTxError && error.code === "malformed") throw invalid(`tx: ${error.message}`);
      return this.refusedFrom(error);
    }
  }

  /** Primary alias of a chain ID ("X", "C", "P"), for messages. */
  chainAlias(chain: Uint8Array): string {
    return this.primaryAlias.get(Buffer.from(chain).toString("hex")) ?? encodeCb58(chain);
  }
}

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

type MethodName = (typeof METHODS)[number];

/** Every method name served, in both namespaces (e.g. "cvm.export" and "avax.export"). */
export const CONTRACT_CHAIN_ATOMIC_METHODS: readonly string[] = CONTRACT_CHAIN_ATOMIC_NAMESPACES.flatMap((ns) => METHODS.map((m) => `${ns}.${m}`));

/** The API and a dispatch function over it (mount the dispatch on both paths). */
export function createContractChainAtomicService(options: ContractChainAtomicApiOptions): { api: ContractChainAtomicApi; dispatch: AtomicDispatch } {
  const api = new ContractChainAtomicApi(options);
  const dispatch: AtomicDispatch = async (method, params) => {
    const dot = typeof method === "string" ? method.indexOf(".") : -1;
    const namespace = dot === -1 ? "" : method.slice(0, dot);
    const name = dot === -1 ? "" : method.slice(dot + 1);
    if (!(CONTRACT_CHAIN_ATOMIC_NAMESPACES as readonly string[]).includes(namespace) || !(METHODS as readonly string[]).includes(name)) {
      throw new RpcError(
        RpcErrorCode.MethodNotFound,
        `the method ${String(method)} does not exist/is not available (this path serves ${METHODS.map((m) => `cvm.${m}`).join(", ")}, also under the avax. prefix)`,
      );
    }
    const args = argsOf(method, params);
    return api[name as MethodName](args);
  };
  return { api, dispatch };
}

/**
 * The dispatch function of the contract chain's cross-chain API: `cvm.<method>` and
 * `avax.<method>` for export, exportAVAX, import, importAVAX, exportKey, importKey, getUTXOs,
 * getAtomicTx, getAtomicTxStatus and issueTx.
 */
export function createContractChainAtomicDispatch(options: ContractChainAtomicApiOptions): AtomicDispatch {
  return createContractChainAtomicService(options).dispatch;
}
