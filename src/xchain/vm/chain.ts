import type { AtomicElement, SharedMemory } from "../../atomic/shared-memory";
import { decodeCb58, encodeCb58, equalBytes, formatChainAddress, parseChainAddress } from "../../encoding";
import { EncodingError } from "../../encoding/errors";
import { ChainDirectory } from "../../network/chains";
import type { NetworkIdentifiers } from "../../network/constants";
import type { DurableStore } from "../../storage";
import {
  CodecError,
  consumedUtxos,
  decodeUtxo,
  encodeSignedTx,
  type FeeConfig,
  MAX_MEMPOOL_TX_SIZE,
  parseSignedTx,
  type ParsedSignedTx,
  producedUtxos,
  type SignedTx,
  TxValidationError,
  TypeId,
  type UnsignedTx,
  type Utxo,
  utxoId,
  validateSignedTx,
} from "../codec";
import { type ExchangeGenesis, genesisAssetId } from "../genesis";
import { genesisTransactions } from "./genesis-txs";
import { AddressTxIndex } from "./address-index";
import { TxRejectedError } from "./errors";
import { checkSameGenesis, ExchangeChainRecords, type LoadedExchangeChain } from "./persistence";
import { type AcceptedTx, type AssetInfo, classify, type UtxoPage } from "./types";
import { ownersOf, type StoredUtxo, storeUtxo, UtxoSet } from "./utxo-set";
import { verifySemantics, type VerificationContext } from "./verify";

export type { AcceptedTx, AssetInfo, AssetType, UtxoPage } from "./types";

/**
 * The exchange chain (the reference node's X-Chain "AVM") without any transport: UTXO set,
 * assets, accepted transactions, the address/asset transaction index, and issueTx with the
 * node's syntactic and semantic rules. Acceptance is immediate: a transaction either is
 * accepted when issueTx returns or leaves no trace (so a status is Accepted or Unknown; the
 * reference node at the version that still had the keystore APIs also only reported those
 * two from getTxStatus).
 */

export interface ExchangeChainOptions {
  network: NetworkIdentifiers;
  sharedMemory: SharedMemory;
  genesis: ExchangeGenesis;
  /** Current time in Unix seconds (for locktimes). Default: the system clock. */
  clock?: () => bigint;
  /**
   * Where the chain is kept across restarts (the node's "x/" namespace; see persistence.ts).
   * `new ExchangeChain` stages its genesis there (a fresh store); `ExchangeChain.open` loads
   * what a store holds. Use `issue` (not `issueTx`) to answer only once a transaction is stored.
   */
  store?: DurableStore;
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");

function systemClock(): bigint {
  return BigInt(Math.floor(Date.now() / 1000));
}

/** Accepted transactions and assets are never edited in place: copying their maps is enough. */
function replaceEntries<K, V>(target: Map<K, V>, source: Map<K, V>): void {
  target.clear();
  for (const [key, value] of source) target.set(key, value);
}

export class ExchangeChain {
  readonly network: NetworkIdentifiers;
  readonly chainId: Uint8Array;
  readonly sharedMemory: SharedMemory;
  /** The asset fees are paid in (the first genesis asset, as on the node). */
  readonly feeAssetId: Uint8Array;
  readonly fees: FeeConfig;

  private readonly clock: () => bigint;
  private readonly utxos = new UtxoSet();
  private readonly txs = new Map<string, AcceptedTx>();
  private readonly order: AcceptedTx[] = [];
  private readonly assets = new Map<string, AssetInfo>();
  private readonly assetAliases = new Map<string, Uint8Array>();
  private readonly addressTxs = new AddressTxIndex();
  /**
   * The chains of the network and their aliases (src/network/chains): this one (X, avm, xvm)
   * and the chains atomic transactions can name, the contract chain (C, evm, cvm) and the
   * platform chain (P, platform).
   */
  private readonly chains: ChainDirectory;
  private submit: ((bytes: Uint8Array) => Promise<Uint8Array>) | undefined;
  private readonly listeners = new Set<(tx: AcceptedTx) => void>();
  /** The chain's records in its store, when it has one. */
  private records: ExchangeChainRecords | undefined;

