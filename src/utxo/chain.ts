import type { AtomicElement } from "../atomic/element";
import type { SharedMemory } from "../atomic/shared-memory";
import { decodeCb58, encodeCb58, EncodingError, equalBytes, formatChainAddress, parseChainAddress } from "../encoding";
import { ChainDirectory } from "../network/chains";
import type { NetworkIdentifiers } from "../network/constants";
import { CodecError, decodeUtxo, MAX_MEMPOOL_TX_SIZE, type Utxo, utxoId } from "./codec";
import { IssueForwarding } from "./forwarding";
import { ownersOf, type StoredUtxo, storeUtxo, UtxoSet } from "./utxo-set";

/*
 * What the UTXO chains (the exchange chain and the platform chain) have in common, whatever
 * their transactions: a UTXO set, the network's chains by alias or ID and this chain's
 * addresses, the issue → accept → durable → announce cycle (or the hand-over to a producer),
 * acceptance listeners, and the atomic UTXOs shared memory holds for it. Each chain adds its
 * own state (assets; aliases and blocks) and its own rules in `issueTx`.
 */

/** One page of a UTXO listing and where it stopped. */
export interface UtxoPage {
  utxos: Utxo[];
  /** UTXO bytes, in the order of `utxos`. */
  bytes: Uint8Array[];
  lastAddress: Uint8Array;
  lastUtxoId: Uint8Array;
}

/** Where a listing starts (after this address and UTXO) and how long it may be. */
export interface UtxoPageOptions {
  startAddress?: Uint8Array;
  startUtxoId?: Uint8Array;
  limit?: number;
}

export interface UtxoChainIdentity {
  network: NetworkIdentifiers;
  chainId: Uint8Array;
  /** The letter its addresses start with: "X" or "P". */
  addressPrefix: string;
  sharedMemory: SharedMemory;
  /** Current time in Unix seconds (for locktimes). Default: the system clock. */
  clock?: () => bigint;
}

/** A chain's records in its durable store, as far as acceptance waits for them. */
export interface CommittedRecords {
  commit(): Promise<void>;
}

function systemClock(): bigint {
  return BigInt(Math.floor(Date.now() / 1000));
}

/** Replaces a map's entries with another's (state restored from a snapshot: the values are never edited in place). */
export function replaceEntries<K, V>(target: Map<K, V>, source: ReadonlyMap<K, V>): void {
  target.clear();
  for (const [key, value] of source) target.set(key, value);
}

/** The refusals every UTXO chain words alike, each chain with its own rejection error. */
export type CommonRejection = "malformed" | "too-large" | "already-accepted";

/** A UTXO chain: `Accepted` is what its listeners hear of (an accepted transaction, a block). */
export abstract class UtxoChain<Accepted> {
  readonly network: NetworkIdentifiers;
  readonly chainId: Uint8Array;
  readonly sharedMemory: SharedMemory;
  protected readonly utxos = new UtxoSet();
  /** The chain's records in its store, when it has one: `accept` answers once they are committed. */
  protected abstract records: CommittedRecords | undefined;
  private readonly clock: () => bigint;
  private readonly addressPrefix: string;
  /** The chains of the network and their aliases (src/network/chains): this one and those atomic transactions can name. */
  private readonly chains: ChainDirectory;
  private readonly forwarding = new IssueForwarding<Uint8Array>();
  private readonly listeners = new Set<(accepted: Accepted) => void>();

  protected constructor(identity: UtxoChainIdentity) {
    this.network = identity.network;
    this.chainId = identity.chainId;
    this.sharedMemory = identity.sharedMemory;
    this.addressPrefix = identity.addressPrefix;
    this.clock = identity.clock ?? systemClock;
    this.chains = new ChainDirectory(identity.network);
  }

  /**
   * Verifies signed transaction bytes against the chain's rules and state and accepts them at
   * once, or throws the chain's rejection and changes nothing. Returns the transaction ID.
   */
  abstract issueTx(bytes: Uint8Array): Uint8Array;

  /** What the acceptance of transaction `id` made, as listeners hear of it. */
  protected abstract acceptedOf(id: Uint8Array): Accepted;

  /** The chain's rejection error for a refusal every UTXO chain words alike. */
  protected abstract rejection(rule: CommonRejection, nodeMessage: string, detail: string): Error;

  // --- the checks every chain's issueTx makes ---------------------------------------------

  /** `parse(bytes)`; bytes that do not decode are refused as the reference node words it ("couldn't unmarshal tx: …"). */
  protected parseOrReject<T>(bytes: Uint8Array, parse: (bytes: Uint8Array) => T): T {
    try {
      return parse(bytes);
    } catch (error) {
      if (error instanceof CodecError) throw this.rejection("malformed", "couldn't unmarshal tx", error.message);
      throw error;
    }
  }

  /** Refuses a transaction already accepted, in the reference mempool's words ("duplicate tx: <txID>"). */
  protected rejectAccepted(txId: Uint8Array, accepted: boolean): void {
    if (accepted) throw this.rejection("already-accepted", "duplicate tx", encodeCb58(txId));
  }

  /** Refuses a transaction above the mempool's limit, in the reference mempool's words ("tx too large: <txID> size (n) > max size (m)"). */
  protected rejectTooLarge(txId: Uint8Array, size: number): void {
    if (size > MAX_MEMPOOL_TX_SIZE) throw this.rejection("too-large", "tx too large", `${encodeCb58(txId)} size (${size}) > max size (${MAX_MEMPOOL_TX_SIZE})`);
  }

  // --- time, chains and addresses -------------------------------------------------------

