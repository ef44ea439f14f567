/**
 * The contract chain's atomic-transaction service (`ContractChainAtomics`): issuance (verify
 * against the chain's state and shared memory), acceptance (each transaction in a block of its
 * own, through the engine's `AtomicChainHost`), and the records getAtomicTx / getAtomicTxStatus
 * answer from.
 */
import { AtomicMemoryError, type SharedMemory } from "../atomic/shared-memory";
import type { AtomicChainHost } from "../engine/atomic-host";
import type { BlockRecord } from "../engine/chain";
import { encodeCb58 } from "../encoding";
import { LOCAL_NETWORK, type NetworkIdentifiers } from "../network/constants";
import type { DurableStore } from "../storage";
import { CodecError, type Utxo, decodeUtxo, shortIdFromPrivateKey } from "../utxo/codec";
import { IssueForwarding } from "../utxo/forwarding";
import { AtomicTypeId, type ParsedAtomicTx, parseSignedAtomicTx } from "./atomic-codec";
import { buildExportTx, buildImportTx } from "./builders";
import { type AtomicContext, atomicContextOf } from "./context";
import { AtomicTxError, fail } from "./errors";
import { ATOMIC_GAS_LIMIT, MAX_ATOMIC_TX_SIZE, atomicTxGasUsed, calculateDynamicFee } from "./fees";
import { loadAcceptedAtomicTxs, nextBlockHeight, stageAcceptedAtomicTx } from "./records";
import { verifyAtomicTx } from "./semantics";
import { applyAtomicStateTransfer, atomicRequestsOf } from "./state-transfer";

/** How long a forwarded transaction may take to reach this node from the producer. */
const FORWARD_WAIT_MS = 10_000;

/** Status of an atomic transaction as getAtomicTxStatus reports it. */
export type AtomicStatus = "Accepted" | "Processing" | "Dropped" | "Unknown";

interface TxRecord {
  bytes: Uint8Array;
  status: "Accepted" | "Dropped";
  height: bigint | undefined;
  /** Why it was dropped. */
  reason?: string;
}

export interface AcceptedAtomicTx {
  /** cb58 transaction ID. */
  txId: string;
  block: BlockRecord;
  parsed: ParsedAtomicTx;
  gasUsed: bigint;
  /** Fee required at the block's base fee, in nAVAX. */
  fee: bigint;
}

export interface ContractChainAtomicsOptions {
  /** The engine, as far as atomic transactions reach it. */
  host: AtomicChainHost;
  sharedMemory: SharedMemory;
  network?: NetworkIdentifiers;
  /**
   * Apply the Banff rule (only the native coin crosses chains). Default: the host's
   * `deprecatedPrecompiles`, so both later-upgrade behaviours go together.
   */
  nativeOnly?: boolean;
  /** Unix seconds for UTXO locktimes. Default: the wall clock, never before the head block. */
  clock?: () => bigint;
  /**
   * Where accepted transactions are kept across restarts (the node's "cvm/" namespace; see
   * records.ts). The service only stages, never commits: an acceptance's record is staged
   * while its block is being made, with the shared-memory changes, and the engine's commit of
   * that block writes them together. Use `ContractChainAtomics.open` to read what a store holds.
   */
  store?: DurableStore;
}

/**
 * The contract chain's side of cross-chain transfers: verifies atomic transactions against the
 * chain's state and shared memory, accepts each in a block of its own, and remembers them
 * for getAtomicTx / getAtomicTxStatus.
 */
export class ContractChainAtomics {
  readonly host: AtomicChainHost;
  readonly sharedMemory: SharedMemory;
  readonly network: NetworkIdentifiers;
  readonly ctx: AtomicContext;
  private readonly clock: () => bigint;
  private readonly records = new Map<string, TxRecord>();
  private readonly store: DurableStore | undefined;
  /** Accepted here, or (a follower) handed to the producer, which answers the transaction's cb58 ID. */
  private readonly forwarding = new IssueForwarding<string>();
  /** Transactions whose block is being accepted (its listeners run before the record is made), by cb58 ID. */
  private readonly accepting = new Map<string, Uint8Array>();
  /** Forwarded transactions awaited, by cb58 ID. */
  private readonly waiters = new Map<string, (accepted: AcceptedAtomicTx) => void>();

