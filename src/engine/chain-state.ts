/**
 * The chain and the live state at its head, with the VM that runs on that state. Every part of
 * the engine reaches them here, because a reset (hardhat_reset) replaces them together: a part
 * that kept its own reference would go on working on the old chain.
 */
import type { Common } from "@ethereumjs/common";
import { NobleBN254 } from "@ethereumjs/evm";
import { Caches } from "@ethereumjs/statemanager";
import { bytesToHex, ValueEncoding } from "@ethereumjs/util";
import { createVM, type VM } from "@ethereumjs/vm";
import { ChainStore, type BlockRecord } from "./chain";
import { formatConsoleLog } from "./console-log";
import { installJumpAnalysisMemo } from "./jump-analysis-memo";
import { ExecutionBudget } from "./execution-budget";
import type { MultiCoinSnapshot } from "./multicoin";
import { mirrorListeners } from "./evm-events";
import { FlatKeyMapDB, NodeCachingTrie } from "./node-cache-trie";
import type { ResolvedEngineOptions } from "./options";
import { ObservedEVM } from "./observed-evm";
import { NativeEVM, nativePrecompiles } from "./precompiles";
import type { ForkSource } from "./fork/fork-source";
import { ForkedStateManager } from "./fork/forked-state";
import { NativeStateManager } from "./state-manager";

interface PastView {
  record: BlockRecord;
  multiCoin: MultiCoinSnapshot;
  readonly state: NativeStateManager;
  vm?: VM;
}

export class ChainState {
  private store!: ChainStore;
  private live!: NativeStateManager;
  private machine!: VM;
  /** The remote chain this one forks, if any (set before `renew`, which builds on it). */
  fork: ForkSource | undefined;
  /**
   * The view of a past block's state, with its VM once a call needed one. Matchers such as
   * changeTokenBalance read the block before the head after each transaction, and a view with its
   * VM cost about three head calls to make: one view serves every past block, moved from block to
   * block (NativeStateManager.moveTo), with its VM. A view is only read (a call's changes are
   * reverted), and operations run one at a time, so it can be shared and moved.
   */
  private past: PastView | undefined;
  /** The EVM event emitter all the chain's VMs share, when the chain has `evmEvents` (see emittingEvents). */
  private sharedEvents: NativeEVM["events"] | undefined;

  /** `trieDatabase` makes each fresh state's node database (the durable one when the chain is persisted). */
  constructor(
    readonly common: Common,
    private readonly options: Readonly<ResolvedEngineOptions>,
    private readonly trieDatabase: () => FlatKeyMapDB = () => new FlatKeyMapDB(),
  ) {}

  /** The canonical chain. */
  get chain(): ChainStore {
    return this.store;
  }

  get head(): BlockRecord {
    return this.store.head;
  }

  /** The state after the head block (with any direct edits since). */
  get stateManager(): NativeStateManager {
    return this.live;
  }

  /** The VM over the head state, which runs the next block's transactions and calls on the head. */
  get vm(): VM {
    return this.machine;
  }

  get evm(): NativeEVM {
    return this.machine.evm as NativeEVM;
  }

  /** An empty chain and state (at creation and on hardhat_reset); the genesis block comes next. */
  async renew(): Promise<void> {
    this.store = new ChainStore(this.fork?.point.number ?? 0n);
    // Trie nodes kept as bytes (the default hex-string encoding converts every node on each
    // access), and kept decoded in memory (NodeCachingTrie).
    const trie = new NodeCachingTrie({ useKeyHashing: true, common: this.common, db: this.trieDatabase(), valueEncoding: ValueEncoding.Bytes });
    const opts = { common: this.common, caches: new Caches(), trie };
    this.live = this.fork === undefined ? new NativeStateManager(opts) : new ForkedStateManager({ ...opts, source: this.fork });
    this.machine = await this.makeVm(this.live);
    this.past = undefined;
  }

  /** The state as of a block: the live state for the head, a read-only view for older blocks. */
  stateAt(record: BlockRecord): NativeStateManager {
    if (record === this.store.head) return this.live;
    return this.pastView(record).state;
  }

  /** The VM over `stateAt(record)`. */
  async vmAt(record: BlockRecord): Promise<VM> {
    if (record === this.store.head) return this.machine;
    const view = this.pastView(record);
    view.vm ??= await this.makeVm(view.state);
    return view.vm;
  }

  private pastView(record: BlockRecord): PastView {
    const view = this.past;
    if (view === undefined) {
      this.past = { record, multiCoin: record.multiCoin, state: this.live.viewAt(record.block.header.stateRoot, record.multiCoin) };
      return this.past;
    }
    // Another block, or the same block with other multi-coin balances (a direct edit at the head replaces them).
    if (view.record !== record || view.multiCoin !== record.multiCoin) {
      view.state.moveTo(record.block.header.stateRoot, record.multiCoin);
      view.record = record;
      view.multiCoin = record.multiCoin;
    }
    return view;
  }