  constructor(options: ExchangeChainOptions) {
    this.network = options.network;
    this.sharedMemory = options.sharedMemory;
    this.chainId = decodeCb58(options.network.xChainId);
    this.clock = options.clock ?? systemClock;
    this.chains = new ChainDirectory(options.network);
    this.records = options.store === undefined ? undefined : ExchangeChainRecords.fresh(options.store);

    const genesis = options.genesis;
    if (genesis.assets.length === 0) throw new RangeError("the exchange chain's genesis must create at least one asset (the fee asset)");
    this.feeAssetId = genesisAssetId(genesis.assets[0]!.tx);
    const expectedFeeAsset = decodeCb58(options.network.nativeAsset.id);
    if (!equalBytes(this.feeAssetId, expectedFeeAsset)) {
      throw new RangeError(
        `the genesis's first asset (the fee asset) has ID ${encodeCb58(this.feeAssetId)}, but the network's native asset is ${options.network.nativeAsset.id}: ` +
          "build the genesis with localGenesis(network) or give the network the genesis asset's ID",
      );
    }
    this.fees = { assetId: this.feeAssetId, txFee: options.network.txFee, createAssetTxFee: options.network.createAssetTxFee };

    for (const { signed, alias } of genesisTransactions(genesis, this.network.networkId, this.chainId, this.feeAssetId)) {
      const accepted = this.record(signed, encodeSignedTx(signed), true);
      if (alias !== undefined) {
        if (this.assetAliases.has(alias)) throw new RangeError(`genesis asset alias ${alias} is used twice`);
        this.assetAliases.set(alias, accepted.id);
        this.records?.putAlias(alias, accepted.id);
        this.assets.get(hex(accepted.id))!.alias ??= alias;
      }
      for (const utxo of producedUtxos(signed.unsignedTx, accepted.id).utxos) this.addUtxo(storeUtxo(utxo));
    }
  }

  /**
   * The chain over `options.store`: what the store holds when it holds the chain (the genesis
   * is not made again, only checked to be this node's), else a new chain whose genesis is
   * committed there. Without a store, `new ExchangeChain(options)`. Throws DamagedRecordError
   * naming a record it cannot read, ExchangeStoreError for a store of another genesis.
   */
  static async open(options: ExchangeChainOptions): Promise<ExchangeChain> {
    if (options.store === undefined) return new ExchangeChain(options);
    const { records, loaded } = await ExchangeChainRecords.load(options.store);
    if (loaded === undefined) {
      const fresh = new ExchangeChain(options);
      await records.commit();
      return fresh;
    }
    const chain = new ExchangeChain({ ...options, store: undefined });
    checkSameGenesis(chain.order, loaded.txs);
    chain.load(loaded);
    chain.records = records;
    return chain;
  }

  /** Replaces the state with the store's (transactions replayed in order rebuild the assets). */
  private load(saved: LoadedExchangeChain): void {
    this.txs.clear();
    this.order.length = 0;
    this.assets.clear();
    this.assetAliases.clear();
    this.utxos.clear();
    for (const tx of saved.txs) this.record(tx.tx, tx.bytes, tx.genesis, tx.id, tx.acceptedAt);
    for (const { alias, assetId } of saved.aliases) {
      this.assetAliases.set(alias, assetId);
      const asset = this.assets.get(hex(assetId));
      if (asset !== undefined) asset.alias ??= alias;
    }
    for (const stored of saved.utxos) this.utxos.add(stored);
    for (const { address, asset, txId } of saved.addressTxs) this.addressTxs.append(address, asset, txId);
  }

  private addUtxo(stored: StoredUtxo): void {
    this.utxos.add(stored);
    this.records?.putUtxo(stored);
  }

