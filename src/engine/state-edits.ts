/**
 * The test-only powers that write the head state directly (hardhat_setBalance, hardhat_setCode,
 * nativekit_setAssetBalance, ...). As on Hardhat's network, an edit applies to the head block's
 * state: reads at "latest" see it at once, and the next block builds on it.
 */
import { Account, setLengthLeft, type Address } from "@ethereumjs/util";
import type { ChainState } from "./chain-state";
import type { ChainPersistence } from "./persistence/chain-persistence";

export class StateEdits {
  constructor(
    private readonly state: ChainState,
    /** With a durable store, each edit is committed to it before it is answered. */
    private readonly persistence?: ChainPersistence,
  ) {}

  async setAssetBalance(address: Address, assetIdHex64: string, amount: bigint): Promise<void> {
    await this.state.stateManager.setAssetBalance(address, assetIdHex64, amount);
    await this.commit();
  }

  setBalance(address: Address, balance: bigint): Promise<void> {
    return this.editAccount(address, (account) => {
      account.balance = balance;
    });
  }

  setNonce(address: Address, nonce: bigint): Promise<void> {
    return this.editAccount(address, (account) => {
      account.nonce = nonce;
    });
  }

  async setCode(address: Address, code: Uint8Array): Promise<void> {
    await this.ensureAccount(address);
    await this.state.stateManager.putCode(address, code);
    await this.commit();
  }

  async setStorageAt(address: Address, slot: Uint8Array, value: Uint8Array): Promise<void> {
    await this.ensureAccount(address);
    await this.state.stateManager.putStorage(address, setLengthLeft(slot, 32), stripZeros(value));
    await this.commit();
  }

  /** Changes an account's fields (an absent account is created empty first). */
  private async editAccount(address: Address, edit: (account: Account) => void): Promise<void> {
    const stateManager = this.state.stateManager;
    const account = (await stateManager.getAccount(address)) ?? new Account();
    edit(account);
    await stateManager.putAccount(address, account);
    await this.commit();
  }

  /** Code and storage need an account to live in. */
  private async ensureAccount(address: Address): Promise<void> {
    const stateManager = this.state.stateManager;
    if ((await stateManager.getAccount(address)) === undefined) await stateManager.putAccount(address, new Account());
  }

  /** Makes the edit part of the head block's state (its trie and its multi-coin record). */
  private async commit(): Promise<void> {
    const stateManager = this.state.stateManager;
    await stateManager.flush();
    this.state.setHeadMultiCoin(stateManager.multiCoin.snapshot());
    await this.persistence?.saveHead();
  }
}

function stripZeros(value: Uint8Array): Uint8Array {
  let i = 0;
  while (i < value.length && value[i] === 0) i++;
  return value.subarray(i);
}
