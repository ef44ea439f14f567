import { secp256k1 } from "@noble/curves/secp256k1.js";
import { decodeCb58, decodePrivateKey, encodeCb58, encodePrivateKey, equalBytes, parseBech32Address, parseChainAddress } from "../encoding";
import { EncodingError } from "../encoding/errors";
import { methodNotFound } from "../rpc/errors";
import { NamedParams } from "../rpc/named-params";
import { authenticateUser } from "../keystore/api";
import type { Keystore, KeystoreUser } from "../keystore/keystore";
import { CodecError, MAX_MEMO_SIZE, MAX_NFT_PAYLOAD_SIZE, shortIdFromPrivateKey } from "./codec";
import { buildGenesisAssets, encodeGenesisBytes, type GenesisAssetDefinition } from "./genesis";
import type { ExchangeChain } from "./vm/chain";
import { TxRejectedError, WalletError } from "./vm/errors";
import { txToJson } from "./vm/json";
import {
  badParams,
  booleanParam,
  encodingParam,
  formatBytes,
  idValue,
  paramsObject,
  type Params,
  parseBytes,
  requiredString,
  serverError,
  stringArrayParam,
  stringParam,
  txEncodingParam,
  uintParam,
  uintValue,
} from "./vm/rpc-params";
import { type BuiltTx, ExchangeWallet, type SpendOptions } from "./vm/wallet";
import type { Dispatch } from "../rpc/types";

/**
 * JSON-RPC services of the exchange chain, as the reference node serves them (avalanchego
 * vms/avm/service.go and static_service.go at the last version with the keystore APIs):
 *
 * - createExchangeChainDispatch: path /ext/bc/X, every method under both names xvm.<m> and
 *   avm.<m>.
 * - createStaticXvmDispatch: path /ext/vm/xvm (and /ext/vm/avm), xvm.buildGenesis /
 *   avm.buildGenesis.
 *
 * Parameters are named (an object); integers may be JSON numbers or decimal strings; results
 * use the node's field names with uint64 values as decimal strings. Errors: -32602 for a
 * missing or malformed parameter (naming it), -32000 for what the chain or the keystore
 * refuses, with the node's wording (and, for rejected transactions, data {rule, nodeMessage}),
 * -32601 for an unknown method.
 */
export type { Dispatch };

/** Methods of the exchange chain service (each served as xvm.<m> and avm.<m>). */
export const EXCHANGE_CHAIN_METHODS: readonly string[] = [
  "createAddress",
  "createFixedCapAsset",
  "createVariableCapAsset",
  "createNFTAsset",
  "mint",
  "mintNFT",
  "send",
  "sendMultiple",
  "export",
  "import",
  "exportKey",
  "importKey",
  "listAddresses",
  "getAllBalances",
  "getBalance",
  "getAssetDescription",
  "getAddressTxs",
  "getTx",
  "getTxStatus",
  "getTxFee",
  "getUTXOs",
  "issueTx",
];

/** Largest number of addresses getUTXOs takes, and the largest page of getUTXOs / getAddressTxs. */
export const MAX_UTXO_ADDRESSES = 1024;
export const MAX_PAGE_SIZE = 1024;
/** A keystore user holds at most this many addresses (the node's limit). */
export const MAX_KEYSTORE_ADDRESSES = 5000;

type Handler = (p: Params) => Promise<unknown> | unknown;

function detailOf(error: unknown): string {
  if (error instanceof EncodingError) return error.detail;
  return error instanceof Error ? error.message : String(error);
}

function isParseError(error: unknown): boolean {
  return error instanceof EncodingError || error instanceof RangeError;
}

class ExchangeChainService {
  constructor(
    private readonly chain: ExchangeChain,
    private readonly keystore: Keystore,
  ) {}

  // -- parameter helpers ------------------------------------------------------------------

