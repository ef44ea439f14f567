import { sha256 } from "@noble/hashes/sha2.js";
import type { AtomicElement, SharedMemory } from "../../atomic/shared-memory";
import type { DurableStore } from "../../storage";
import { decodeCb58, encodeCb58, EncodingError, equalBytes, formatChainAddress, parseChainAddress } from "../../encoding";
import { ChainDirectory, PLATFORM_CHAIN_ID } from "../../network/chains";
import type { NetworkIdentifiers } from "../../network/constants";
import { CodecError, decodeUtxo, MAX_MEMPOOL_TX_SIZE, TypeId, type Utxo, utxoId } from "../../xchain/codec";
import { type StoredUtxo, storeUtxo, UtxoSet } from "../../xchain/vm/utxo-set";
import { aliasIdFromTxId, type AliasWithNonce, decodePBlock, encodePBlock, encodePSignedTx, type ParsedPTx, parsePTx, type PBlock, PTypeId, type PSignedTx, type PUnsignedTx } from "../codec";
import { type FeeQuote, type FeeStateAt, LOCAL_GENESIS_TIME, PlatformFeeMarket, type PlatformFeeSchedule, platformFeeSchedule } from "../fees";
import type { PlatformGenesis } from "../genesis";
import { AliasNotFoundError, PTxRejectedError } from "./errors";
import { PlatformChainRecords } from "./persistence";
import { isNewAlias, type PVerificationContext, verifyPTx } from "./verify";

/*
 * The platform chain (the reference node's P-Chain, with Camino's multisig aliases) without
 * any transport: UTXOs, multisig aliases, accepted transactions and blocks. Acceptance is
 * immediate: every accepted transaction gets its own Banff standard block on the last one, so
 * a transaction is Committed when issueTx returns, or Unknown. Fees follow the genesis's
 * schedule (see fees/): the static fee before Etna, the dynamic fee from it (the default); the
 * fee state moves with every block.
 */

export interface AcceptedBlock {
  id: Uint8Array;
  block: PBlock;
  bytes: Uint8Array;
  height: bigint;
  /** Acceptance time, Unix milliseconds. */
  acceptedAt: number;
}

export interface AcceptedPTx {
  id: Uint8Array;
  tx: PSignedTx;
  bytes: Uint8Array;
  blockId: Uint8Array;
  height: bigint;
}

export interface PlatformChainOptions {
  network: NetworkIdentifiers;
  sharedMemory: SharedMemory;
  genesis: PlatformGenesis;
  /** Current time in Unix seconds. Default: the system clock. */
  clock?: () => bigint;
  /**
   * Where the chain is kept across restarts (the node's "p/" namespace; see persistence.ts):
   * `PlatformChain.open` replays what it holds. Use `issue` (not `issueTx`) to answer only once
   * a transaction is stored.
   */
  store?: DurableStore;
}

/** One page of a UTXO listing and where it stopped (as the exchange chain pages). */
export interface PUtxoPage {
  utxos: Utxo[];
  bytes: Uint8Array[];
  lastAddress: Uint8Array;
  lastUtxoId: Uint8Array;
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

export class PlatformChain {
  readonly network: NetworkIdentifiers;
  readonly chainId = decodeCb58(PLATFORM_CHAIN_ID);
  readonly feeAssetId: Uint8Array;
  /** The static rule's fee (before Etna); see `quoteFee` for what a transaction owes now. */
  readonly txFee: bigint;
  readonly sharedMemory: SharedMemory;
  private readonly fees: PlatformFeeMarket;
  private readonly clock: () => bigint;
  private readonly chains: ChainDirectory;
  private readonly utxos = new UtxoSet();
  private readonly txs = new Map<string, AcceptedPTx>();
  private readonly blocks: AcceptedBlock[] = [];
  private readonly blocksById = new Map<string, AcceptedBlock>();
  private readonly aliases = new Map<string, AliasWithNonce>();
  private submit: ((bytes: Uint8Array) => Promise<Uint8Array>) | undefined;
  private readonly listeners = new Set<(block: AcceptedBlock) => void>();
  private records: PlatformChainRecords | undefined;