  /** The chain's current time, Unix seconds. */
  now(): bigint {
    return this.clock();
  }

  /** "X-" (or "P-") + bech32(hrp, short ID). */
  formatAddress(shortId: Uint8Array): string {
    return formatChainAddress(shortId, this.network.hrp, this.addressPrefix);
  }

  /**
   * Short ID of an address of this chain ("X-<hrp>1…", or with the chain's cb58 ID as
   * prefix). Throws an EncodingError or a RangeError in the reference node's words (its
   * address manager's ParseLocalAddress).
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

  /** A chain of the network by alias ("X", "C", "P", …) or cb58 ID; throws RangeError for an unknown one. */
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

  // --- issue, accept, announce ----------------------------------------------------------

  /** Called with what each acceptance after genesis made. Returns an unsubscribe function. */
  onAccept(listener: (accepted: Accepted) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  protected announce(accepted: Accepted): void {
    for (const listener of this.listeners) listener(accepted);
  }

  /** For `issueTx`: without a store, listeners hear of an acceptance at once; with one, once `accept` has made it durable. */
  protected announceUnlessStored(accepted: Accepted): void {
    if (this.records === undefined) this.announce(accepted);
  }

  /**
   * Issues signed transaction bytes: accepted here (see `accept`), or, on a node following
   * another (see `forwardIssuesTo`), handed to the producer, whose answer this is; the
   * transaction then reaches this chain as the producer's accepted container.
   */
  async issue(bytes: Uint8Array): Promise<Uint8Array> {
    const submit = this.forwarding.submit;
    return submit === undefined ? this.accept(bytes) : submit(bytes);
  }

  /** From now on `issue` hands every transaction to `submit` (a follower's link to its producer). */
  forwardIssuesTo(submit: (bytes: Uint8Array) => Promise<Uint8Array>): void {
    this.forwarding.forwardTo(submit);
  }

  /**
   * `issueTx`, then the commit that makes the acceptance durable (with a store): resolves once a
   * restart would find the transaction, so it is what an API answers from. A store that cannot
   * write throws its error (the chain then accepts nothing more).
   */
  async accept(bytes: Uint8Array): Promise<Uint8Array> {
    const id = this.issueTx(bytes);
    if (this.records !== undefined) {
      await this.records.commit();
      this.announce(this.acceptedOf(id));
    }
    return id;
  }

  // --- shared memory ----------------------------------------------------------------------

  /** An atomic UTXO waiting here from `sourceChain` (a peer chain), for an import's verification. */
  protected atomicUtxo(sourceChain: Uint8Array, inputId: Uint8Array): Uint8Array | undefined {
    return this.isPeerChain(sourceChain) && this.sharedMemory.has(this.chainId, sourceChain, inputId) ? this.sharedMemory.get(this.chainId, sourceChain, [inputId])[0] : undefined;
  }

  /** An import's effect on shared memory: the UTXOs it spends leave this chain's inbox from `sourceChain`. */
  protected removeImported(sourceChain: Uint8Array, imported: readonly { txId: Uint8Array; outputIndex: number }[]): void {
    this.sharedMemory.apply(this.chainId, [[sourceChain, { remove: imported.map((i) => utxoId(i.txId, i.outputIndex)) }]]);
  }

  /** An export's effect on shared memory: its UTXOs enter `destinationChain`'s inbox, indexed by their owners. */
  protected putExported(destinationChain: Uint8Array, exported: readonly Utxo[]): void {
    const put: AtomicElement[] = exported.map((utxo) => {
      const stored = storeUtxo(utxo);
      return { key: stored.inputId, value: stored.bytes, traits: ownersOf(utxo.output) };
    });
    this.sharedMemory.apply(this.chainId, [[destinationChain, { put }]]);
  }

  // --- UTXOs ----------------------------------------------------------------------------

  /** A UTXO of this chain by input ID. */
  getUtxo(inputId: Uint8Array): StoredUtxo | undefined {
    return this.utxos.get(inputId);
  }

  /**
   * The node's paginated UTXO listing: UTXOs naming any of `addresses` (addresses in byte
   * order, each one's UTXOs newest first), resuming after (startAddress, startUtxoId).
   */
  getUtxos(addresses: Uint8Array[], options: UtxoPageOptions = {}): UtxoPage {
    const page = this.utxos.page(addresses, options.startAddress, options.startUtxoId, options.limit ?? Number.MAX_SAFE_INTEGER);
    return { utxos: page.utxos.map((s) => s.utxo), bytes: page.utxos.map((s) => s.bytes), lastAddress: page.lastAddress, lastUtxoId: page.lastUtxo };
  }

  /** Every UTXO naming any of `addresses`, in the node's order. */
  getAllUtxos(addresses: Uint8Array[]): StoredUtxo[] {
    return this.utxos.page(addresses, undefined, undefined, Number.MAX_SAFE_INTEGER).utxos;
  }

  /** Atomic UTXOs exported to this chain from `sourceChain`, owned by any of `addresses` (shared memory's order). */
  getAtomicUtxos(sourceChain: Uint8Array, addresses: Uint8Array[], options: UtxoPageOptions = {}): UtxoPage {
    const page = this.sharedMemory.indexed(this.chainId, sourceChain, addresses, options.startAddress, options.startUtxoId, options.limit ?? Number.MAX_SAFE_INTEGER);
    return {
      utxos: page.values.map((b) => decodeUtxo(b)),
      bytes: page.values,
      lastAddress: page.lastTrait ?? new Uint8Array(20),
      lastUtxoId: page.lastKey ?? new Uint8Array(32),
    };
  }
}