  /** The node's ParseServiceAddress: a bare cb58 short ID, or an address of this chain ("X-..."). */
  private address(text: string, name: string): Uint8Array {
    try {
      const raw = decodeCb58(text);
      if (raw.length === 20) return raw;
    } catch (error) {
      if (!(error instanceof EncodingError)) throw error;
    }
    try {
      return this.chain.parseAddress(text);
    } catch (error) {
      if (isParseError(error)) throw badParams(`couldn't parse ${name} address ${JSON.stringify(text)}: ${detailOf(error)}`);
      throw error;
    }
  }

  private addressParam(p: Params, name: string): Uint8Array {
    return this.address(requiredString(p, name), name);
  }

  private asset(text: string, name: string): Uint8Array {
    try {
      return this.chain.lookupAssetId(text);
    } catch (error) {
      if (error instanceof RangeError) throw badParams(`invalid ${name}: ${error.message}`);
      throw error;
    }
  }

  private assetParam(p: Params, name = "assetID"): Uint8Array {
    return this.asset(requiredString(p, name), name);
  }

  private spendOptions(p: Params): SpendOptions {
    const from = stringArrayParam(p, "from").map((a, i) => this.address(a, `from[${i}]`));
    const change = stringParam(p, "changeAddr", "");
    const changeAddr = change === "" ? undefined : this.address(change, "changeAddr");
    return { from, changeAddr };
  }

  private chainParam(text: string, name: string): Uint8Array {
    try {
      return this.chain.lookupChain(text);
    } catch (error) {
      if (error instanceof RangeError) throw badParams(`problem parsing ${name} ${JSON.stringify(text)}: ${error.message}`);
      throw error;
    }
  }