  constructor(options: PlatformChainOptions) {
    this.network = options.network;
    this.sharedMemory = options.sharedMemory;
    this.feeAssetId = decodeCb58(options.network.nativeAsset.id);
    this.txFee = options.network.txFee;
    this.fees = new PlatformFeeMarket(platformFeeSchedule(options.network.txFee, options.genesis.fees), LOCAL_GENESIS_TIME);
    this.clock = options.clock ?? (() => BigInt(Math.floor(Date.now() / 1000)));
    this.chains = new ChainDirectory(options.network);
    for (const utxo of options.genesis.utxos) this.utxos.add(storeUtxo(utxo));
    for (const alias of options.genesis.aliases) this.aliases.set(hex(alias.alias.id), alias);
    this.append({ typeId: PTypeId.ApricotCommitBlock, parentId: sha256(options.genesis.bytes), height: 0n });
  }

  /**
   * The chain over `options.store`: its stored blocks replayed on this genesis (refused, naming
   * both, when the store holds another genesis), or a new chain whose genesis is recorded there.
   * Without a store, `new PlatformChain(options)`.
   */
  static async open(options: PlatformChainOptions): Promise<PlatformChain> {
    const chain = new PlatformChain({ ...options, store: undefined });
    if (options.store === undefined) return chain;
    const records = new PlatformChainRecords(options.store);
    const genesisId = chain.blocks[0]!.id;
    const stored = await records.genesisId();
    if (stored === undefined) {
      records.putGenesis(genesisId);
      await records.commit();
    } else {
      if (!equalBytes(stored, genesisId)) {
        throw new RangeError(`the data directory holds a platform chain with genesis ${encodeCb58(stored)}, and this node's genesis is ${encodeCb58(genesisId)}: start with the same platform genesis, or use another --db-dir`);
      }
      for await (const { height, acceptedAt, bytes } of records.blocks()) chain.replay(height, acceptedAt, bytes);
    }
    chain.records = records;
    return chain;
  }

  /** Accepts a stored block again: its transaction's effects on this chain, not on the atomic memory (kept on its own). */
  private replay(height: bigint, acceptedAt: number, bytes: Uint8Array): void {
    const block = decodePBlock(bytes);
    const signed = block.typeId === PTypeId.BanffStandardBlock && block.txs.length === 1 ? block.txs[0] : undefined;
    if (block.typeId !== PTypeId.BanffStandardBlock || signed === undefined || height !== BigInt(this.blocks.length)) {
      throw new RangeError(`the stored platform block at height ${height} is not the next standard block of one transaction`);
    }
    const parsed = parsePTx(encodePSignedTx(signed));
    const consumed = parsed.tx.unsignedTx.inputs.map((input) => ({ txId: input.txId, outputIndex: input.outputIndex }));
    this.apply(parsed, consumed, block.time, false, acceptedAt);
  }

  /** The state as it is now (evm_snapshot / hardhat_reset): the returned function puts it back, as often as it is called. */
  capture(): () => void {
    const restoreUtxos = this.utxos.capture();
    const txs = new Map(this.txs);
    const blocks = [...this.blocks];
    const aliases = new Map(this.aliases);
    const restoreFees = this.fees.capture();
    return () => {
      // The store follows: blocks no longer on the chain are deleted, blocks back on it written again.
      const records = this.records;
      if (records !== undefined) {
        for (let h = blocks.length; h < this.blocks.length; h++) records.delBlock(BigInt(h));
        for (let h = 1; h < blocks.length; h++) {
          if (this.blocks[h] !== blocks[h]) records.putBlock(BigInt(h), blocks[h]!.acceptedAt, blocks[h]!.bytes);
        }
      }
      restoreUtxos();
      replace(this.txs, txs);
      this.blocks.length = 0;
      this.blocks.push(...blocks);
      replace(this.blocksById, new Map(blocks.map((b) => [hex(b.id), b])));
      replace(this.aliases, aliases);
      restoreFees();
    };
  }

