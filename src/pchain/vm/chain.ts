import { sha256 } from "@noble/hashes/sha2.js";
import type { SharedMemory } from "../../atomic/shared-memory";
import type { DurableStore } from "../../storage";
import { decodeCb58, encodeCb58, equalBytes } from "../../encoding";
import { PLATFORM_CHAIN_ID } from "../../network/chains";
import type { NetworkIdentifiers } from "../../network/constants";
import { CodecError, TypeId, type Utxo, utxoId } from "../../utxo/codec";
import { type CommonRejection, replaceEntries, UtxoChain, type UtxoPage } from "../../utxo/chain";
import { storeUtxo } from "../../utxo/utxo-set";
import { aliasIdFromTxId, type AliasWithNonce, decodePBlock, encodePBlock, encodePSignedTx, type ParsedPTx, parsePTx, type PBlock, PTypeId, type PUnsignedTx } from "../codec";
import { type FeeQuote, type FeeStateAt, LOCAL_GENESIS_TIME, PlatformFeeMarket, type PlatformFeeSchedule, platformFeeSchedule } from "../fees";
import type { PlatformGenesis } from "../genesis";
import { AliasNotFoundError, PTxRejectedError } from "./errors";
import { type AcceptedBlock, type AcceptedPTx, MemoryPlatformBlocks, type PlatformBlocks } from "./platform-blocks";
import { DEFAULT_PLATFORM_BLOCK_CACHE, openPlatformStore } from "./platform-store";
import type { PlatformChainRecords } from "./persistence";
import { feeScheduleKey, type PlatformStateHead, type PlatformStateRecords } from "./state-records";
import { isNewAlias, type PVerificationContext, verifyPTx } from "./verify";

/*
 * The platform chain (the reference node's P-Chain, with Camino's multisig aliases) without
 * any transport: UTXOs, multisig aliases, accepted transactions and blocks. Acceptance is
 * immediate: every accepted transaction gets its own Banff standard block on the last one, so
 * a transaction is Committed when issueTx returns, or Unknown. Fees follow the genesis's
 * schedule (see fees/): the static fee before Etna, the dynamic fee from it (the default); the
 * fee state moves with every block. What it shares with the exchange chain (addresses, chains,
 * UTXOs, the issue/accept cycle, listeners) is src/utxo/chain.ts's `UtxoChain`.
 */

export type { AcceptedBlock, AcceptedPTx } from "./platform-blocks";

export interface PlatformChainOptions {
  network: NetworkIdentifiers;
  sharedMemory: SharedMemory;
  genesis: PlatformGenesis;
  /** Current time in Unix seconds. Default: the system clock. */
  clock?: () => bigint;
  /**
   * Where the chain is kept across restarts (the node's "p/" namespace; see persistence.ts):
   * `PlatformChain.open` reads its state and head block. Use `issue` (not `issueTx`) to answer
   * only once a transaction is stored.
   */
  store?: DurableStore;
  /** With a store: blocks kept decoded in memory besides the head (`--accepted-cache-size`). Default 256. */
  acceptedCacheSize?: number;
}

/** One page of a UTXO listing and where it stopped (as every UTXO chain pages). */
export type PUtxoPage = UtxoPage;

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

export class PlatformChain extends UtxoChain<AcceptedBlock> {
  readonly feeAssetId: Uint8Array;
  /** The static rule's fee (before Etna); see `quoteFee` for what a transaction owes now. */
  readonly txFee: bigint;
  private readonly fees: PlatformFeeMarket;
  /** In memory, or in the store once `open` has attached it (platform-blocks.ts). */
  private blocks: PlatformBlocks;
  private readonly aliases = new Map<string, AliasWithNonce>();
  protected records: PlatformChainRecords | undefined;
  /** The state's records in the store (state-records.ts): staged with each block. */
  private state: PlatformStateRecords | undefined;

  constructor(options: PlatformChainOptions) {
    super({ network: options.network, chainId: decodeCb58(PLATFORM_CHAIN_ID), addressPrefix: "P", sharedMemory: options.sharedMemory, clock: options.clock });
    this.feeAssetId = decodeCb58(options.network.nativeAsset.id);
    this.txFee = options.network.txFee;
    this.fees = new PlatformFeeMarket(platformFeeSchedule(options.network.txFee, options.genesis.fees), LOCAL_GENESIS_TIME);
    for (const utxo of options.genesis.utxos) this.utxos.add(storeUtxo(utxo));
    for (const alias of options.genesis.aliases) this.aliases.set(hex(alias.alias.id), alias);
    const genesisBytes = encodePBlock({ typeId: PTypeId.ApricotCommitBlock, parentId: sha256(options.genesis.bytes), height: 0n });
    this.blocks = new MemoryPlatformBlocks({ id: sha256(genesisBytes), block: decodePBlock(genesisBytes), bytes: genesisBytes, height: 0n, acceptedAt: Date.now() });
  }