  private minterSets(p: Params): { minters: Uint8Array[]; threshold: number }[] {
    const value = p.minterSets;
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) throw badParams("minterSets must be an array of {minters, threshold}");
    return value.map((set: unknown, i) => {
      if (typeof set !== "object" || set === null || Array.isArray(set)) throw badParams(`minterSets[${i}] must be an object {minters, threshold}`);
      const s = set as Params;
      const minters = stringArrayParam(s, "minters").map((a, j) => this.address(a, `minterSets[${i}].minters[${j}]`));
      const threshold = Number(uintValue(s.threshold, `minterSets[${i}].threshold`, 32, 0n));
      return { minters, threshold };
    });
  }

  private memo(p: Params): Uint8Array {
    const memo = new TextEncoder().encode(stringParam(p, "memo", ""));
    if (memo.length > MAX_MEMO_SIZE) throw badParams(`max memo length is ${MAX_MEMO_SIZE} but provided memo field is length ${memo.length}`);
    return memo;
  }

  private txIdParam(p: Params): Uint8Array {
    const text = stringParam(p, "txID", "");
    if (text === "") throw badParams("nil transaction ID: missing parameter txID");
    const id = idValue(text, "txID");
    if (id.every((b) => b === 0)) throw badParams("nil transaction ID");
    return id;
  }

  // -- keystore and wallet --------------------------------------------------------------------

  private user(p: Params): Promise<KeystoreUser> {
    return authenticateUser(this.keystore, NamedParams.of(p, "xvm"));
  }

  private async wallet(p: Params): Promise<ExchangeWallet> {
    const user = await this.user(p);
    return new ExchangeWallet(this.chain, user.keysFor(this.chain.chainId));
  }

  /** Build with the wallet and issue; wallet and chain refusals become -32000 errors. */
  private issue(build: () => BuiltTx): BuiltTx {
    let built: BuiltTx;
    try {
      built = build();
    } catch (error) {
      if (error instanceof WalletError) throw serverError(error.message, { problem: error.problem });
      throw error;
    }
    try {
      this.chain.issueTx(built.bytes);
    } catch (error) {
      if (error instanceof TxRejectedError) {
        throw serverError(`problem issuing transaction: ${error.message}`, { rule: error.rule, nodeMessage: error.nodeMessage });
      }
      throw error;
    }
    return built;
  }

  private txReply(built: BuiltTx): { txID: string; changeAddr: string } {
    return { txID: encodeCb58(built.txId), changeAddr: this.chain.formatAddress(built.changeAddr!) };
  }

  private addKey(user: KeystoreUser, key: Uint8Array): void {
    const keys = user.keysFor(this.chain.chainId);
    // The same key controls the same address: comparing keys is enough (and cheap).
    const has = keys.some((k) => equalBytes(k, key));
    if (!has && keys.length >= MAX_KEYSTORE_ADDRESSES) {
      throw serverError(`keystore user has reached its limit of ${MAX_KEYSTORE_ADDRESSES} addresses`);
    }
    user.addKey(this.chain.chainId, key);
  }

  // -- methods ---------------------------------------------------------------------------------

  handlers(): Record<string, Handler> {
    const chain = this.chain;
    return {
      createAddress: async (p) => {
        const user = await this.user(p);
        const key = secp256k1.utils.randomSecretKey();
        this.addKey(user, key);
        return { address: chain.formatAddress(shortIdFromPrivateKey(key)) };
      },

      listAddresses: async (p) => {
        const user = await this.user(p);
        return { addresses: user.keysFor(chain.chainId).map((k) => chain.formatAddress(shortIdFromPrivateKey(k))) };
      },

      exportKey: async (p) => {
        const address = this.addressParam(p, "address");
        const user = await this.user(p);
        const key = user.keysFor(chain.chainId).find((k) => equalBytes(shortIdFromPrivateKey(k), address));
        if (key === undefined) {
          throw serverError(`problem retrieving private key: not found (user ${JSON.stringify(user.username)} has no key for ${chain.formatAddress(address)})`);
        }
        return { privateKey: encodePrivateKey(key) };
      },

      importKey: async (p) => {
        const text = stringParam(p, "privateKey", "");
        if (text === "") throw badParams("argument 'privateKey' not given");
        let key: Uint8Array;
        try {
          key = decodePrivateKey(text);
        } catch (error) {
          if (error instanceof EncodingError) throw badParams(`invalid privateKey: ${error.detail}`);
          throw error;
        }
        const user = await this.user(p);
        this.addKey(user, key);
        return { address: chain.formatAddress(shortIdFromPrivateKey(key)) };
      },

      getBalance: (p) => {
        const address = this.addressParam(p, "address");
        const assetId = this.assetParam(p);
        const { balance, utxos } = chain.getBalance(address, assetId, booleanParam(p, "includePartial"));
        return { balance: balance.toString(), utxoIDs: utxos.map((u) => ({ txID: encodeCb58(u.txId), outputIndex: u.outputIndex })) };
      },

      getAllBalances: (p) => {
        const address = this.addressParam(p, "address");
        const balances = chain.getAllBalances(address, booleanParam(p, "includePartial"));
        return { balances: balances.map((b) => ({ asset: chain.assetName(b.assetId), balance: b.balance.toString() })) };
      },

      getAssetDescription: (p) => {
        const text = stringParam(p, "assetID", "");
        const assetId = text === "" ? chain.feeAssetId : this.asset(text, "assetID");
        const asset = chain.getAsset(assetId);
        if (asset === undefined) {
          if (chain.getTx(assetId) !== undefined) throw serverError("transaction doesn't create an asset");
          throw serverError(`not found: no asset has ID ${encodeCb58(assetId)}`);
        }
        return { assetID: encodeCb58(asset.id), name: asset.name, symbol: asset.symbol, denomination: String(asset.denomination) };
      },

      getAddressTxs: (p) => {
        const address = this.addressParam(p, "address");
        const assetText = stringParam(p, "assetID", "");
        if (assetText === "") throw badParams("missing parameter assetID: getAddressTxs lists the transactions that changed the address's balance of one asset (ID or alias)");
        const assetId = this.asset(assetText, "assetID");
        const cursor = uintParam(p, "cursor", 64, 0n);
        let pageSize = uintParam(p, "pageSize", 64, 0n);
        if (pageSize > BigInt(MAX_PAGE_SIZE)) throw badParams(`pageSize > maximum allowed (${MAX_PAGE_SIZE})`);
        if (pageSize === 0n) pageSize = BigInt(MAX_PAGE_SIZE);
        const txIds = chain.getAddressTxs(address, assetId, cursor, Number(pageSize));
        return { txIDs: txIds.map((id) => encodeCb58(id)), cursor: (cursor + BigInt(txIds.length)).toString() };
      },

      getTx: (p) => {
        const id = this.txIdParam(p);
        const encoding = encodingParam(p, "encoding", true);
        const accepted = chain.getTx(id);
        if (accepted === undefined) throw serverError(`not found: no accepted transaction has ID ${encodeCb58(id)}`);
        const tx = encoding === "json" ? txToJson(accepted.tx, accepted.id, chain) : formatBytes(accepted.bytes, encoding);
        return { tx, encoding };
      },

      getTxStatus: (p) => ({ status: chain.getTxStatus(this.txIdParam(p)) }),

      getTxFee: () => ({ txFee: chain.fees.txFee.toString(), createAssetTxFee: chain.fees.createAssetTxFee.toString() }),

      getUTXOs: (p) => {
        const texts = stringArrayParam(p, "addresses");
        if (texts.length === 0) throw badParams("no addresses provided");
        if (texts.length > MAX_UTXO_ADDRESSES) throw badParams(`number of addresses given, ${texts.length}, exceeds maximum, ${MAX_UTXO_ADDRESSES}`);
        const sourceText = stringParam(p, "sourceChain", "");
        const sourceChain = sourceText === "" ? chain.chainId : this.chainParam(sourceText, "sourceChain");
        const addresses = texts.map((a, i) => this.address(a, `addresses[${i}]`));
        let startAddress: Uint8Array | undefined;
        let startUtxoId: Uint8Array | undefined;
        const start = p.startIndex;
        if (start !== undefined && start !== null) {
          if (typeof start !== "object" || Array.isArray(start)) throw badParams("startIndex must be an object {address, utxo}");
          const s = start as Params;
          const address = stringParam(s, "address", "");
          const utxo = stringParam(s, "utxo", "");
          if (address !== "" || utxo !== "") {
            startAddress = this.address(address, "startIndex");
            startUtxoId = idValue(utxo, "startIndex.utxo");
          }
        }
        let limit = Number(uintParam(p, "limit", 32, 0n));
        if (limit <= 0 || limit > MAX_PAGE_SIZE) limit = MAX_PAGE_SIZE;
        const encoding = encodingParam(p) as "cb58" | "hex";
        const page = equalBytes(sourceChain, chain.chainId)
          ? chain.getUtxos(addresses, { startAddress, startUtxoId, limit })
          : chain.getAtomicUtxos(sourceChain, addresses, { startAddress, startUtxoId, limit });
        const reply: Record<string, unknown> = {
          numFetched: String(page.utxos.length),
          utxos: page.bytes.map((b) => formatBytes(b, encoding)),
          endIndex: { address: chain.formatAddress(page.lastAddress), utxo: encodeCb58(page.lastUtxoId) },
        };
        if (sourceText !== "") reply.sourceChain = sourceText;
        reply.encoding = encoding;
        return reply;
      },

      issueTx: (p) => {
        const text = requiredString(p, "tx");
        const bytes = parseBytes(text, txEncodingParam(p, text), "transaction");
        try {
          return { txID: encodeCb58(chain.issueTx(bytes)) };
        } catch (error) {
          if (error instanceof TxRejectedError) throw serverError(error.message, { rule: error.rule, nodeMessage: error.nodeMessage });
          if (error instanceof CodecError) throw serverError(error.message, { rule: "malformed" });
          throw error;
        }
      },

      send: async (p) => {
        const output = this.sendOutput(p, "");
        const memo = this.memo(p);
        const options = this.spendOptions(p);
        const wallet = await this.wallet(p);
        return this.txReply(this.issue(() => wallet.sendMultiple([output], { ...options, memo })));
      },

      sendMultiple: async (p) => {
        const memo = this.memo(p);
        const value = p.outputs;
        if (value !== undefined && value !== null && !Array.isArray(value)) throw badParams("outputs must be an array of {assetID, amount, to}");
        const list = (value ?? []) as unknown[];
        if (list.length === 0) throw badParams("no outputs to send");
        const outputs = list.map((o, i) => {
          if (typeof o !== "object" || o === null || Array.isArray(o)) throw badParams(`outputs[${i}] must be an object {assetID, amount, to}`);
          return this.sendOutput(o as Params, `outputs[${i}].`);
        });
        const options = this.spendOptions(p);
        const wallet = await this.wallet(p);
        return this.txReply(this.issue(() => wallet.sendMultiple(outputs, { ...options, memo })));
      },

      createFixedCapAsset: (p) => this.createAsset(p),
      createVariableCapAsset: (p) => this.createAsset(p),

      createNFTAsset: async (p) => {
        const name = stringParam(p, "name", "");
        const symbol = stringParam(p, "symbol", "");
        const minterSets = this.minterSets(p);
        if (minterSets.length === 0) throw badParams("no minters provided");
        const options = this.spendOptions(p);
        const wallet = await this.wallet(p);
        const built = this.issue(() => wallet.createNftAsset({ name, symbol, minterSets }, options));
        return { assetID: encodeCb58(built.txId), changeAddr: chain.formatAddress(built.changeAddr!) };
      },

      mint: async (p) => {
        const amount = uintParam(p, "amount", 64);
        if (amount === 0n) throw badParams("amount minted must be positive");
        const assetId = this.assetParam(p);
        const to = this.addressParam(p, "to");
        const options = this.spendOptions(p);
        const wallet = await this.wallet(p);
        return this.txReply(this.issue(() => wallet.mint({ assetId, amount, to }, options)));
      },

      mintNFT: async (p) => {
        const assetId = this.assetParam(p);
        const to = this.addressParam(p, "to");
        const encoding = encodingParam(p) as "cb58" | "hex";
        const payload = parseBytes(stringParam(p, "payload", ""), encoding, "payload bytes");
        if (payload.length > MAX_NFT_PAYLOAD_SIZE) throw badParams(`payload too large: ${payload.length} bytes, at most ${MAX_NFT_PAYLOAD_SIZE}`);
        const options = this.spendOptions(p);
        const wallet = await this.wallet(p);
        return this.txReply(this.issue(() => wallet.mintNft({ assetId, payload, to }, options)));
      },

      export: async (p) => {
        const assetId = this.assetParam(p);
        const { destinationChain, to } = this.exportTarget(p);
        const amount = uintParam(p, "amount", 64);
        if (amount === 0n) throw badParams("amount must be positive");
        const options = this.spendOptions(p);
        const wallet = await this.wallet(p);
        return this.txReply(this.issue(() => wallet.export({ assetId, amount, destinationChain, to }, options)));
      },

      import: async (p) => {
        const sourceChain = this.chainParam(requiredString(p, "sourceChain"), "sourceChain");
        if (equalBytes(sourceChain, chain.chainId)) throw badParams("sourceChain is this chain; import from another chain of the network (for example C)");
        const to = this.addressParam(p, "to");
        const wallet = await this.wallet(p);
        const built = this.issue(() => wallet.import({ sourceChain, to }));
        return { txID: encodeCb58(built.txId) };
      },
    };
  }

  private sendOutput(p: Params, prefix: string): { assetId: Uint8Array; amount: bigint; to: Uint8Array } {
    const amount = uintParam(p, "amount", 64);
    if (amount === 0n) throw badParams(`${prefix}amount must be positive`);
    const assetText = requiredString(p, "assetID");
    let assetId: Uint8Array;
    try {
      assetId = this.chain.lookupAssetId(assetText);
    } catch (error) {
      if (error instanceof RangeError) throw badParams(`${prefix}assetID: couldn't find asset ${assetText}`);
      throw error;
    }
    const to = this.address(requiredString(p, "to"), `${prefix}to`);
    return { assetId, amount, to };
  }

  /** Where an export goes: the chain named by the `to` address's prefix (e.g. "C-local1..."), or by targetChain for a bare short ID. */
  private exportTarget(p: Params): { destinationChain: Uint8Array; to: Uint8Array } {
    const text = requiredString(p, "to");
    if (text.includes("-")) {
      let parsed: ReturnType<typeof parseChainAddress>;
      try {
        parsed = parseChainAddress(text);
      } catch (error) {
        if (error instanceof EncodingError) throw badParams(`couldn't parse to address ${JSON.stringify(text)}: ${error.detail}`);
        throw error;
      }
      if (parsed.hrp !== this.chain.network.hrp) {
        throw badParams(`couldn't parse to address ${JSON.stringify(text)}: expected hrp "${this.chain.network.hrp}" but got "${parsed.hrp}"`);
      }
      return { destinationChain: this.chainParam(parsed.chainAlias, "to address chain"), to: parsed.shortId };
    }
    const target = stringParam(p, "targetChain", "");
    if (target === "") throw badParams(`to ${JSON.stringify(text)} names no chain: give a chain-prefixed address such as "C-${this.chain.network.hrp}1..."`);
    const destinationChain = this.chainParam(target, "targetChain");
    let to: Uint8Array | undefined;
    try {
      to = decodeCb58(text);
    } catch (error) {
      if (!(error instanceof EncodingError)) throw error;
    }
    if (to === undefined || to.length !== 20) throw badParams(`couldn't parse to address ${JSON.stringify(text)}: expected a chain-prefixed address or a cb58 short ID`);
    return { destinationChain, to };
  }

  private async createAsset(p: Params): Promise<unknown> {
    const name = stringParam(p, "name", "");
    const symbol = stringParam(p, "symbol", "");
    const denomination = Number(uintParam(p, "denomination", 8, 0n));
    const holdersValue = p.initialHolders;
    if (holdersValue !== undefined && holdersValue !== null && !Array.isArray(holdersValue)) throw badParams("initialHolders must be an array of {address, amount}");
    const initialHolders = ((holdersValue ?? []) as unknown[]).map((h, i) => {
      if (typeof h !== "object" || h === null || Array.isArray(h)) throw badParams(`initialHolders[${i}] must be an object {address, amount}`);
      const holder = h as Params;
      return {
        address: this.address(requiredString(holder, "address"), `initialHolders[${i}].address`),
        amount: uintValue(holder.amount, `initialHolders[${i}].amount`, 64),
      };
    });
    const minterSets = this.minterSets(p);
    if (initialHolders.length === 0 && minterSets.length === 0) throw badParams("no minters or initialHolders provided");
    const options = this.spendOptions(p);
    const wallet = await this.wallet(p);
    const built = this.issue(() => wallet.createAsset({ name, symbol, denomination, initialHolders, minterSets }, options));
    return { assetID: encodeCb58(built.txId), changeAddr: this.chain.formatAddress(built.changeAddr!) };
  }
}