  // -------------------------------------------------------------------------------------
  // Snapshots (evm_snapshot / evm_revert / hardhat_reset of a local network)
  // -------------------------------------------------------------------------------------

  /**
   * The chain's state as it is now (UTXOs, accepted transactions, assets): the returned
   * function puts it back to this state, as often as it is called. Shared memory is not part of
   * it: the network that owns the memory captures it too.
   */
  capture(): () => void {
    const restoreUtxos = this.utxos.capture();
    const txs = new Map(this.txs);
    const order = [...this.order];
    const assets = new Map(this.assets);
    const assetAliases = new Map(this.assetAliases);
    const restoreAddressTxs = this.addressTxs.capture();
    const restoreRecords = this.records?.capture();
    return () => {
      restoreRecords?.();
      restoreUtxos();
      replaceEntries(this.txs, txs);
      this.order.length = 0;
      for (const tx of order) this.order.push(tx);
      replaceEntries(this.assets, assets);
      replaceEntries(this.assetAliases, assetAliases);
      restoreAddressTxs();
    };
  }

  // -------------------------------------------------------------------------------------
  // Time, names and addresses
  // -------------------------------------------------------------------------------------

  /** The chain's current time, Unix seconds. */
  now(): bigint {
    return this.clock();
  }

  /** "X-" + bech32(hrp, shortId). */
  formatAddress(shortId: Uint8Array): string {
    return formatChainAddress(shortId, this.network.hrp, "X");
  }

  /**
   * Short ID of an address of this chain ("X-<hrp>1..." or with the chain's cb58 ID as
   * prefix). Throws an EncodingError or a RangeError naming the problem.
   */
  parseAddress(text: string): Uint8Array {
    const { chainAlias, hrp, shortId } = parseChainAddress(text);
    const chain = this.lookupChain(chainAlias);
    if (!equalBytes(chain, this.chainId)) {
      throw new RangeError(`mismatched chainIDs: expected "${encodeCb58(this.chainId)}" but got "${encodeCb58(chain)}"`);
    }
    if (hrp !== this.network.hrp) throw new RangeError(`expected hrp "${this.network.hrp}" but got "${hrp}"`);
    return shortId;
  }

  /** A chain by alias ("X", "C", "P", ...) or cb58 ID; throws RangeError for an unknown one. */
  lookupChain(aliasOrId: string): Uint8Array {
    const named = this.chains.lookup(aliasOrId);
    if (named !== undefined) return named.bytes;
    let id: Uint8Array | undefined;
    try {
      id = decodeCb58(aliasOrId);
    } catch (error) {
      if (!(error instanceof EncodingError)) throw error;
    }
    const byId = id === undefined ? undefined : this.chains.byId(id);
    if (byId !== undefined) return byId.bytes;
    throw new RangeError(`there is no chain with alias/ID "${aliasOrId}"`);
  }

  /** True for a chain atomic transactions can name: another chain of the network. */
  isPeerChain(chainId: Uint8Array): boolean {
    return !equalBytes(chainId, this.chainId) && this.chains.byId(chainId) !== undefined;
  }

  /** The asset an alias ("AVAX") or cb58 ID names; throws RangeError "asset '...' not found". */
  lookupAssetId(aliasOrId: string): Uint8Array {
    const byAlias = this.assetAliases.get(aliasOrId);
    if (byAlias !== undefined) return byAlias;
    try {
      const id = decodeCb58(aliasOrId);
      if (id.length === 32) return id;
    } catch (error) {
      if (!(error instanceof EncodingError)) throw error;
    }
    throw new RangeError(`asset '${aliasOrId}' not found`);
  }

  /** The asset's primary alias when it has one, its cb58 ID otherwise (as getAllBalances names assets). */
  assetName(assetId: Uint8Array): string {
    return this.assets.get(hex(assetId))?.alias ?? encodeCb58(assetId);
  }

  getAsset(assetId: Uint8Array): AssetInfo | undefined {
    return this.assets.get(hex(assetId));
  }