  /**
   * The chain over `options.store` (see platform-store.ts): the state and head block it holds
   * on this genesis (refused, naming both, when the store holds another genesis; a store of an
   * earlier version is migrated once), or a new chain whose genesis is recorded there. Without
   * a store, `new PlatformChain(options)`.
   */
  static async open(options: PlatformChainOptions): Promise<PlatformChain> {
    const chain = new PlatformChain({ ...options, store: undefined });
    if (options.store === undefined) return chain;
    const genesis = chain.blocks.head;
    const opened = await openPlatformStore(
      options.store,
      {
        genesis,
        feeSchedule: feeScheduleKey(chain.fees.schedule),
        replay: (height, acceptedAt, bytes) => chain.replay(height, acceptedAt, bytes),
        current: () => ({ utxos: chain.utxos.all(), aliases: chain.aliases.values(), head: chain.stateHead(), blocks: chain.blocks.all() }),
        load: (state) => {
          chain.utxos.clear();
          for (const stored of state.utxos) chain.utxos.add(stored);
          chain.aliases.clear();
          for (const alias of state.aliases) chain.aliases.set(hex(alias.alias.id), alias);
          chain.fees.resume(state.head.fees);
        },
        freshFees: () => new PlatformFeeMarket(chain.fees.schedule, LOCAL_GENESIS_TIME),
      },
      options.acceptedCacheSize ?? DEFAULT_PLATFORM_BLOCK_CACHE,
    );
    chain.blocks = opened.blocks;
    chain.state = opened.state;
    chain.records = opened.records;
    return chain;
  }

  /** What the state records say of the last block. */
  private stateHead(): PlatformStateHead {
    const head = this.blocks.head;
    const { state, timestamp } = this.fees.feeState();
    return { height: head.height, blockId: head.id, fees: { state, timestamp }, feeSchedule: feeScheduleKey(this.fees.schedule) };
  }

  /** Accepts a stored block again: its transaction's effects on this chain, not on the atomic memory (kept on its own). */
  private replay(height: bigint, acceptedAt: number, bytes: Uint8Array): void {
    const block = decodePBlock(bytes);
    const signed = block.typeId === PTypeId.BanffStandardBlock && block.txs.length === 1 ? block.txs[0] : undefined;
    if (block.typeId !== PTypeId.BanffStandardBlock || signed === undefined || height !== this.blocks.head.height + 1n) {
      throw new RangeError(`the stored platform block at height ${height} is not the next standard block of one transaction`);
    }
    const parsed = parsePTx(encodePSignedTx(signed));
    const consumed = parsed.tx.unsignedTx.inputs.map((input) => ({ txId: input.txId, outputIndex: input.outputIndex }));
    this.apply(parsed, consumed, block.time, false, acceptedAt);
  }

  /** The state as it is now (evm_snapshot / hardhat_reset): the returned function puts it back, as often as it is called. */
  capture(): () => void {
    const restoreUtxos = this.utxos.capture();
    // The store follows: blocks no longer on the chain are deleted, the state's records put back.
    const restoreBlocks = this.blocks.capture();
    const restoreState = this.state?.capture();
    const aliases = new Map(this.aliases);
    const restoreFees = this.fees.capture();
    return () => {
      restoreBlocks();
      restoreState?.();
      restoreUtxos();
      replaceEntries(this.aliases, aliases);
      restoreFees();
    };
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
    return this.blocks.head.height;
  }

  lastAccepted(): AcceptedBlock {
    return this.blocks.head;
  }

  getBlock(id: Uint8Array): AcceptedBlock | undefined {
    return this.blocks.byId(id);
  }

  getBlockByHeight(height: bigint): AcceptedBlock | undefined {
    return this.blocks.at(height);
  }

  /** Accepted blocks in order, genesis first (with a store, every block is read: for an index catching up). */
  acceptedBlocks(): readonly AcceptedBlock[] {
    return this.blocks.all();
  }