  constructor(options: ContractChainAtomicsOptions) {
    this.host = options.host;
    this.store = options.store;
    this.sharedMemory = options.sharedMemory;
    this.network = options.network ?? LOCAL_NETWORK;
    this.ctx = atomicContextOf(this.network, options.nativeOnly ?? options.host.deprecatedPrecompiles);
    this.clock =
      options.clock ??
      (() => {
        const now = BigInt(Math.floor(Date.now() / 1000));
        const head = this.host.headTimestamp();
        return now > head ? now : head;
      });
  }

  /**
   * The service over `options.store`, knowing the accepted transactions it holds (whether their
   * blocks are still in the chain is checked against the host's chain, as always). Throws
   * DamagedRecordError naming a record it cannot read.
   */
  static async open(options: ContractChainAtomicsOptions): Promise<ContractChainAtomics> {
    const atomics = new ContractChainAtomics(options);
    if (options.store !== undefined) {
      for (const [txId, { bytes, height }] of await loadAcceptedAtomicTxs(options.store)) atomics.records.set(txId, { bytes, status: "Accepted", height });
    }
    return atomics;
  }

  /** Unix seconds used for locktimes. */
  now(): bigint {
    return this.clock();
  }

  /** Base fee (wei per gas) the next block has: what an atomic transaction must pay at least. */
  requiredBaseFee(): bigint {
    return this.host.nextBlockBaseFee();
  }

  /** The base fee the node's API uses when none is given: the next block's plus 10 %. */
  suggestedBaseFee(): bigint {
    return (this.host.nextBlockBaseFee() * 11n) / 10n;
  }

  /**
   * Verifies and accepts a signed atomic transaction (bytes or parsed) in a new block.
   * Throws an AtomicTxError when the node would refuse it; a decodable transaction refused
   * for its content is then reported as Dropped.
   */
  issue(tx: Uint8Array | ParsedAtomicTx): Promise<AcceptedAtomicTx> {
    return this.forwarding.submit === undefined ? this.acceptHere(tx) : this.forward(tx);
  }

  /** Verifies and accepts a transaction on this chain, whatever `forwardIssuesTo` set (a follower applying its producer's block). */
  acceptHere(tx: Uint8Array | ParsedAtomicTx): Promise<AcceptedAtomicTx> {
    return this.host.serialize(() => this.issueLocked(tx));
  }

  /**
   * From now on `issue`, `importFunds` and `exportFunds` hand the signed transaction to
   * `submit` (a follower's link to its producer, answering the transaction's cb58 ID), and
   * resolve once this chain has accepted it from the producer's block.
   */
  forwardIssuesTo(submit: (signedBytes: Uint8Array) => Promise<string>): void {
    this.forwarding.forwardTo(submit);
  }

