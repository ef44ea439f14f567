import type { SharedMemory } from "../../atomic/shared-memory";
import { decodeCb58, encodeCb58, EncodingError, equalBytes } from "../../encoding";
import type { NetworkIdentifiers } from "../../network/constants";
import type { DurableStore } from "../../storage";
import {
  consumedUtxos,
  encodeSignedTx,
  type FeeConfig,
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
} from "../../utxo/codec";
import { type CommonRejection, replaceEntries, UtxoChain } from "../../utxo/chain";
import { type ExchangeGenesis, genesisAssetId } from "../genesis";
import { genesisTransactions } from "./genesis-txs";
import { type AcceptedTxs, DEFAULT_EXCHANGE_TX_CACHE, MemoryAcceptedTxs, StoredAcceptedTxs } from "./accepted-txs";
import { addressAssetPairs, AddressTxIndex } from "./address-index";
import { TxRejectedError } from "./errors";
import { checkSameGenesis, ExchangeChainRecords, type LoadedExchangeChain } from "./persistence";
import { type AcceptedTx, type AssetInfo, assetInfoOf } from "./types";
import { type StoredUtxo, storeUtxo } from "../../utxo/utxo-set";
import { verifySemantics, type VerificationContext } from "./verify";

export type { AcceptedTx, AssetInfo, AssetType, UtxoPage } from "./types";

/**
 * The exchange chain (the reference node's X-Chain "AVM") without any transport: UTXO set,
 * assets, accepted transactions, the address/asset transaction index, and issueTx with the
 * node's syntactic and semantic rules. Acceptance is immediate: a transaction either is
 * accepted when issueTx returns or leaves no trace (so a status is Accepted or Unknown; the
 * reference node at the version that still had the keystore APIs also only reported those
 * two from getTxStatus). What it shares with the platform chain (addresses, chains, UTXOs,
 * the issue/accept cycle, listeners) is src/utxo/chain.ts's `UtxoChain`.
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
  /** Transactions kept decoded in front of the store (default DEFAULT_EXCHANGE_TX_CACHE). */
  txCacheSize?: number;
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");

export class ExchangeChain extends UtxoChain<AcceptedTx> {
  /** The asset fees are paid in (the first genesis asset, as on the node). */
  readonly feeAssetId: Uint8Array;
  readonly fees: FeeConfig;

  private txs: AcceptedTxs;
  private readonly assets = new Map<string, AssetInfo>();
  private readonly assetAliases = new Map<string, Uint8Array>();
  private readonly addressTxs = new AddressTxIndex();
  /** The chain's records in its store, when it has one. */
  protected records: ExchangeChainRecords | undefined;

  constructor(options: ExchangeChainOptions) {
    super({ network: options.network, chainId: decodeCb58(options.network.xChainId), addressPrefix: "X", sharedMemory: options.sharedMemory, clock: options.clock });
    this.records = options.store === undefined ? undefined : ExchangeChainRecords.fresh(options.store);
    this.txs = this.records === undefined ? new MemoryAcceptedTxs() : new StoredAcceptedTxs(this.records, 0, options.txCacheSize ?? DEFAULT_EXCHANGE_TX_CACHE);

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
    checkSameGenesis(chain.genesisTxs(), loaded.genesisTxs);
    chain.load(loaded, new StoredAcceptedTxs(records, loaded.txCount, options.txCacheSize ?? DEFAULT_EXCHANGE_TX_CACHE));
    chain.records = records;
    return chain;
  }

  /** The genesis transactions (first in acceptance order). */
  private genesisTxs(): AcceptedTx[] {
    const genesis: AcceptedTx[] = [];
    for (let tx = this.txs.at(0); tx?.genesis === true; tx = this.txs.at(genesis.length)) genesis.push(tx);
    return genesis;
  }

  /** Replaces the state with the store's (the transactions stay there; the assets are their creations). */
  private load(saved: LoadedExchangeChain, txs: AcceptedTxs): void {
    this.txs = txs;
    this.assets.clear();
    this.assetAliases.clear();
    this.utxos.clear();
    for (const tx of saved.assetTxs) {
      const unsigned = tx.tx.unsignedTx;
      if (unsigned.typeId === TypeId.CreateAssetTx) this.assets.set(hex(tx.id), assetInfoOf(tx.id, unsigned));
    }
    for (const { alias, assetId } of saved.aliases) {
      this.assetAliases.set(alias, assetId);
      const asset = this.assets.get(hex(assetId));
      if (asset !== undefined) asset.alias ??= alias;
    }
    for (const stored of saved.utxos) this.utxos.add(stored);
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
    const restoreTxs = this.txs.capture();
    const assets = new Map(this.assets);
    const assetAliases = new Map(this.assetAliases);
    // A chain kept in a store keeps its address index there (taken back with the transactions).
    const restoreAddressTxs = this.addressTxs.capture();
    const restoreRecords = this.records?.capture();
    return () => {
      restoreRecords?.();
      restoreUtxos();
      restoreTxs();
      replaceEntries(this.assets, assets);
      replaceEntries(this.assetAliases, assetAliases);
      restoreAddressTxs();
    };
  }

