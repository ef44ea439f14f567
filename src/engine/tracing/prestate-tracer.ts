/**
 * geth's prestateTracer: the accounts a transaction touched, as they were before it ran
 * (balance, nonce, code, and the storage slots it read or wrote). The sender, the recipient and
 * the block's fee recipient are always touched; so is every account an instruction names
 * (BALANCE, EXTCODE*, the CALL family, SELFDESTRUCT), every contract created, and, for
 * nativeAssetCall, the account it sends to. With `diffMode` the answer is `{pre, post}`: only the
 * accounts the transaction changed, `pre` with the fields and slots as they were, `post` with
 * those that changed, as they became (a slot set to zero is left out of `post`).
 *
 * Multi-coin balances are not part of geth's account shape and are not shown.
 */
import type { EVMResult, InterpreterStep, Message } from "@ethereumjs/evm";
import { Address, bigIntToBytes, bytesToHex, bytesToUnprefixedHex, createAddressFromBigInt, createContractAddress, createContractAddress2, equalsBytes, hexToBytes, setLengthLeft } from "@ethereumjs/util";
import { NATIVE_ASSET_CALL } from "../precompiles";
import type { NativeStateManager } from "../state-manager";
import { hexQuantity, lowerAddress, memorySlice, word64 } from "./hex";
import type { TracedOutcome, TracedTransaction, TxTracer } from "./tracer";

export interface PrestateTracerOptions {
  diffMode: boolean;
}

/** One account as geth writes it. */
export interface PrestateAccount {
  balance?: string;
  nonce?: number;
  code?: string;
  storage?: Record<string, string>;
}

interface Seen {
  address: Address;
  balance: bigint;
  nonce: bigint;
  code: Uint8Array;
  /** Slot (0x + 64 hex) to its value before the transaction (0x + 64 hex). */
  storage: Map<string, string>;
}

const ADDRESS_AT_TOP = new Set([0x31, 0x3b, 0x3c, 0x3f, 0xff]);
const CALL_FAMILY = new Set([0xf1, 0xf2, 0xf4, 0xfa]);
const SLOAD = 0x54;
const SSTORE = 0x55;
const CREATE = 0xf0;
const CREATE2 = 0xf5;

export class PrestateTracer implements TxTracer {
  private readonly seen = new Map<string, Seen>();
  private readonly created = new Set<string>();
  private state: NativeStateManager | undefined;

  constructor(private readonly options: PrestateTracerOptions) {}

  async start(tx: TracedTransaction, state: NativeStateManager): Promise<void> {
    this.state = state;
    await this.lookup(tx.from);
    if (tx.to !== undefined) await this.lookup(tx.to);
    else {
      const nonce = (await state.getAccount(tx.from))?.nonce ?? 0n;
      const created = createContractAddress(tx.from, nonce);
      await this.lookup(created);
      this.created.add(key(created));
    }
    await this.lookup(tx.coinbase);
  }

  async stepAsync(step: InterpreterStep): Promise<void> {
    const code = step.opcode.code;
    const stack = step.stack;
    const n = stack.length;
    if (code === SLOAD || code === SSTORE) {
      if (n >= 1) await this.lookupSlot(step.address, stack[n - 1]!);
    } else if (ADDRESS_AT_TOP.has(code)) {
      if (n >= 1) await this.lookup(createAddressFromBigInt(stack[n - 1]! & ADDRESS_MASK));
    } else if (CALL_FAMILY.has(code)) {
      if (n >= 2) await this.lookup(createAddressFromBigInt(stack[n - 2]! & ADDRESS_MASK));
    } else if (code === CREATE && n >= 3) {
      const nonce = (await step.stateManager.getAccount(step.address))?.nonce ?? 0n;
      await this.noteCreated(createContractAddress(step.address, nonce));
    } else if (code === CREATE2 && n >= 4) {
      const initCode = memorySlice(step.memory, stack[n - 2]!, stack[n - 3]!);
      const salt = setLengthLeft(bigIntToBytes(stack[n - 4]!), 32);
      await this.noteCreated(createContractAddress2(step.address, salt, initCode));
    }
  }

  /** nativeAssetCall's target is touched before the precompile runs (it may create it). */
  async enter(message: Message): Promise<void> {
    if (message.to !== undefined && message.to.equals(NATIVE_ASSET_CALL) && message.data.length >= 20) {
      await this.lookup(new Address(message.data.slice(0, 20)));
    }
  }

