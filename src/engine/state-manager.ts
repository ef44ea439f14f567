import { Caches, MerkleStateManager, type MerkleStateManagerOpts } from "@ethereumjs/statemanager";
import { RLP } from "@ethereumjs/rlp";
import { Account, type Address, bytesToUnprefixedHex, createAccountFromRLP, EthereumJSErrorWithoutCode, unpadBytes } from "@ethereumjs/util";
import { GenerationalMemo } from "./generational-memo";
import { MultiCoinState, type BalanceKey, type MultiCoinSnapshot } from "./multicoin";

export interface NativeStateManagerOpts extends MerkleStateManagerOpts {
  multiCoin?: MultiCoinSnapshot;
  /** Balances never set here come from this lookup (a fork's remote balances; see loadAssetBalance). */
  multiCoinBase?: (key: BalanceKey) => bigint | undefined;
}

/**
 * The EVM state plus multi-coin balances, checkpointed together: the EVM's journal calls
 * checkpoint/commit/revert here once per call frame, so an asset transfer is undone with the
 * frame that made it, exactly like a storage write.
 */
export class NativeStateManager extends MerkleStateManager {
  /** The multi-coin balances (a view moved to another block gets that block's: `moveTo`). */
  multiCoin: MultiCoinState;
  private readonly multiCoinBase: NativeStateManagerOpts["multiCoinBase"];
  /** Accounts decoded from the account cache's RLP, keyed by that RLP (a fresh array on every put). */
  private readonly decodedAccounts = new GenerationalMemo<Uint8Array, Account>(1024);

  constructor(opts: NativeStateManagerOpts = {}) {
    super(opts);
    this.multiCoinBase = opts.multiCoinBase;
    this.multiCoin = new MultiCoinState(opts.multiCoin, opts.multiCoinBase);
  }

  /**
   * A multi-coin account is never "empty" (reference node: `empty()` is false when the
   * multi-coin flag is set), so EIP-161 cleanup keeps it and CALL charges no new-account gas.
   * A cached account is decoded once per version (decodeAccount).
   */
  override async getAccount(address: Address): Promise<Account | undefined> {
    const cached = this._caches?.account?.get(address);
    const account = cached === undefined ? await super.getAccount(address) : cached.accountRLP && this.decodeAccount(cached.accountRLP);
    if (account !== undefined && this.multiCoin.anyFlagged && this.multiCoin.isFlagged(bytesToUnprefixedHex(address.bytes))) {
      account.isEmpty = notEmpty;
    }
    return account;
  }

  /**
   * The account cache holds RLP, which ethereumjs decodes on every read, several times per
   * transaction for the same account; each RLP is decoded once here, and callers get a copy
   * because they edit what they get.
   */
  private decodeAccount(rlp: Uint8Array): Account {
    let decoded = this.decodedAccounts.get(rlp);
    if (decoded === undefined) {
      decoded = createAccountFromRLP(rlp);
      this.decodedAccounts.set(rlp, decoded);
    }
    return new Account(decoded.nonce, decoded.balance, decoded.storageRoot, decoded.codeHash);
  }

  /**
   * As ethereumjs' own, but a write goes to the storage cache only. ethereumjs means to do the
   * same (`cache.put(...) ?? writeToTrie(...)`), but `put` returns nothing, so every SSTORE also
   * updates and rehashes the storage trie at once, and the flush at the end of the block writes
   * the same slots again. The flush alone gives the same trie: it writes the final value of every
   * slot changed since the previous flush.
   */
  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const cache = this._caches?.storage;
    if (cache === undefined) return super.putStorage(address, key, value);
    if (key.length !== 32) throw EthereumJSErrorWithoutCode("Storage key must be 32 bytes long");
    if (value.length > 32) throw EthereumJSErrorWithoutCode("Storage value cannot be longer than 32 bytes");
    if ((await this.getAccount(address)) === undefined) {
      throw EthereumJSErrorWithoutCode("putStorage() called on non-existing account");
    }
    cache.put(address, key, RLP.encode(unpadBytes(value)));
  }

  /** Self-destruct removes the account's multi-coin balances with it. */
  override async deleteAccount(address: Address): Promise<void> {
    this.multiCoin.destroy(bytesToUnprefixedHex(address.bytes));
    await super.deleteAccount(address);
  }

  override async checkpoint(): Promise<void> {
    await super.checkpoint();
    this.multiCoin.checkpoint();
  }

  override async commit(): Promise<void> {
    await super.commit();
    this.multiCoin.commit();
  }

  override async revert(): Promise<void> {
    await super.revert();
    this.multiCoin.revert();
  }

  /**
   * Makes a balance readable synchronously before it is read: a no-op here; a fork's state
   * fetches the remote's balance (the precompiles and the API call it first).
   */
  async loadAssetBalance(_addressHex40: string, _assetIdHex64: string): Promise<void> {}

  getAssetBalance(address: Address, assetIdHex64: string): bigint {
    return this.multiCoin.getBalance(bytesToUnprefixedHex(address.bytes), assetIdHex64);
  }

  /**
   * Sets a balance; like the reference node, a non-zero change flags the account multi-coin
   * and brings it into existence.
   */
  async setAssetBalance(address: Address, assetIdHex64: string, amount: bigint): Promise<void> {
    if ((await this.getAccount(address)) === undefined) await this.putAccount(address, new Account());
    this.multiCoin.setBalance(bytesToUnprefixedHex(address.bytes), assetIdHex64, amount);
  }

  /** The state manager of a view (a fork's makes one that reads through to the remote too). */
  protected makeView(opts: NativeStateManagerOpts): NativeStateManager {
    return new NativeStateManager(opts);
  }

  /**
   * A read-only view of this state at another root and multi-coin snapshot (past blocks). It has
   * caches of its own: a view is kept for repeated calls on the same block (ChainState), and
   * without them every read would walk and decode the trie again.
   */
  viewAt(stateRoot: Uint8Array, multiCoin: MultiCoinSnapshot): NativeStateManager {
    const view = this.makeView({ trie: this._trie.shallowCopy(false), common: this.common, multiCoin, caches: new Caches() });
    // The copied trie shares the node database, so every committed root stays readable.
    view._trie.root(stateRoot);
    return view;
  }

  /**
   * Moves a view (viewAt) to another committed root and multi-coin snapshot, emptying its
   * caches, so the VM made over it serves another past block (ChainState). Only between
   * operations: a view then holds nothing unwritten, since every call on it is reverted.
   */
  moveTo(stateRoot: Uint8Array, multiCoin: MultiCoinSnapshot): void {
    this._trie.root(stateRoot);
    this._caches?.clear();
    this._storageTries = {};
    this.multiCoin = new MultiCoinState(multiCoin, this.multiCoinBase);
  }
}

function notEmpty(): boolean {
  return false;
}