  /** Every asset, in creation order. */
  listAssets(): AssetInfo[] {
    return [...this.assets.values()];
  }

  /** The asset's current mint outputs (secp256k1fx, nftfx or propertyfx mint UTXOs). */
  minterUtxos(assetId: Uint8Array): Utxo[] {
    const mintTypes: number[] = [TypeId.Secp256k1MintOutput, TypeId.NftMintOutput, TypeId.PropertyMintOutput];
    return [...this.utxos.all()].map((s) => s.utxo).filter((u) => equalBytes(u.assetId, assetId) && mintTypes.includes(u.output.typeId));
  }

  // -------------------------------------------------------------------------------------
  // Transactions
  // -------------------------------------------------------------------------------------

  getTx(id: Uint8Array): AcceptedTx | undefined {
    return this.txs.get(hex(id));
  }

  getTxStatus(id: Uint8Array): "Accepted" | "Unknown" {
    return this.txs.has(hex(id)) ? "Accepted" : "Unknown";
  }

  /** Accepted transactions in acceptance order (genesis first). */
  acceptedTxs(): readonly AcceptedTx[] {
    return this.order;
  }

  /** Called after each accepted transaction (not for genesis). Returns an unsubscribe function. */
  onAccept(listener: (tx: AcceptedTx) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Decode and check a transaction exactly as issueTx does, without accepting it. Throws a
   * TxRejectedError naming the broken rule.
   */
  verifyTx(bytes: Uint8Array): ParsedSignedTx {
    let parsed: ParsedSignedTx;
    try {
      parsed = parseSignedTx(bytes);
    } catch (error) {
      if (error instanceof CodecError) throw new TxRejectedError("malformed", "couldn't unmarshal tx", error.message);
      throw error;
    }
    if (this.txs.has(hex(parsed.txId))) {
      throw new TxRejectedError("already-accepted", "duplicate tx", `${encodeCb58(parsed.txId)} is already accepted`);
    }
    try {
      validateSignedTx(parsed.tx, { networkId: this.network.networkId, blockchainId: this.chainId, fee: this.fees });
    } catch (error) {
      if (error instanceof TxValidationError) throw new TxRejectedError(error.code, error.nodeMessage, error.message);
      throw error;
    }
    verifySemantics(parsed, this.verificationContext());
    if (bytes.length > MAX_MEMPOOL_TX_SIZE) {
      throw new TxRejectedError("too-large", "tx too large", `${encodeCb58(parsed.txId)} size (${bytes.length}) > max size (${MAX_MEMPOOL_TX_SIZE})`);
    }
    return parsed;
  }

  /**
   * Issue signed transaction bytes: verified like the reference node (decode, syntactic
   * rules with fees, semantic rules against the state), then accepted at once, atomically:
   * inputs consumed, outputs produced, shared memory updated, indices written. An invalid
   * transaction throws TxRejectedError and changes nothing. Returns the transaction ID.
   */
  issueTx(bytes: Uint8Array): Uint8Array {
    this.records?.assertWritable();
    const parsed = this.verifyTx(bytes);
    const tx = parsed.tx.unsignedTx;
    const { local } = consumedUtxos(tx);
    const consumed = local.map((ref) => this.utxos.get(utxoId(ref.txId, ref.outputIndex))!);
    const { utxos: produced, exportedUtxos } = producedUtxos(tx, parsed.txId);

    // Shared memory first: it checks everything before changing anything, and may refuse.
    if (tx.typeId === TypeId.ImportTx) {
      this.sharedMemory.apply(this.chainId, [[tx.sourceChain, { remove: tx.importedInputs.map((i) => utxoId(i.txId, i.outputIndex)) }]]);
    } else if (tx.typeId === TypeId.ExportTx) {
      const put: AtomicElement[] = exportedUtxos.map((utxo) => {
        const stored = storeUtxo(utxo);
        return { key: stored.inputId, value: stored.bytes, traits: ownersOf(utxo.output) };
      });
      this.sharedMemory.apply(this.chainId, [[tx.destinationChain, { put }]]);
    }

    for (const stored of consumed) {
      this.utxos.remove(stored.inputId);
      this.records?.delUtxo(stored.inputId);
    }
    for (const stored of produced.map(storeUtxo)) this.addUtxo(stored);
    const accepted = this.record(parsed.tx, parsed.signedBytes, false, parsed.txId);
    const indexed = this.addressTxs.add(accepted.id, [...consumed.map((s) => s.utxo), ...produced]);
    this.records?.putAddressTxs(indexed, accepted);
    // With a store, listeners (the index, IPC) hear of it once `issue` has made it durable.
    if (this.records === undefined) this.announce(accepted);
    return accepted.id;
  }

  private announce(accepted: AcceptedTx): void {
    for (const listener of this.listeners) listener(accepted);
  }

  /** Signed bytes accepted here (`accept`), or on a follower handed to its producer (`forwardIssuesTo`). */
  async issue(bytes: Uint8Array): Promise<Uint8Array> {
    return this.submit === undefined ? this.accept(bytes) : this.submit(bytes);
  }

  /** From now on `issue` hands every transaction to `submit`. */
  forwardIssuesTo(submit: (bytes: Uint8Array) => Promise<Uint8Array>): void {
    this.submit = submit;
  }

  /**
   * `issueTx`, then the commit that makes it durable (with a store): what an API answers from.
   * Throws ExchangeStoreError when the store cannot write it (the chain then accepts nothing more).
   */
  async accept(bytes: Uint8Array): Promise<Uint8Array> {
    const id = this.issueTx(bytes);
    if (this.records !== undefined) {
      await this.records.commit();
      this.announce(this.txs.get(hex(id))!);
    }
    return id;
  }

  private record(tx: SignedTx, bytes: Uint8Array, genesis: boolean, id: Uint8Array = parseSignedTx(bytes).txId, acceptedAt = Date.now()): AcceptedTx {
    const accepted: AcceptedTx = { id, tx, bytes, index: this.order.length, acceptedAt, genesis };
    this.txs.set(hex(id), accepted);
    this.order.push(accepted);
    this.records?.putTx(accepted);
    const unsigned: UnsignedTx = tx.unsignedTx;
    if (unsigned.typeId === TypeId.CreateAssetTx) {
      this.assets.set(hex(id), {
        id,
        alias: undefined,
        name: unsigned.name,
        symbol: unsigned.symbol,
        denomination: unsigned.denomination,
        type: classify(unsigned),
        fxIndices: new Set(unsigned.initialStates.map((s) => s.fxIndex)),
        createTx: unsigned,
      });
    }
    return accepted;
  }

  private verificationContext(): VerificationContext {
    return {
      chainId: this.chainId,
      now: this.now(),
      getUtxo: (inputId) => this.utxos.get(inputId)?.utxo,
      getAsset: (assetId) => {
        const asset = this.assets.get(hex(assetId));
        if (asset !== undefined) return { fxIndices: asset.fxIndices };
        return this.txs.has(hex(assetId)) ? "not-an-asset" : undefined;
      },
      isPeerChain: (chainId) => this.isPeerChain(chainId),
      getAtomicUtxo: (sourceChain, inputId) =>
        this.isPeerChain(sourceChain) && this.sharedMemory.has(this.chainId, sourceChain, inputId)
          ? this.sharedMemory.get(this.chainId, sourceChain, [inputId])[0]
          : undefined,
      formatAddress: (shortId) => this.formatAddress(shortId),
    };
  }

  // -------------------------------------------------------------------------------------
  // UTXOs, balances and the address index
  // -------------------------------------------------------------------------------------

  /** A UTXO of this chain by input ID. */
  getUtxo(inputId: Uint8Array): StoredUtxo | undefined {
    return this.utxos.get(inputId);
  }

  /**
   * The node's paginated UTXO listing: UTXOs naming any of `addresses` (addresses in byte
   * order, each one's UTXOs newest first), resuming after (startAddress, startUtxoId).
   */
  getUtxos(addresses: Uint8Array[], options: { startAddress?: Uint8Array; startUtxoId?: Uint8Array; limit?: number } = {}): UtxoPage {
    const page = this.utxos.page(addresses, options.startAddress, options.startUtxoId, options.limit ?? Number.MAX_SAFE_INTEGER);
    return { utxos: page.utxos.map((s) => s.utxo), bytes: page.utxos.map((s) => s.bytes), lastAddress: page.lastAddress, lastUtxoId: page.lastUtxo };
  }

  /** Every UTXO naming any of `addresses`, in the node's order. */
  getAllUtxos(addresses: Uint8Array[]): StoredUtxo[] {
    return this.utxos.page(addresses, undefined, undefined, Number.MAX_SAFE_INTEGER).utxos;
  }

  /** Atomic UTXOs exported to this chain from `sourceChain`, owned by any of `addresses` (shared memory's order). */
  getAtomicUtxos(
    sourceChain: Uint8Array,
    addresses: Uint8Array[],
    options: { startAddress?: Uint8Array; startUtxoId?: Uint8Array; limit?: number } = {},
  ): UtxoPage {
    const page = this.sharedMemory.indexed(this.chainId, sourceChain, addresses, options.startAddress, options.startUtxoId, options.limit ?? Number.MAX_SAFE_INTEGER);
    return {
      utxos: page.values.map((b) => decodeUtxo(b)),
      bytes: page.values,
      lastAddress: page.lastTrait ?? new Uint8Array(20),
      lastUtxoId: page.lastKey ?? new Uint8Array(32),
    };
  }

  /**
   * Balance of `assetId` held by `address` and the UTXOs that make it, as the node's
   * getBalance counts it: secp256k1fx transfer outputs only; without `includePartial`, only
   * outputs the address owns alone and whose locktime has passed.
   */
  getBalance(address: Uint8Array, assetId: Uint8Array, includePartial = false): { balance: bigint; utxos: Utxo[] } {
    let balance = 0n;
    const utxos: Utxo[] = [];
    for (const { utxo } of this.getAllUtxos([address])) {
      if (!equalBytes(utxo.assetId, assetId) || !this.counts(utxo, includePartial)) continue;
      balance += (utxo.output as { amount: bigint }).amount;
      utxos.push(utxo);
    }
    return { balance, utxos };
  }

  /** Balances of every asset `address` holds (same counting as getBalance), in the order first met. */
  getAllBalances(address: Uint8Array, includePartial = false): { assetId: Uint8Array; balance: bigint }[] {
    const balances = new Map<string, { assetId: Uint8Array; balance: bigint }>();
    for (const { utxo } of this.getAllUtxos([address])) {
      if (!this.counts(utxo, includePartial)) continue;
      const key = hex(utxo.assetId);
      const entry = balances.get(key) ?? { assetId: utxo.assetId, balance: 0n };
      entry.balance += (utxo.output as { amount: bigint }).amount;
      balances.set(key, entry);
    }
    return [...balances.values()];
  }

  private counts(utxo: Utxo, includePartial: boolean): boolean {
    const out = utxo.output;
    if (out.typeId !== TypeId.Secp256k1TransferOutput) return false;
    return includePartial || (out.addresses.length === 1 && out.locktime <= this.now());
  }

  /**
   * IDs of the accepted transactions that consumed or produced a UTXO of `assetId` naming
   * `address`, in acceptance order, from position `cursor`, at most `pageSize` (genesis
   * transactions are not indexed, as on the node).
   */
  getAddressTxs(address: Uint8Array, assetId: Uint8Array, cursor: bigint, pageSize: number): Uint8Array[] {
    return this.addressTxs.page(address, assetId, cursor, pageSize);
  }
}