function dispatchFor(handlers: Record<string, Handler>, namespaces: string[]): Dispatch {
  const table = new Map<string, Handler>();
  for (const [name, handler] of Object.entries(handlers)) for (const ns of namespaces) table.set(`${ns}.${name}`, handler);
  return async (method: string, params: unknown): Promise<unknown> => {
    const handler = typeof method === "string" ? table.get(method) : undefined;
    if (handler === undefined) throw methodNotFound(String(method));
    return handler(paramsObject(params, method));
  };
}

/**
 * The exchange chain's JSON-RPC service (path /ext/bc/X): every method of
 * EXCHANGE_CHAIN_METHODS as xvm.<m> and avm.<m>. User methods authenticate against
 * `keystore` and use the user's keys for this chain.
 */
export function createExchangeChainDispatch(chain: ExchangeChain, keystore: Keystore): Dispatch {
  return dispatchFor(new ExchangeChainService(chain, keystore).handlers(), ["xvm", "avm"]);
}

// ---------------------------------------------------------------------------------------
// Static service: buildGenesis
// ---------------------------------------------------------------------------------------

function parseGenesisAddress(text: unknown, name: string): Uint8Array {
  if (typeof text !== "string") throw badParams(`${name} must be a string (a bech32 address without chain prefix, e.g. "local1...")`);
  try {
    return parseBech32Address(text).shortId;
  } catch (error) {
    if (error instanceof EncodingError) {
      const hint = text.includes("-") ? ' (the static endpoint takes addresses without chain prefix: "local1...", not "X-local1...")' : "";
      throw badParams(`problem parsing ${name}: ${error.detail}${hint}`);
    }
    throw error;
  }
}

