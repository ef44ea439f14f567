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
  EncodingError,
  type NodeByteEncoding,
  NODE_BYTE_ENCODINGS,
  SHORT_ID_LENGTH,
  decodeCb58,
  decodeNodeBytes,
  decodePrivateKey,
  encodeCb58,
  encodeNodeBytes,
  encodePrivateKey,
  equalBytes,
  formatChainAddress,
  parseChainAddress,
  toChecksumAddress,
} from "../encoding";
import { type Keystore, KeystoreError, type KeystoreUser } from "../keystore/keystore";
import { ChainDirectory } from "../network/chains";
import type { NetworkIdentifiers } from "../network/constants";
import { PATHS } from "../network/paths";
import { type NamedParams, RpcApi, type RpcError, describeValue, invalidParams, parseUint, serverError } from "../rpc";
import { evmAddressOfPrivateKey } from "./atomic-codec";
import { AtomicTxError } from "./errors";
import type { ContractChainAtomics } from "./service";

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

type MethodName = (typeof METHODS)[number];

/** Every method name served, in both namespaces (e.g. "cvm.export" and "avax.export"). */
export const CONTRACT_CHAIN_ATOMIC_METHODS: readonly string[] = CONTRACT_CHAIN_ATOMIC_NAMESPACES.flatMap((ns) => METHODS.map((m) => `${ns}.${m}`));

const ZERO_ID = new Uint8Array(32);
const EVM_ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/** An AtomicTxError is a refusal of the node's, in its words (-32000). */
function atomicRefusal(error: unknown): RpcError | undefined {
  return error instanceof AtomicTxError ? serverError(error.message) : undefined;
}

// ---------------------------------------------------------------------------------------
// Parameters
// ---------------------------------------------------------------------------------------

/** `decode()`, whose EncodingError is -32602 "<name>: <problem>". */
function decoded<T>(name: string, decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof EncodingError) throw invalidParams(`${name}: ${error.message}`);
    throw error;
  }
}

/** A contract-chain address: "0x" and 40 hex digits. */
function evmAddressParam(p: NamedParams, name: string): Uint8Array {
  const value = p.raw(name);
  if (typeof value !== "string" || !EVM_ADDRESS_PATTERN.test(value)) {
    throw invalidParams(`${p.nameOf(name)} must be a contract-chain address (0x followed by 40 hex digits), got ${describeValue(value)}`);
  }
  return new Uint8Array(Buffer.from(value.slice(2), "hex"));
}

/** A 32-byte ID in cb58. */
function idParam(p: NamedParams, name: string): Uint8Array {
  const text = p.string(name, `missing parameter ${p.nameOf(name)} (a cb58 ID)`);
  const bytes = decoded(p.nameOf(name), () => decodeCb58(text));
  if (bytes.length !== 32) throw invalidParams(`${p.nameOf(name)} must be a 32-byte ID in cb58, got ${bytes.length} bytes`);
  return bytes;
}

/** A transaction ID other than the empty one. */
function txIdParam(p: NamedParams): Uint8Array {
  const id = idParam(p, "txID");
  if (equalBytes(id, ZERO_ID)) throw invalidParams("nil transaction ID");
  return id;
}

/** A base fee in wei: "0x..." (the node's form), a decimal string or a JSON number. */
function baseFeeParam(p: NamedParams): bigint | undefined {
  if (!p.given("baseFee")) return undefined;
  const value = p.raw("baseFee");
  if (typeof value === "string" && /^0x[0-9a-fA-F]+$/.test(value)) return BigInt(value);
  return parseUint(value, p.nameOf("baseFee"), 256);
}

/**
 * The `encoding` parameter, case-insensitive; cb58 when not named. With `txText` (issueTx),
 * an unnamed encoding is hex when the text starts with "0x": the reference node defaults to
 * hex since avalanchego v1.7.14 (coreth's avax.issueTx decodes api.FormattedTx, whose zero
 * Encoding is Hex) and current SDKs (avalanchejs `issueSignedTx`) send "0x…" without naming
 * the encoding; no cb58 text starts with "0x" ("0" is not a base58 digit).
 */
function encodingParam(p: NamedParams, txText?: string): NodeByteEncoding {
  return p.choice("encoding", NODE_BYTE_ENCODINGS, txText?.startsWith("0x") === true ? "hex" : "cb58");
}