  exit(_result: EVMResult): void {}

  async finish(_outcome: TracedOutcome, after: NativeStateManager): Promise<unknown> {
    if (this.options.diffMode) return this.diff(after);
    const pre: Record<string, PrestateAccount> = {};
    for (const [address, seen] of this.seen) {
      // A contract the transaction created did not exist before it.
      if (this.created.has(address) && isEmpty(seen)) continue;
      pre[address] = format(seen, true);
    }
    return pre;
  }

  private async diff(after: NativeStateManager): Promise<{ pre: Record<string, PrestateAccount>; post: Record<string, PrestateAccount> }> {
    const pre: Record<string, PrestateAccount> = {};
    const post: Record<string, PrestateAccount> = {};
    for (const [address, seen] of this.seen) {
      const account = await after.getAccount(seen.address);
      if (account === undefined) {
        // Gone (self-destructed): its state before stays in `pre`, nothing in `post`.
        if (!isEmpty(seen)) pre[address] = format(seen, true);
        continue;
      }
      const changed: PrestateAccount = {};
      let modified = false;
      if (account.balance !== seen.balance) {
        changed.balance = hexQuantity(account.balance);
        modified = true;
      }
      if (account.nonce !== seen.nonce) {
        changed.nonce = Number(account.nonce);
        modified = true;
      }
      const code = await after.getCode(seen.address);
      if (!equalsBytes(code, seen.code)) {
        changed.code = bytesToHex(code);
        modified = true;
      }
      const before = new Map<string, string>();
      const storage: Record<string, string> = {};
      for (const [slot, value] of seen.storage) {
        const now = slotValue(await after.getStorage(seen.address, hexToBytes32(slot)));
        if (now === value) continue;
        modified = true;
        if (value !== ZERO_WORD) before.set(slot, value);
        if (now !== ZERO_WORD) storage[slot] = now;
      }
      if (Object.keys(storage).length > 0) changed.storage = storage;
      if (!modified) continue;
      post[address] = changed;
      if (!(this.created.has(address) && isEmpty(seen))) pre[address] = format({ ...seen, storage: before }, true);
    }
    return { pre, post };
  }

  private async noteCreated(address: Address): Promise<void> {
    await this.lookup(address);
    this.created.add(key(address));
  }

  private async lookup(address: Address): Promise<Seen> {
    const k = key(address);
    let seen = this.seen.get(k);
    if (seen !== undefined) return seen;
    const state = this.state!;
    const account = await state.getAccount(address);
    seen = {
      address,
      balance: account?.balance ?? 0n,
      nonce: account?.nonce ?? 0n,
      code: account === undefined ? new Uint8Array(0) : await state.getCode(address),
      storage: new Map(),
    };
    this.seen.set(k, seen);
    return seen;
  }

  private async lookupSlot(address: Address, slot: bigint): Promise<void> {
    const seen = await this.lookup(address);
    const slotKey = `0x${word64(slot)}`;
    if (seen.storage.has(slotKey)) return;
    const value = await this.state!.getStorage(address, hexToBytes32(slotKey));
    seen.storage.set(slotKey, slotValue(value));
  }
}

const ADDRESS_MASK = (1n << 160n) - 1n;
const ZERO_WORD = `0x${"0".repeat(64)}`;

function format(seen: Seen, withStorage: boolean): PrestateAccount {
  const out: PrestateAccount = { balance: hexQuantity(seen.balance) };
  if (seen.nonce > 0n) out.nonce = Number(seen.nonce);
  if (seen.code.length > 0) out.code = bytesToHex(seen.code);
  if (withStorage && seen.storage.size > 0) out.storage = Object.fromEntries(seen.storage);
  return out;
}

function isEmpty(seen: Seen): boolean {
  return seen.balance === 0n && seen.nonce === 0n && seen.code.length === 0;
}

function key(address: Address): string {
  return lowerAddress(address);
}

function slotValue(value: Uint8Array): string {
  return `0x${bytesToUnprefixedHex(setLengthLeft(value, 32))}`;
}

function hexToBytes32(slot: string): Uint8Array {
  return hexToBytes(slot as `0x${string}`);
}