function parseDefinition(alias: string, value: unknown, encoding: "cb58" | "hex"): GenesisAssetDefinition {
  const at = `genesisData.${alias}`;
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw badParams(`${at} must be an object {name, symbol, denomination, initialState}`);
  const d = value as Params;
  const name = stringParam(d, "name", "");
  const symbol = stringParam(d, "symbol", "");
  const denomination = Number(uintValue(d.denomination, `${at}.denomination`, 8, 0n));
  const memo = parseBytes(stringParam(d, "memo", ""), encoding, `${at}.memo`);
  const state = d.initialState;
  const initialState: NonNullable<GenesisAssetDefinition["initialState"]> = {};
  if (state !== undefined && state !== null) {
    if (typeof state !== "object" || Array.isArray(state)) throw badParams(`${at}.initialState must be an object such as {"fixedCap": [...]}`);
    for (const [type, list] of Object.entries(state as Params)) {
      const where = `${at}.initialState.${type}`;
      if (!Array.isArray(list)) throw badParams(`${where} must be an array`);
      if (type === "fixedCap") {
        initialState.fixedCap = [
          ...(initialState.fixedCap ?? []),
          ...list.map((h: unknown, i) => {
            if (typeof h !== "object" || h === null) throw badParams(`${where}[${i}] must be an object {amount, address}`);
            const holder = h as Params;
            return { amount: uintValue(holder.amount, `${where}[${i}].amount`, 64, 0n), address: parseGenesisAddress(holder.address, `${where}[${i}].address`) };
          }),
        ];
      } else if (type === "variableCap") {
        initialState.variableCap = [
          ...(initialState.variableCap ?? []),
          ...list.map((o: unknown, i) => {
            if (typeof o !== "object" || o === null) throw badParams(`${where}[${i}] must be an object {minters, threshold}`);
            const owners = o as Params;
            const minters = stringArrayParam(owners, "minters").map((m, j) => parseGenesisAddress(m, `${where}[${i}].minters[${j}]`));
            return { minters, threshold: Number(uintValue(owners.threshold, `${where}[${i}].threshold`, 32, 0n)) };
          }),
        ];
      } else {
        throw badParams(`unknown asset type ${JSON.stringify(type)} in ${at}.initialState (the genesis builder takes fixedCap and variableCap)`);
      }
    }
  }
  return { name, symbol, denomination, memo, initialState: Object.keys(initialState).length === 0 ? undefined : initialState };
}