  now(): bigint {
    return this.clock();
  }

  /** The time of the next block: now, or the last block's time if the clock is behind it. */
  nextBlockTime(): bigint {
    const last = this.lastAccepted();
    return maxOf(this.now(), last.block.typeId === PTypeId.BanffStandardBlock ? last.block.time : 0n);
  }

  // --- fees -----------------------------------------------------------------------------

  /** Which fee rule applies from when, and the dynamic rule's config (platform.getFeeConfig). */
  feeSchedule(): PlatformFeeSchedule {
    return this.fees.schedule;
  }

  /** The dynamic fee state of the last accepted block, its price and time (platform.getFeeState). */
  feeState(): FeeStateAt & { price: bigint } {
    return this.fees.feeState();
  }

  /** What `tx` must burn if issued now (or in a block at `time`). */
  quoteFee(tx: PUnsignedTx, time = this.nextBlockTime()): FeeQuote {
    return this.fees.quote(tx, time);
  }

  /** "P-" + bech32(hrp, short ID). */
  formatAddress(shortId: Uint8Array): string {
    return formatChainAddress(shortId, this.network.hrp, "P");
  }

  /** Short ID of a "P-<hrp>1…" address (or with the chain's cb58 ID as prefix); throws EncodingError or RangeError. */
  parseAddress(text: string): Uint8Array {
    const { chainAlias, hrp, shortId } = parseChainAddress(text);
    if (!equalBytes(this.lookupChain(chainAlias), this.chainId)) throw new RangeError(`expected a platform chain address ("P-…"), got chain ${JSON.stringify(chainAlias)}`);
    if (hrp !== this.network.hrp) throw new RangeError(`expected hrp "${this.network.hrp}" but got "${hrp}"`);
    return shortId;
  }

  /** A chain of the network by alias ("X", "C", "P", …) or cb58 ID; throws RangeError. */
  lookupChain(aliasOrId: string): Uint8Array {
    const named = this.chains.lookup(aliasOrId);
    if (named !== undefined) return named.bytes;
    try {
      const byId = this.chains.byId(decodeCb58(aliasOrId));
      if (byId !== undefined) return byId.bytes;
    } catch (error) {
      if (!(error instanceof EncodingError)) throw error;
    }
    throw new RangeError(`there is no chain with alias/ID "${aliasOrId}"`);
  }

  isPeerChain(chainId: Uint8Array): boolean {
    return !equalBytes(chainId, this.chainId) && this.chains.byId(chainId) !== undefined;
  }

  // --- aliases --------------------------------------------------------------------------

  getAlias(address: Uint8Array): AliasWithNonce | undefined {
    return this.aliases.get(hex(address));
  }

  /** The alias at `address`; throws AliasNotFoundError. */
  requireAlias(address: Uint8Array): AliasWithNonce {
    const alias = this.getAlias(address);
    if (alias === undefined) throw new AliasNotFoundError(this.formatAddress(address));
    return alias;
  }

  /** Aliases that name `address` among their owners (directly). */
  aliasesOwnedBy(address: Uint8Array): AliasWithNonce[] {
    return [...this.aliases.values()].filter((a) => a.alias.owners.addresses.some((o) => equalBytes(o, address)));
  }

  // --- blocks and transactions ----------------------------------------------------------

  get height(): bigint {
    return BigInt(this.blocks.length - 1);
  }

  lastAccepted(): AcceptedBlock {
    return this.blocks[this.blocks.length - 1]!;
  }

  getBlock(id: Uint8Array): AcceptedBlock | undefined {
    return this.blocksById.get(hex(id));
  }

  getBlockByHeight(height: bigint): AcceptedBlock | undefined {
    return height < 0n || height >= BigInt(this.blocks.length) ? undefined : this.blocks[Number(height)];
  }

  /** Accepted blocks in order, genesis first. */
  acceptedBlocks(): readonly AcceptedBlock[] {
    return this.blocks;
  }

