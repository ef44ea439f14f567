/**
 * The state of a fork: the local tries over the remote's state at the fork point. An account
 * the local trie has never seen is read from the remote once and written into the trie as it
 * was there (a "materialized" account); its storage trie then holds a marker entry, and a slot
 * missing from a marked storage trie is read from the remote. What the chain deletes is
 * remembered in the tries themselves, so that the remote's value does not show through again:
 * a deleted account becomes a tombstone account, a slot set to zero keeps an explicit zero.
 * Kept in the tries, these facts move with snapshots, reverts and past blocks' views for free.
 * Multi-coin balances read from the remote sit in a map shared by the live state and its views
 * (they can never change); local writes hide them (MultiCoinState's base).
 */
import { CODEHASH_PREFIX } from "@ethereumjs/statemanager";
import { RLP } from "@ethereumjs/rlp";
import { Account, bytesToHex, concatBytes, equalsBytes, hexToBytes, KECCAK256_NULL, KECCAK256_RLP, unpadBytes, type Address } from "@ethereumjs/util";
import { keccak256 } from "../keccak";
import { balanceKey, type BalanceKey } from "../multicoin";
import { NativeStateManager, type NativeStateManagerOpts } from "../state-manager";
import type { ForkSource } from "./fork-source";

/** Key of the marker entry (not 32 bytes long, so no storage slot can be stored under it). */
const REMOTE_STORAGE_MARKER = new TextEncoder().encode("nativekit:remote-storage");
/** An explicit zero in a storage trie (RLP of empty bytes): the slot was cleared here. */
const CLEARED_SLOT = RLP.encode(new Uint8Array(0));
/**
 * The code hash of a tombstone account: no code hashes to it. It is keccak256 of the text
 * "nativekit:deleted-account", written out so loading the engine hashes nothing (a test checks it).
 */
export const TOMBSTONE_CODE_HASH = hexToBytes("0xa712bef94445d8af20ad1042ed9c1421aef9f6c8d32ec84176f6f044168b10db");
const TOMBSTONE = new Account(0n, 0n, KECCAK256_RLP, TOMBSTONE_CODE_HASH);

export interface ForkedStateManagerOpts extends NativeStateManagerOpts {
  source: ForkSource;
  /** The remote's multi-coin balances read so far (shared with every view). */
  remoteAssetBalances?: Map<BalanceKey, bigint>;
  /** Balances the chain's configuration gives accounts over the remote's (shared with every view). */
  balancesOverRemote?: Map<string, bigint>;
}

export class ForkedStateManager extends NativeStateManager {
  private readonly source: ForkSource;
  private readonly remoteAssetBalances: Map<BalanceKey, bigint>;
  /** By lowercase address: see `setBalanceOverRemote`. */
  private readonly balancesOverRemote: Map<string, bigint>;
  /** The root of a storage trie holding only the marker, once written to the node database. */
  private markedRoot: Promise<Uint8Array> | undefined;

  constructor(opts: ForkedStateManagerOpts) {
    const remoteAssetBalances = opts.remoteAssetBalances ?? new Map<BalanceKey, bigint>();
    super({ ...opts, multiCoinBase: (key) => remoteAssetBalances.get(key) });
    this.source = opts.source;
    this.remoteAssetBalances = remoteAssetBalances;
    this.balancesOverRemote = opts.balancesOverRemote ?? new Map<string, bigint>();
  }

  /**
   * Gives `address` this balance over the remote's account (a funded development account), its
   * nonce, code and storage staying the remote's. It is applied when the account is first read,
   * so a fork does not ask the remote about every funded account at start, only about those used.
   */
  setBalanceOverRemote(address: Address, balance: bigint): void {
    this.balancesOverRemote.set(address.toString(), balance);
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    if (this._caches?.account?.get(address) === undefined && (await this._trie.get(address.bytes)) === null) {
      await this.materialize(address);
    }
    const account = await super.getAccount(address);
    return account !== undefined && equalsBytes(account.codeHash, TOMBSTONE_CODE_HASH) ? undefined : account;
  }

  /** Writes the remote's account into the trie (a tombstone when the remote has none). */
  private async materialize(address: Address): Promise<void> {
    const remote = await this.source.account(address.toString());
    const balance = this.balancesOverRemote.get(address.toString()) ?? remote.balance;
    if (balance === 0n && remote.nonce === 0n && remote.code.length === 0) {
      await this._trie.put(address.bytes, TOMBSTONE.serialize());
      return;
    }
    let codeHash = KECCAK256_NULL;
    if (remote.code.length > 0) {
      codeHash = keccak256(remote.code);
      await this._trie.database().put(this._prefixCodeHashes ? concatBytes(CODEHASH_PREFIX, codeHash) : codeHash, remote.code);
    }
    const account = new Account(remote.nonce, balance, await this.remoteStorageRoot(), codeHash);
    await this._trie.put(address.bytes, account.serialize());
  }

  private remoteStorageRoot(): Promise<Uint8Array> {
    this.markedRoot ??= (async () => {
      const trie = this._trie.shallowCopy(false);
      trie.root(trie.EMPTY_TRIE_ROOT);
      await trie.put(REMOTE_STORAGE_MARKER, REMOTE_STORAGE_MARKER);
      return trie.root();
    })();
    return this.markedRoot;
  }

  /** A deleted account becomes a tombstone, so the remote's account does not show through. */
  override async deleteAccount(address: Address): Promise<void> {
    await super.deleteAccount(address);
    await this.putAccount(address, TOMBSTONE);
  }

  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    if (this._caches?.storage?.get(address, key) === undefined) {
      const account = await this.getAccount(address);
      if (account !== undefined && !equalsBytes(account.storageRoot, KECCAK256_RLP)) {
        const trie = this._getStorageTrie(address, account);
        if ((await trie.get(key)) === null && (await trie.get(REMOTE_STORAGE_MARKER)) !== null) {
          const value = unpadBytes(await this.source.storage(address.toString(), bytesToHex(key)));
          // Kept in the storage cache, which writes it to the trie at the next flush.
          if (this._caches?.storage === undefined) return value;
          this._caches.storage.put(address, key, RLP.encode(value));
        }
      }
    }
    return super.getStorage(address, key);
  }

  /** A slot set to zero keeps an explicit zero instead of being removed (see the header). */
  protected override async _writeContractStorage(address: Address, account: Account, key: Uint8Array, value: Uint8Array): Promise<void> {
    if (value.length > 0) return super._writeContractStorage(address, account, key, value);
    await this._modifyContractStorage(address, account, async (storageTrie, done) => {
      await storageTrie.put(key, CLEARED_SLOT);
      done();
    });
  }

  override async loadAssetBalance(addressHex40: string, assetIdHex64: string): Promise<void> {
    const key = balanceKey(addressHex40, assetIdHex64);
    if (this.remoteAssetBalances.has(key)) return;
    const balance = await this.source.assetBalance(`0x${addressHex40}`, `0x${assetIdHex64}`);
    this.remoteAssetBalances.set(key, balance);
  }

  protected override makeView(opts: NativeStateManagerOpts): NativeStateManager {
    return new ForkedStateManager({ ...opts, source: this.source, remoteAssetBalances: this.remoteAssetBalances, balancesOverRemote: this.balancesOverRemote });
  }
}