/**
 * The static service of the exchange chain's VM (path /ext/vm/xvm): xvm.buildGenesis and
 * avm.buildGenesis. Builds the genesis bytes exactly as the reference node's static service:
 * one CreateAssetTx per alias (sorted by alias), fixedCap holders and variableCap minter sets
 * in one secp256k1fx initial state (sorted); a variableCap minter set's threshold is always 1
 * there, whatever the request says.
 */
export function createStaticXvmDispatch(): Dispatch {
  return dispatchFor(
    {
      buildGenesis: (p) => {
        const networkId = Number(uintParam(p, "networkID", 32, 0n));
        const encoding = encodingParam(p) as "cb58" | "hex";
        const data = p.genesisData;
        if (data !== undefined && data !== null && (typeof data !== "object" || Array.isArray(data))) {
          throw badParams("genesisData must be an object mapping each asset alias to {name, symbol, denomination, initialState}");
        }
        const definitions = Object.entries((data ?? {}) as Params).map(([alias, def]): [string, GenesisAssetDefinition] => [alias, parseDefinition(alias, def, encoding)]);
        const bytes = encodeGenesisBytes(buildGenesisAssets(networkId, definitions));
        return { bytes: formatBytes(bytes, encoding), encoding };
      },
    },
    ["xvm", "avm"],
  );
}