  /** Called with each block accepted after genesis (for an index of /ext/index/P/block). Returns an unsubscribe function. */
  onAccept(listener: (block: AcceptedBlock) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  getTx(id: Uint8Array): AcceptedPTx | undefined {
    return this.txs.get(hex(id));
  }

  /** The reference node's statuses: Committed for an accepted transaction, else Unknown. */
  getTxStatus(id: Uint8Array): "Committed" | "Unknown" {
    return this.txs.has(hex(id)) ? "Committed" : "Unknown";
  }

  /**
   * Decodes and checks a transaction as issueTx does (for a block at `time`, by default the
   * next one), without accepting it. Throws PTxRejectedError.
   */
  verifyTx(bytes: Uint8Array, time = this.nextBlockTime()): { parsed: ParsedPTx; consumed: Utxo[] } {
    let parsed: ParsedPTx;
    try {
      parsed = parsePTx(bytes);
    } catch (error) {
      if (error instanceof CodecError) throw new PTxRejectedError("malformed", "couldn't unmarshal tx", error.message);
      throw error;
    }
    if (bytes.length > MAX_MEMPOOL_TX_SIZE) throw new PTxRejectedError("too-large", "tx too large", `${bytes.length} > ${MAX_MEMPOOL_TX_SIZE} bytes`);
    if (this.txs.has(hex(parsed.txId))) throw new PTxRejectedError("already-accepted", "duplicate tx", `${encodeCb58(parsed.txId)} is already committed`);
    const fee = this.fees.quote(parsed.tx.unsignedTx, time);
    if (fee.rule === "dynamic" && fee.gas > fee.capacity) {
      throw new PTxRejectedError("gas-capacity-exceeded", "tx exceeds current gas capacity", `${fee.gas} > ${fee.capacity}`, { gas: fee.gas.toString(), capacity: fee.capacity.toString() });
    }
    return { parsed, consumed: verifyPTx(parsed, this.context(fee)).consumed };
  }

  /**
   * Issues signed transaction bytes: verified, then accepted at once in a new block (UTXOs,
   * aliases and shared memory updated together). Refused: PTxRejectedError, nothing changes.
   */
  issueTx(bytes: Uint8Array): Uint8Array {
    const time = this.nextBlockTime();
    const { parsed, consumed } = this.verifyTx(bytes, time);
    const block = this.apply(parsed, consumed, time, true, Date.now());
    this.records?.putBlock(block.height, block.acceptedAt, block.bytes);
    // With a store, listeners (an index) hear of it once `issue` has made it durable.
    if (this.records === undefined) this.announce(block);
    return parsed.txId;
  }

  /**
   * Issues signed transaction bytes: accepted here (see `accept`), or, on a node following
   * another (see `forwardIssuesTo`), handed to the producer, whose answer this is; the
   * transaction then reaches this chain as the producer's accepted container.
   */
  async issue(bytes: Uint8Array): Promise<Uint8Array> {
    return this.submit === undefined ? this.accept(bytes) : this.submit(bytes);
  }

  /** From now on `issue` hands every transaction to `submit` (a follower's link to its producer). */
  forwardIssuesTo(submit: (bytes: Uint8Array) => Promise<Uint8Array>): void {
    this.submit = submit;
  }

  /**
   * `issueTx`, then the commit that makes the acceptance durable (with a store): resolves once a
   * restart would find the transaction, so it is what an API answers from.
   */
  async accept(bytes: Uint8Array): Promise<Uint8Array> {
    const id = this.issueTx(bytes);
    if (this.records !== undefined) {
      await this.records.commit();
      this.announce(this.lastAccepted());
    }
    return id;
  }

  /**
   * Accepts a block another node accepted (a follower re-executing its producer's chain): the
   * next Banff standard block of one transaction on the last accepted block, not earlier than
   * it, canonically encoded; its transaction goes through issueTx's verification and is applied
   * at the block's time, so the block accepted here has the same bytes and ID. Refused:
   * PTxRejectedError or RangeError, and nothing changes.
   */
  async acceptBlock(bytes: Uint8Array): Promise<AcceptedBlock> {
    let block: PBlock;
    try {
      block = decodePBlock(bytes);
    } catch (error) {
      if (error instanceof CodecError) throw new RangeError(`not a platform block: ${error.message}`);
      throw error;
    }
    const last = this.lastAccepted();
    const signed = block.typeId === PTypeId.BanffStandardBlock && block.txs.length === 1 ? block.txs[0] : undefined;
    if (block.typeId !== PTypeId.BanffStandardBlock || signed === undefined) throw new RangeError("a platform block must be a standard block of one transaction");
    if (block.height !== last.height + 1n || !equalBytes(block.parentId, last.id)) {
      throw new RangeError(`block ${block.height} does not extend the last accepted block ${encodeCb58(last.id)} at height ${last.height}`);
    }
    const lastTime = last.block.typeId === PTypeId.BanffStandardBlock ? last.block.time : 0n;
    if (block.time < lastTime) throw new RangeError(`block time ${block.time} is before its parent's ${lastTime}`);
    if (!equalBytes(encodePBlock(block), bytes)) throw new RangeError("the block's bytes are not its canonical encoding");
    const { parsed, consumed } = this.verifyTx(encodePSignedTx(signed), block.time);
    const accepted = this.apply(parsed, consumed, block.time, true, Date.now());
    if (this.records !== undefined) {
      this.records.putBlock(accepted.height, accepted.acceptedAt, accepted.bytes);
      await this.records.commit();
    }
    this.announce(accepted);
    return accepted;
  }

  private announce(block: AcceptedBlock): void {
    for (const listener of this.listeners) listener(block);
  }

  /** A verified (or replayed) transaction's effects, in a new block at `time` on the last one. */
  private apply(parsed: ParsedPTx, consumed: readonly { txId: Uint8Array; outputIndex: number }[], time: bigint, atomic: boolean, acceptedAt: number): AcceptedBlock {
    const tx = parsed.tx.unsignedTx;
    const id = parsed.txId;
    const produced: Utxo[] = tx.outputs.map((out, i) => ({ txId: id, outputIndex: i, assetId: out.assetId, output: out.output }));
    if (!atomic) {
      // Replayed: the atomic memory already holds what this transaction did to it.
    } else if (tx.typeId === PTypeId.ImportTx) {
      this.sharedMemory.apply(this.chainId, [[tx.sourceChain, { remove: tx.importedInputs.map((i) => utxoId(i.txId, i.outputIndex)) }]]);
    } else if (tx.typeId === PTypeId.ExportTx) {
      const put: AtomicElement[] = tx.exportedOutputs.map((out, i) => {
        const stored = storeUtxo({ txId: id, outputIndex: tx.outputs.length + i, assetId: out.assetId, output: out.output });
        return { key: stored.inputId, value: stored.bytes, traits: out.output.addresses };
      });
      this.sharedMemory.apply(this.chainId, [[tx.destinationChain, { put }]]);
    }
    if (tx.typeId === PTypeId.MultisigAliasTx) {
      const current = isNewAlias(tx.alias.id) ? undefined : this.getAlias(tx.alias.id);
      const aliasId = current === undefined ? aliasIdFromTxId(id) : tx.alias.id;
      const nonce = current === undefined ? 0n : current.nonce + 1n;
      this.aliases.set(hex(aliasId), { alias: { id: aliasId, memo: tx.alias.memo, owners: tx.alias.owners }, nonce });
    }
    this.fees.accept(tx, time);
    for (const utxo of consumed) this.utxos.remove(utxoId(utxo.txId, utxo.outputIndex));
    for (const utxo of produced) this.utxos.add(storeUtxo(utxo));
    const last = this.lastAccepted();
    const block = this.append({ typeId: PTypeId.BanffStandardBlock, time, parentId: last.id, height: last.height + 1n, txs: [parsed.tx] }, acceptedAt);
    this.txs.set(hex(id), { id, tx: parsed.tx, bytes: parsed.bytes, blockId: block.id, height: block.height });
    return block;
  }

  private append(block: PBlock, acceptedAt = Date.now()): AcceptedBlock {
    const bytes = encodePBlock(block);
    const accepted: AcceptedBlock = { id: sha256(bytes), block, bytes, height: block.height, acceptedAt };
    this.blocks.push(accepted);
    this.blocksById.set(hex(accepted.id), accepted);
    return accepted;
  }

  private context(fee: FeeQuote): PVerificationContext {
    return {
      networkId: this.network.networkId,
      chainId: this.chainId,
      feeAssetId: this.feeAssetId,
      fee,
      now: this.now(),
      getUtxo: (inputId) => this.utxos.get(inputId)?.utxo,
      isPeerChain: (chain) => this.isPeerChain(chain),
      getAtomicUtxo: (source, inputId) => (this.isPeerChain(source) && this.sharedMemory.has(this.chainId, source, inputId) ? this.sharedMemory.get(this.chainId, source, [inputId])[0] : undefined),
      lookupAlias: (address) => this.getAlias(address),
      formatAddress: (shortId) => this.formatAddress(shortId),
    };
  }

  // --- UTXOs ----------------------------------------------------------------------------

  /** The exchange chain's paginated listing: addresses in byte order, each one's UTXOs newest first. */
  getUtxos(addresses: Uint8Array[], options: { startAddress?: Uint8Array; startUtxoId?: Uint8Array; limit?: number } = {}): PUtxoPage {
    const page = this.utxos.page(addresses, options.startAddress, options.startUtxoId, options.limit ?? Number.MAX_SAFE_INTEGER);
    return { utxos: page.utxos.map((s) => s.utxo), bytes: page.utxos.map((s) => s.bytes), lastAddress: page.lastAddress, lastUtxoId: page.lastUtxo };
  }

  getAllUtxos(addresses: Uint8Array[]): StoredUtxo[] {
    return this.utxos.page(addresses, undefined, undefined, Number.MAX_SAFE_INTEGER).utxos;
  }

  /** Atomic UTXOs exported here from `sourceChain`, owned by any of `addresses`. */
  getAtomicUtxos(sourceChain: Uint8Array, addresses: Uint8Array[], options: { startAddress?: Uint8Array; startUtxoId?: Uint8Array; limit?: number } = {}): PUtxoPage {
    const page = this.sharedMemory.indexed(this.chainId, sourceChain, addresses, options.startAddress, options.startUtxoId, options.limit ?? Number.MAX_SAFE_INTEGER);
    return { utxos: page.values.map((b) => decodeUtxo(b)), bytes: page.values, lastAddress: page.lastTrait ?? new Uint8Array(20), lastUtxoId: page.lastKey ?? new Uint8Array(32) };
  }

  /**
   * The reference getBalance: per asset, unlocked (locktime passed) and locked-not-stakeable
   * (locktime ahead) transfer outputs naming any of `addresses`, with the UTXOs counted.
   */
  getBalance(addresses: Uint8Array[]): { unlocked: Map<string, bigint>; locked: Map<string, bigint>; utxos: Utxo[] } {
    const unlocked = new Map<string, bigint>();
    const locked = new Map<string, bigint>();
    const utxos: Utxo[] = [];
    const now = this.now();
    for (const { utxo } of this.getAllUtxos(addresses)) {
      if (utxo.output.typeId !== TypeId.Secp256k1TransferOutput) continue;
      const target = utxo.output.locktime <= now ? unlocked : locked;
      const asset = encodeCb58(utxo.assetId);
      target.set(asset, (target.get(asset) ?? 0n) + utxo.output.amount);
      utxos.push(utxo);
    }
    return { unlocked, locked, utxos };
  }
}

function maxOf(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

function replace<K, V>(target: Map<K, V>, source: Map<K, V>): void {
  target.clear();
  for (const [k, v] of source) target.set(k, v);
}