  // -------------------------------------------------------------------------------------
  // Assets
  // -------------------------------------------------------------------------------------

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
    return this.txs.byId(id);
  }

  getTxStatus(id: Uint8Array): "Accepted" | "Unknown" {
    return this.txs.byId(id) !== undefined ? "Accepted" : "Unknown";
  }

  /** How many transactions were accepted (genesis included). */
  acceptedCount(): number {
    return this.txs.count;
  }

  /** The accepted transaction at `index` in acceptance order (genesis first), read from the store when not cached. */
  acceptedTxAt(index: number): AcceptedTx | undefined {
    return this.txs.at(index);
  }

  /** Every accepted transaction in acceptance order (genesis first): each read, for a chain kept in a store. */
  acceptedTxs(): AcceptedTx[] {
    const txs: AcceptedTx[] = [];
    for (let index = 0; index < this.txs.count; index++) txs.push(this.txs.at(index)!);
    return txs;
  }

  /**
   * Decode and check a transaction exactly as issueTx does, without accepting it. Throws a
   * TxRejectedError naming the broken rule.
   */
  verifyTx(bytes: Uint8Array): ParsedSignedTx {
    const parsed = this.parseOrReject(bytes, parseSignedTx);
    this.rejectAccepted(parsed.txId, this.txs.byId(parsed.txId) !== undefined);
    try {
      validateSignedTx(parsed.tx, { networkId: this.network.networkId, blockchainId: this.chainId, fee: this.fees });
    } catch (error) {
      if (error instanceof TxValidationError) throw new TxRejectedError(error.code, error.nodeMessage, error.message);
      throw error;
    }
    verifySemantics(parsed, this.verificationContext());
    this.rejectTooLarge(parsed.txId, bytes.length);
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
    if (tx.typeId === TypeId.ImportTx) this.removeImported(tx.sourceChain, tx.importedInputs);
    else if (tx.typeId === TypeId.ExportTx) this.putExported(tx.destinationChain, exportedUtxos);

    for (const stored of consumed) {
      this.utxos.remove(stored.inputId);
      this.records?.delUtxo(stored.inputId);
    }
    for (const stored of produced.map(storeUtxo)) this.addUtxo(stored);
    const accepted = this.record(parsed.tx, parsed.signedBytes, false, parsed.txId);
    const touched = [...consumed.map((s) => s.utxo), ...produced];
    if (this.records === undefined) this.addressTxs.add(accepted.id, touched);
    else this.records.putAddressTxs(addressAssetPairs(touched), accepted);
    // With a store, listeners (the index, IPC) hear of it once `accept` has made it durable.
    this.announceUnlessStored(accepted);
    return accepted.id;
  }

  protected rejection(rule: CommonRejection, nodeMessage: string, detail: string): TxRejectedError {
    return new TxRejectedError(rule, nodeMessage, detail);
  }

  protected acceptedOf(id: Uint8Array): AcceptedTx {
    return this.txs.byId(id)!;
  }

  private record(tx: SignedTx, bytes: Uint8Array, genesis: boolean, id: Uint8Array = parseSignedTx(bytes).txId, acceptedAt = Date.now()): AcceptedTx {
    const accepted: AcceptedTx = { id, tx, bytes, index: this.txs.count, acceptedAt, genesis };
    this.txs.append(accepted);
    const unsigned: UnsignedTx = tx.unsignedTx;
    if (unsigned.typeId === TypeId.CreateAssetTx) this.assets.set(hex(id), assetInfoOf(id, unsigned));
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
        return this.txs.byId(assetId) !== undefined ? "not-an-asset" : undefined;
      },
      isPeerChain: (chainId) => this.isPeerChain(chainId),
      getAtomicUtxo: (sourceChain, inputId) => this.atomicUtxo(sourceChain, inputId),
      formatAddress: (shortId) => this.formatAddress(shortId),
    };
  }

  // -------------------------------------------------------------------------------------
  // Balances and the address index
  // -------------------------------------------------------------------------------------

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
    if (this.records !== undefined) return this.records.addressTxPage(hex(address), hex(assetId), cursor, pageSize);
    return this.addressTxs.page(address, assetId, cursor, pageSize);
  }
}