  /** Records the head state's multi-coin balances on the head block (after a direct edit or a revert). */
  setHeadMultiCoin(multiCoin: MultiCoinSnapshot): void {
    (this.store.head as { multiCoin: MultiCoinSnapshot }).multiCoin = multiCoin;
  }

  /** A VM with the native precompiles over `stateManager`, reading block hashes from the chain. */
  async makeVm(stateManager: NativeStateManager): Promise<VM> {
    const { blockchain, evmOptions } = this.evmParts(stateManager);
    const { coverage, executions } = this.options;
    const budget = this.executionBudget();
    // Only a chain that is observed (Hardhat's --coverage, --gas-stats) pays for observing.
    const evm = coverage === undefined && executions === undefined ? new NativeEVM(evmOptions, budget) : new ObservedEVM(evmOptions, { coverage, executions });
    evm.replayFailures = this.options.traceFailures;
    const vm = await createVM({ common: this.common, stateManager, blockchain, evm: this.emittingEvents(evm) });
    // A transaction's gas used is known once the VM has finished it.
    if (executions !== undefined) vm.events.on("afterTx", (event) => executions.transactionRan(event));
    return vm;
  }

  /**
   * A VM of its own over `stateManager`: the chain's precompiles and block hashes, and its
   * slices, but nothing that observes it (a trace replays a block there, unseen by coverage and
   * listeners).
   */
  async detachedVm(stateManager: NativeStateManager): Promise<VM> {
    const { blockchain, evmOptions } = this.evmParts(stateManager);
    return createVM({ common: this.common, stateManager, blockchain, evm: new NativeEVM(evmOptions, this.executionBudget()) });
  }

  /**
   * A chain that serves many clients, or limits a call's time, slices long executions; a Hardhat
   * network does neither, and its EVM runs without the budget's JUMPDEST.
   */
  private executionBudget(): ExecutionBudget | undefined {
    return this.options.unqueuedReads || this.options.rpcEvmTimeoutMs > 0 ? new ExecutionBudget() : undefined;
  }

  /** What every VM over `stateManager` is made of: the block hashes it reads and its EVM's options. */
  private evmParts(stateManager: NativeStateManager) {
    installJumpAnalysisMemo(); // once per process; later calls only check
    const blockchain = {
      getBlock: async (n: number) => {
        const record = this.store.byNumberOrUndefined(BigInt(n));
        if (record !== undefined) return record.block;
        // BLOCKHASH of a block before a fork: the remote's hash (the opcode reads nothing else).
        if (this.fork !== undefined && BigInt(n) < this.store.first) return await this.fork.remoteBlockHashOnly(BigInt(n));
        throw new Error(`block ${n} not found`);
      },
      putBlock: async () => {},
      shallowCopy() {
        return this;
      },
    };
    const evmOptions = {
      common: this.common,
      stateManager,
      blockchain,
      bn254: new NobleBN254(),
      customPrecompiles: nativePrecompiles({ deprecated: this.options.deprecatedPrecompiles }),
      allowUnlimitedContractSize: this.options.allowUnlimitedContractSize,
    };
    return { blockchain, evmOptions };
  }

  /**
   * The EVM, whose events a chain with `evmEvents` (solidity-coverage's step events, Hardhat 2)
   * sends there: every VM the chain makes (the head's, past views', those after a reset) shares
   * one emitter of ethereumjs' own class, the first EVM's, and the listeners of `evmEvents`
   * listen on it (see evm-events.ts).
   */
  private emittingEvents<T extends NativeEVM>(evm: T): T {
    const front = this.options.evmEvents;
    if (front === undefined) return evm;
    if (this.sharedEvents === undefined) {
      this.sharedEvents = evm.events;
      mirrorListeners(front, evm.events);
    }
    // `events` is readonly in ethereumjs' types, assigned once in its constructor and only read after.
    else Object.assign(evm, { events: this.sharedEvents });
    return evm;
  }

  /**
   * Runs `work` while collecting console.log payloads, then prints them (as Hardhat's network
   * does). The work is a mined transaction or an eth_call, never a gas estimate: the executions
   * gas statistics measure, so a chain that records them (`executions`) records them here.
   */
  async withConsole<T>(work: () => Promise<T>): Promise<T> {
    const payloads: Uint8Array[] = [];
    const evm = this.evm;
    evm.consoleSink = (payload) => payloads.push(payload.slice());
    const executions = this.options.executions;
    executions?.begin();
    try {
      return await work();
    } finally {
      executions?.end();
      evm.consoleSink = undefined;
      for (const payload of payloads) {
        this.options.log(formatConsoleLog(payload) ?? `console.log payload with unknown selector: ${bytesToHex(payload)}`);
      }
    }
  }
}