  getTx(id: Uint8Array): AcceptedPTx | undefined {
    return this.blocks.tx(id);
  }

  /** The reference node's statuses: Committed for an accepted transaction, else Unknown. */
  getTxStatus(id: Uint8Array): "Committed" | "Unknown" {
    return this.blocks.hasTx(id) ? "Committed" : "Unknown";
  }

  /**
   * Decodes and checks a transaction as issueTx does (for a block at `time`, by default the
   * next one), without accepting it. Throws PTxRejectedError.
   */
  verifyTx(bytes: Uint8Array, time = this.nextBlockTime()): { parsed: ParsedPTx; consumed: Utxo[] } {
    const parsed = this.parseOrReject(bytes, parsePTx);
    this.rejectTooLarge(parsed.txId, bytes.length);
    this.rejectAccepted(parsed.txId, this.blocks.hasTx(parsed.txId));
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
    // With a store, listeners (an index of /ext/index/P/block) hear of it once `accept` has made it durable.
    this.announceUnlessStored(block);
    return parsed.txId;
  }

  protected rejection(rule: CommonRejection, nodeMessage: string, detail: string): PTxRejectedError {
    return new PTxRejectedError(rule, nodeMessage, detail);
  }

  /** The block that accepted transaction `id`. */
  protected acceptedOf(id: Uint8Array): AcceptedBlock {
    return this.getBlock(this.blocks.tx(id)!.blockId)!;
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
    await this.records?.commit();
    this.announce(accepted);
    return accepted;
  }

  /** A verified (or replayed) transaction's effects, in a new block at `time` on the last one. */
  private apply(parsed: ParsedPTx, consumed: readonly { txId: Uint8Array; outputIndex: number }[], time: bigint, atomic: boolean, acceptedAt: number): AcceptedBlock {
    const tx = parsed.tx.unsignedTx;
    const id = parsed.txId;
    const produced: Utxo[] = tx.outputs.map((out, i) => ({ txId: id, outputIndex: i, assetId: out.assetId, output: out.output }));
    if (!atomic) {
      // Replayed: the atomic memory already holds what this transaction did to it.
    } else if (tx.typeId === PTypeId.ImportTx) {
      this.removeImported(tx.sourceChain, tx.importedInputs);
    } else if (tx.typeId === PTypeId.ExportTx) {
      this.putExported(
        tx.destinationChain,
        tx.exportedOutputs.map((out, i) => ({ txId: id, outputIndex: tx.outputs.length + i, assetId: out.assetId, output: out.output })),
      );
    }
    if (tx.typeId === PTypeId.MultisigAliasTx) {
      const current = isNewAlias(tx.alias.id) ? undefined : this.getAlias(tx.alias.id);
      const aliasId = current === undefined ? aliasIdFromTxId(id) : tx.alias.id;
      const nonce = current === undefined ? 0n : current.nonce + 1n;
      const alias: AliasWithNonce = { alias: { id: aliasId, memo: tx.alias.memo, owners: tx.alias.owners }, nonce };
      this.aliases.set(hex(aliasId), alias);
      this.state?.putAlias(alias);
    }
    this.fees.accept(tx, time);
    for (const utxo of consumed) {
      this.utxos.remove(utxoId(utxo.txId, utxo.outputIndex));
      this.state?.delUtxo(utxo.txId, utxo.outputIndex);
    }
    for (const utxo of produced) {
      const stored = storeUtxo(utxo);
      this.utxos.add(stored);
      this.state?.putUtxo(stored);
    }
    const last = this.lastAccepted();
    const pblock: PBlock = { typeId: PTypeId.BanffStandardBlock, time, parentId: last.id, height: last.height + 1n, txs: [parsed.tx] };
    const bytes = encodePBlock(pblock);
    const block: AcceptedBlock = { id: sha256(bytes), block: pblock, bytes, height: pblock.height, acceptedAt };
    this.blocks.append(block, { id, tx: parsed.tx, bytes: parsed.bytes, blockId: block.id, height: block.height });
    this.state?.putHead(this.stateHead());
    return block;
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
      getAtomicUtxo: (source, inputId) => this.atomicUtxo(source, inputId),
      lookupAlias: (address) => this.getAlias(address),
      formatAddress: (shortId) => this.formatAddress(shortId),
    };
  }

  // --- balances -------------------------------------------------------------------------

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