/** The signed transaction issueTx is given, in its encoding. */
function txBytesParam(p: NamedParams): Uint8Array {
  const text = p.string("tx");
  const encoding = encodingParam(p, text);
  try {
    return decodeNodeBytes(text, encoding);
  } catch (error) {
    // cb58's own message names the text; the hex forms' problem is told alone.
    if (error instanceof EncodingError) throw invalidParams(`problem decoding transaction: ${encoding === "cb58" ? error.message : error.detail}`);
    throw error;
  }
}

/**
 * The keystore user a call names (`username`, `password`); a keystore refusal is -32000 with
 * the method's own prefix: "problem retrieving user 'bob': user not found: bob".
 */
async function authenticate(keystore: Keystore, p: NamedParams, prefix: (username: string) => string): Promise<KeystoreUser> {
  const username = p.string("username");
  if (!p.has("password")) throw invalidParams("missing parameter password");
  const password = p.stringOr("password", "");
  try {
    return await keystore.authenticate(username, password);
  } catch (error) {
    if (error instanceof KeystoreError) throw serverError(`${prefix(username)}: ${error.message}`);
    throw error;
  }
}

/** Chains and addresses named in parameters, resolved on one network. */
class ChainParams {
  private readonly chains: ChainDirectory;

  constructor(
    private readonly network: NetworkIdentifiers,
    /** This (contract) chain's ID. */
    private readonly cChainId: Uint8Array,
  ) {
    this.chains = new ChainDirectory(network);
  }

  /** A chain by alias ("X", "C", "P", "avm", "evm", "platform", ...) or cb58 ID. */
  lookup(text: string): Uint8Array | undefined {
    return this.chains.lookup(text)?.bytes;
  }

  /** A required chain parameter (sourceChain). */
  chain(p: NamedParams, name: string): Uint8Array {
    const source = name === "sourceChain";
    const text = p.string(name, source ? "no source chain provided" : undefined);
    const chain = this.lookup(text);
    if (chain === undefined) {
      throw invalidParams(`problem parsing ${source ? "source " : ""}chainID ${JSON.stringify(text)}: there is no chain with alias or ID ${JSON.stringify(text)} (use "X", "P" or a chain ID)`);
    }
    return chain;
  }

  /** An export's `to`: "X-local1…" (or a cb58 short ID with `targetChain`) → destination chain and short ID, as the node parses it. */
  exportDestination(p: NamedParams): { chain: Uint8Array; shortId: Uint8Array } {
    const to = p.string("to");
    if (to.includes("-")) {
      const parsed = decoded("to", () => parseChainAddress(to));
      const chain = this.lookup(parsed.chainAlias);
      if (chain === undefined) throw invalidParams(`to: there is no chain with alias ${JSON.stringify(parsed.chainAlias)} (expected e.g. "X-${this.network.hrp}1...")`);
      if (parsed.hrp !== this.network.hrp) throw invalidParams(`to: expected hrp ${JSON.stringify(this.network.hrp)} but got ${JSON.stringify(parsed.hrp)}`);
      return { chain, shortId: parsed.shortId };
    }
    const targetChain = p.optionalString("targetChain");
    if (targetChain === undefined) {
      throw invalidParams(`to must be an exchange-chain address such as "X-${this.network.hrp}1...", got ${describeValue(to)}`);
    }
    const chain = this.lookup(targetChain);
    if (chain === undefined) throw invalidParams(`problem parsing chainID ${JSON.stringify(targetChain)}: there is no chain with alias or ID ${JSON.stringify(targetChain)}`);
    const shortId = decoded("to", () => decodeCb58(to));
    if (shortId.length !== SHORT_ID_LENGTH) throw invalidParams(`to must name a ${SHORT_ID_LENGTH}-byte address, got ${shortId.length} bytes`);
    return { chain, shortId };
  }

  /** A getUTXOs address: "C-local1…" or a cb58 short ID. */
  serviceAddress(text: string): Uint8Array {
    try {
      const raw = decodeCb58(text);
      if (raw.length === SHORT_ID_LENGTH) return raw;
    } catch {
      // not a bare short ID: a chain address then
    }
    const problem = (detail: string) => invalidParams(`couldn't parse address ${JSON.stringify(text)}: ${detail}`);
    let parsed;
    try {
      parsed = parseChainAddress(text);
    } catch (error) {
      if (error instanceof EncodingError) throw problem(error.message);
      throw error;
    }
    const chain = this.lookup(parsed.chainAlias);
    if (chain === undefined) throw problem(`there is no chain with alias ${JSON.stringify(parsed.chainAlias)}`);
    if (parsed.hrp !== this.network.hrp) throw problem(`expected hrp ${JSON.stringify(this.network.hrp)} but got ${JSON.stringify(parsed.hrp)}`);
    if (!equalBytes(chain, this.cChainId)) {
      throw problem(
        `expected chainID to be ${JSON.stringify(this.network.cChainId)} but was ${JSON.stringify(encodeCb58(chain))} (atomic UTXOs waiting on this chain are listed by their C- address)`,
      );
    }
    return parsed.shortId;
  }
}