  private async forward(tx: Uint8Array | ParsedAtomicTx): Promise<AcceptedAtomicTx> {
    let bytes = tx instanceof Uint8Array ? tx : tx.signedBytes;
    const txId = await this.forwarding.submit!(bytes);
    const record = this.records.get(txId);
    const height = record === undefined ? undefined : this.acceptedHeight(txId, record);
    if (record !== undefined && height !== undefined) {
      bytes = record.bytes;
      return this.acceptedRecord(txId, parseSignedAtomicTx(bytes), this.host.blockAt(height)!);
    }
    return new Promise<AcceptedAtomicTx>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(txId);
        reject(new Error(`tx ${txId} was accepted by the producer and has not reached this node within ${FORWARD_WAIT_MS} ms`));
      }, FORWARD_WAIT_MS);
      this.waiters.set(txId, (accepted) => {
        clearTimeout(timer);
        resolve(accepted);
      });
    });
  }

  private acceptedRecord(txId: string, parsed: ParsedAtomicTx, block: BlockRecord): AcceptedAtomicTx {
    const gasUsed = atomicTxGasUsed(parsed.tx.unsignedTx, parsed.unsignedBytes);
    return { txId, block, parsed, gasUsed, fee: calculateDynamicFee(gasUsed, block.block.header.baseFeePerGas ?? 0n) };
  }

  /** Builds, signs and accepts an import of every atomic UTXO from `sourceChain` the keys can spend. */
  importFunds(params: { sourceChain: Uint8Array; to: Uint8Array; keys: Uint8Array[]; baseFee?: bigint }): Promise<AcceptedAtomicTx> {
    return this.host.serialize(async () => {
      const owners = params.keys.map(shortIdFromPrivateKey);
      const page = this.sharedMemory.indexed(this.ctx.chainId, params.sourceChain, owners, undefined, undefined, 1024);
      const utxos: Utxo[] = [];
      for (const value of page.values) {
        try {
          utxos.push(decodeUtxo(value));
        } catch (error) {
          if (error instanceof CodecError) fail("bad-utxo", `problem retrieving atomic UTXOs: error parsing UTXO: ${error.message}`);
          throw error;
        }
      }
      const parsed = buildImportTx({
        ctx: this.ctx,
        sourceChain: params.sourceChain,
        to: params.to,
        baseFee: params.baseFee ?? this.suggestedBaseFee(),
        keys: params.keys,
        utxos,
        now: this.now(),
      });
      return this.forwarding.submit === undefined ? this.issueLocked(parsed) : parsed;
    }).then((result) => ("signedBytes" in result ? this.forward(result) : result));
  }

  /** Builds, signs and accepts an export of `amount` of an asset to `to` (short ID) on `destinationChain`. */
  exportFunds(params: { assetId: Uint8Array; amount: bigint; destinationChain: Uint8Array; to: Uint8Array; keys: Uint8Array[]; baseFee?: bigint }): Promise<AcceptedAtomicTx> {
    return this.host.serialize(async () => {
      const parsed = await buildExportTx({
        ctx: this.ctx,
        state: this.host.currentState,
        assetId: params.assetId,
        amount: params.amount,
        destinationChain: params.destinationChain,
        to: params.to,
        baseFee: params.baseFee ?? this.suggestedBaseFee(),
        keys: params.keys,
      });
      return this.forwarding.submit === undefined ? this.issueLocked(parsed) : parsed;
    }).then((result) => ("signedBytes" in result ? this.forward(result) : result));
  }

  private async issueLocked(input: Uint8Array | ParsedAtomicTx): Promise<AcceptedAtomicTx> {
    let parsed: ParsedAtomicTx;
    if (input instanceof Uint8Array) {
      try {
        parsed = parseSignedAtomicTx(input);
      } catch (error) {
        if (error instanceof CodecError) throw new AtomicTxError("malformed", `problem parsing transaction: ${error.message}`);
        throw error;
      }
    } else {
      parsed = input;
    }
    const txId = encodeCb58(parsed.id);
    const previous = this.records.get(txId);
    if (previous?.status === "Accepted" && this.acceptedHeight(txId, previous) !== undefined) {
      throw new AtomicTxError(
        "already-accepted",
        `tx ${txId} was already accepted in block ${previous.height}: its ${parsed.tx.unsignedTx.typeId === AtomicTypeId.ImportTx ? "atomic UTXOs are already imported" : "inputs are already spent"}`,
        txId,
      );
    }
    const tx = parsed.tx.unsignedTx;
    try {
      if (parsed.signedBytes.length > MAX_ATOMIC_TX_SIZE) {
        fail("too-large", `tx size (${parsed.signedBytes.length}) exceeds total atomic txs size target (${MAX_ATOMIC_TX_SIZE})`);
      }
      const gasUsed = atomicTxGasUsed(tx, parsed.unsignedBytes);
      if (gasUsed > ATOMIC_GAS_LIMIT) fail("gas-limit", `tx gas usage (${gasUsed}) exceeds atomic gas limit (${ATOMIC_GAS_LIMIT})`);
      const baseFee = this.host.nextBlockBaseFee();
      verifyAtomicTx(parsed, { ctx: this.ctx, sharedMemory: this.sharedMemory, baseFee, now: this.now() });
      const { peerChain, requests } = atomicRequestsOf(tx, parsed.id);
      let stagedHeight: bigint | undefined;
      this.accepting.set(txId, parsed.signedBytes);
      const block = await this.host.mineAtomic({
        id: txId,
        bytes: parsed.signedBytes,
        gasUsed,
        apply: async (state) => {
          await applyAtomicStateTransfer(tx, state, this.ctx.nativeAssetId);
          try {
            this.sharedMemory.apply(this.ctx.chainId, [[peerChain, requests]]);
          } catch (error) {
            if (error instanceof AtomicMemoryError) fail("shared-memory", error.message);
            throw error;
          }
          // Inside the block, so that the block's commit writes the record with it.
          if (this.store !== undefined) {
            stagedHeight = nextBlockHeight(this.host);
            stageAcceptedAtomicTx(this.store, txId, { bytes: parsed.signedBytes, height: stagedHeight });
          }
        },
      });
      this.accepting.delete(txId);
      this.records.set(txId, { bytes: parsed.signedBytes, status: "Accepted", height: block.number });
      // Not expected (one block at a time), but the record must name the block that has it.
      if (this.store !== undefined && stagedHeight !== block.number) stageAcceptedAtomicTx(this.store, txId, { bytes: parsed.signedBytes, height: block.number });
      const accepted = { txId, block, parsed, gasUsed, fee: calculateDynamicFee(gasUsed, block.block.header.baseFeePerGas ?? baseFee) };
      this.waiters.get(txId)?.(accepted);
      this.waiters.delete(txId);
      return accepted;
    } catch (error) {
      this.accepting.delete(txId);
      if (error instanceof AtomicTxError) {
        error.txId = txId;
        if (this.records.get(txId)?.status !== "Accepted") {
          this.records.set(txId, { bytes: parsed.signedBytes, status: "Dropped", height: undefined, reason: error.message });
        }
      }
      throw error;
    }
  }

  /** Height of the block that accepted a recorded transaction, if that block is still in the chain. */
  private acceptedHeight(txId: string, record: TxRecord): bigint | undefined {
    if (record.height === undefined) return undefined;
    const block = this.host.blockAt(record.height);
    return block?.atomicTransactions.includes(txId) ? record.height : undefined;
  }

  /** Status (and block height when accepted) of a transaction, by cb58 ID. */
  status(txId: string): { status: AtomicStatus; blockHeight?: bigint; reason?: string } {
    const record = this.records.get(txId);
    if (record === undefined) return { status: "Unknown" };
    if (record.status === "Dropped") return { status: "Dropped", reason: record.reason };
    const height = this.acceptedHeight(txId, record);
    return height === undefined ? { status: "Unknown" } : { status: "Accepted", blockHeight: height };
  }

  /** The signed bytes of a known transaction with its status, or undefined for an unknown one. */
  transaction(txId: string): { bytes: Uint8Array; status: AtomicStatus; blockHeight?: bigint } | undefined {
    const record = this.records.get(txId);
    if (record === undefined) return undefined;
    const status = this.status(txId);
    if (status.status === "Unknown") return undefined;
    return { bytes: record.bytes, status: status.status, blockHeight: status.blockHeight };
  }

  /** The signed bytes of an accepted transaction, also while its block is being accepted (the block's listeners hear of it first). */
  signedBytes(txId: string): Uint8Array | undefined {
    return this.accepting.get(txId) ?? (this.records.get(txId)?.status === "Accepted" ? this.records.get(txId)!.bytes : undefined);
  }

  /** Every recorded transaction ID (accepted or dropped). */
  knownTransactions(): string[] {
    return [...this.records.keys()];
  }
}