// ---------------------------------------------------------------------------------------
// Methods
// ---------------------------------------------------------------------------------------

/**
 * The contract chain's cross-chain API: `cvm.<method>` and `avax.<method>` for export,
 * exportAVAX, import, importAVAX, exportKey, importKey, getUTXOs, getAtomicTx,
 * getAtomicTxStatus and issueTx. Mount its `dispatch` on both paths.
 */
export function createContractChainAtomicApi(options: ContractChainAtomicApiOptions): RpcApi {
  const { atomics, keystore } = options;
  const { network } = atomics;
  const cChainId = atomics.ctx.chainId;
  const chains = new ChainParams(network, cChainId);
  const nativeAssetId = decodeCb58(network.nativeAsset.id);

  /** export and exportAVAX: `amount` of `assetId` to the chain and owner `to` names. */
  const exportAsset = async (p: NamedParams, assetId: Uint8Array) => {
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
  };

  /** import and importAVAX: every atomic UTXO from `sourceChain` the user's keys can spend, credited to `to`. */
  const importFunds = async (p: NamedParams) => {
    const to = evmAddressParam(p, "to");
    const sourceChain = chains.chain(p, "sourceChain");
    const baseFee = baseFeeParam(p);
    const user = await authenticate(keystore, p, (u) => `couldn't get user '${u}'`);
    const accepted = await atomics.importFunds({ sourceChain, to, keys: user.keysFor(cChainId), ...(baseFee === undefined ? {} : { baseFee }) });
    return { txID: accepted.txId };
  };

  const handlers: Record<MethodName, (p: NamedParams) => Promise<unknown>> = {
    /** to (X- address), amount, assetID (or the native alias), baseFee?, username, password → txID. */
    export: (p) => {
      const assetText = p.string("assetID", "assetID is required");
      return exportAsset(p, assetText === network.nativeAsset.alias ? nativeAssetId : idParam(p, "assetID"));
    },
    /** export of the native coin (the node's older name). */
    exportAVAX: (p) => exportAsset(p, nativeAssetId),
    /** to (0x address credited), sourceChain, baseFee?, username, password → txID. */
    import: importFunds,
    /** the node's older name of import. */
    importAVAX: importFunds,
    /** username, password, address (0x) → privateKey ("PrivateKey-…") and privateKeyHex. */
    exportKey: async (p) => {
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
    },
    /** username, password, privateKey ("PrivateKey-…") → address (0x, checksummed). */
    importKey: async (p) => {
      const text = p.string("privateKey", "argument 'privateKey' not given");
      const key = decoded("privateKey", () => decodePrivateKey(text));
      const user = await authenticate(keystore, p, () => "problem retrieving data");
      await user.addKey(cChainId, key);
      return { address: toChecksumAddress(evmAddressOfPrivateKey(key)) };
    },
    /** Atomic UTXOs waiting on this chain from sourceChain, owned by any of the C- addresses. */
    getUTXOs: async (p) => {
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
    },
    /** txID, encoding → tx, encoding, blockHeight (when accepted). */
    getAtomicTx: async (p) => {
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
    },
    /** txID → status, blockHeight (when accepted). */
    getAtomicTxStatus: async (p) => {
      const { status, blockHeight } = atomics.status(encodeCb58(txIdParam(p)));
      return blockHeight === undefined ? { status } : { status, blockHeight: blockHeight.toString() };
    },
    /** A signed atomic transaction (cb58 or hex) → txID. */
    issueTx: async (p) => {
      const bytes = txBytesParam(p);
      try {
        return { txID: (await atomics.issue(bytes)).txId };
      } catch (error) {
        if (error instanceof AtomicTxError && error.code === "malformed") throw invalidParams(`tx: ${error.message}`);
        throw error;
      }
    },
  };

  const api = new RpcApi({
    namespaces: CONTRACT_CHAIN_ATOMIC_NAMESPACES,
    mapError: atomicRefusal,
    unknownMethodHint: `this path serves ${METHODS.map((m) => `cvm.${m}`).join(", ")}, also under the avax. prefix`,
  });
  for (const name of METHODS) api.named(name, handlers[name]);
  return api;
}
