/**
 * The anvil_ namespace: the test-only powers Foundry's anvil serves, under the names viem's test
 * client (`mode: "anvil"`) and `cast rpc` users call, with anvil's answers (null where anvil
 * answers null, numbers where it answers numbers). Most are the evm_/hardhat_ powers under
 * anvil's names; anvil's own are interval mining in seconds, a block timestamp interval, the
 * clock set outright, dropping every pending transaction, the node's information and metadata,
 * and the state dump (anvil's format: hex of gzipped JSON).
 *
 * WARNING: the state keeps addresses and storage slots only by their hashes, so a dump holds
 * what this node can name: the accounts of its keys, every sender, recipient, contract and log
 * emitter of the chain, the contracts those created, and every account written through this
 * API; of their storage, the slots written through this API, the first 1024 slots, and the
 * entries of mappings at slots 0-31 keyed by those accounts or by 0-255. A slot it cannot name
 * (a nested mapping's, a long array's) is left out, and the node's log says how many were.
 */
import { gunzipSync, gzipSync } from "node:zlib";
import { RLP } from "@ethereumjs/rlp";
import { Address, bigIntToBytes, bytesToHex, concatBytes, createAddressFromString, equalsBytes, generateAddress, hexToBytes, KECCAK256_RLP, setLengthLeft } from "@ethereumjs/util";
import { RpcApi, type RpcApiOptions } from "../../rpc/api";
import { invalidParams } from "../../rpc/errors";
import { jsonNestingDepth } from "../../rpc/json-depth";
import type { Engine } from "../engine";
import { InvalidInputError, UnavailableOperationError } from "../errors";
import { keccak256 } from "../keccak";
import type { Filters } from "./filters";
import { formatBlock, q } from "./format";
import { instanceId, mineBlocks, resetForking } from "./hardhat";
import * as p from "./params";
import type { SubscriptionHub } from "./subscriptions";
import { CLIENT_VERSION } from "./web3";

export function anvilApi(engine: Engine, options: RpcApiOptions, filters: Filters, subscriptions: SubscriptionHub): RpcApi {
  const e = engine;
  return (
    new RpcApi(options)
      // -- mining
      .positional("anvil_mine", [0, 2], (params) => anvilMine(e, params))
      .positional("anvil_mine_detailed", [0, 1], (params) => mineDetailed(e, params))
      .positional("evm_mine_detailed", [0, 1], (params) => mineDetailed(e, params))
      .positional("anvil_getAutomine", 0, () => e.automine)
      .positional("anvil_setAutomine", 1, (params) => setAutomine(e, params))
      .positional("anvil_setIntervalMining", 1, (params) => setIntervalMining(e, params))
      .positional("anvil_getIntervalMining", 0, () => getIntervalMining(e))
      // -- the pool
      .positional("anvil_dropTransaction", 1, (params) => dropTransaction(e, params))
      .positional("anvil_dropAllTransactions", 0, () => dropAllTransactions(e))
      .positional("anvil_removePoolTransactions", 1, (params) => removePoolTransactions(e, params))
      .positional("eth_sendUnsignedTransaction", 1, (params) => sendUnsignedTransaction(e, params, filters, subscriptions))
      // -- accounts and state
      .positional("anvil_impersonateAccount", 1, (params) => impersonateAccount(e, params))
      .positional("anvil_stopImpersonatingAccount", 1, (params) => stopImpersonatingAccount(e, params))
      .positional("anvil_setBalance", 2, (params) => setBalance(e, params))
      .positional("anvil_setNonce", 2, (params) => setNonce(e, params))
      .positional("evm_setAccountNonce", 2, (params) => setNonce(e, params))
      .positional("anvil_setCode", 2, (params) => setCode(e, params))
      .positional("anvil_setStorageAt", 3, (params) => setStorageAt(e, params))
      .positional("anvil_dumpState", [0, 1], () => dumpState(e))
      .positional("anvil_loadState", 1, (params) => loadState(e, params))
      .positional("anvil_reset", [0, 1], (params) => reset(e, params))
      // -- the next block and the clock
      .positional("anvil_setNextBlockBaseFeePerGas", 1, (params) => setNextBlockBaseFeePerGas(e, params))
      .positional("anvil_setCoinbase", 1, (params) => setCoinbase(e, params))
      .positional("anvil_setBlockGasLimit", 1, (params) => setBlockGasLimit(e, params))
      .positional("anvil_setMinGasPrice", 1, () => setMinGasPrice())
      .positional("anvil_increaseTime", 1, (params) => increaseTime(e, params))
      .positional("anvil_setNextBlockTimestamp", 1, (params) => setNextBlockTimestamp(e, params))
      .positional("anvil_setTime", 1, (params) => setTime(e, params))
      .positional("anvil_setBlockTimestampInterval", 1, (params) => setBlockTimestampInterval(e, params))
      .positional("anvil_removeBlockTimestampInterval", 0, () => e.clock.setBlockInterval(undefined))
      .positional("anvil_snapshot", 0, async () => q(await e.snapshot()))
      .positional("anvil_revert", 1, ([id]) => e.revertTo(Number(p.looseQuantity(id, "snapshotId"))))
      // -- the node
      .positional("anvil_setLoggingEnabled", 1, (params) => setLoggingEnabled(e, params))
      .positional("anvil_nodeInfo", 0, () => nodeInfo(e))
      .positional("anvil_metadata", 0, () => metadata(e))
      .positional("anvil_setChainId", 1, () => notServed("anvil_setChainId", "the chain ID is fixed when the network starts (the chainId option)"))
      .positional("anvil_setRpcUrl", 1, () => notServed("anvil_setRpcUrl", "a fork's remote changes with anvil_reset / hardhat_reset { forking: { jsonRpcUrl } }"))
      .positional("anvil_autoImpersonateAccount", 1, () =>
        notServed("anvil_autoImpersonateAccount", "impersonate each sender with anvil_impersonateAccount, or send with eth_sendUnsignedTransaction"),
      )
  );
}

// ---------------------------------------------------------------- mining

/** Mines `count` blocks (default 1), `interval` seconds apart (default 1). */
async function anvilMine(e: Engine, [count, interval]: unknown[]): Promise<null> {
  await mineBlocks(e, optionalQuantity(count, "blocks") ?? 1n, optionalQuantity(interval, "interval") ?? 1n);
  return null;
}

/** As evm_mine (a timestamp, or anvil's `{ timestamp?, blocks? }`), answering the mined blocks with their transactions. */
async function mineDetailed(e: Engine, [options]: unknown[]): Promise<Record<string, unknown>[]> {
  const { blocks, timestamp } = mineOptions(options);
  const mined: Record<string, unknown>[] = [];
  for (let i = 0n; i < blocks; i++) {
    const { record } = await e.mineBlock(i === 0n && timestamp !== undefined ? { timestamp } : {});
    mined.push(formatBlock(record, true));
  }
  return mined;
}

/** evm_mine's parameter as anvil reads it: absent, a timestamp, or `{ timestamp?, blocks? }`. */
export function mineOptions(value: unknown): { blocks: bigint; timestamp: bigint | undefined } {
  if (value === undefined || value === null) return { blocks: 1n, timestamp: undefined };
  if (typeof value !== "object" || Array.isArray(value)) return { blocks: 1n, timestamp: p.looseQuantity(value, "timestamp") };
  const { timestamp, blocks } = value as { timestamp?: unknown; blocks?: unknown };
  return { blocks: optionalQuantity(blocks, "blocks") ?? 1n, timestamp: optionalQuantity(timestamp, "timestamp") };
}

function setAutomine(e: Engine, [flag]: unknown[]): null {
  if (typeof flag !== "boolean") throw invalidParams("anvil_setAutomine expects true or false");
  e.setAutomine(flag);
  return null;
}

/** anvil's interval is in seconds (evm_setIntervalMining's, as on Hardhat's network, in milliseconds). */
function setIntervalMining(e: Engine, [seconds]: unknown[]): null {
  e.intervalMining.set(Number(p.looseQuantity(seconds, "interval")) * 1000);
  return null;
}

function getIntervalMining(e: Engine): number | number[] | null {
  const interval = e.intervalMining.current;
  if (typeof interval !== "number") return interval.map((ms) => ms / 1000);
  return interval === 0 ? null : interval / 1000;
}

// ---------------------------------------------------------------- the pool

/** Removes a pending transaction: its hash, or null if none is pending with it. */
function dropTransaction(e: Engine, [h]: unknown[]): string | null {
  const hash = p.hash(h, "transactionHash");
  return e.dropPendingTransaction(hash) ? hash : null;
}

function dropAllTransactions(e: Engine): null {
  for (const { hash } of [...e.pendingTransactions]) e.dropPendingTransaction(hash);
  return null;
}

function removePoolTransactions(e: Engine, [a]: unknown[]): null {
  const sender = p.address(a, "address");
  for (const pooled of [...e.pendingTransactions]) if (pooled.from.equals(sender)) e.dropPendingTransaction(pooled.hash);
  return null;
}

/** Sends from any address without its key or signature, as if it were impersonated for this one transaction. */
async function sendUnsignedTransaction(e: Engine, [t]: unknown[], filters: Filters, subscriptions: SubscriptionHub): Promise<string> {
  const request = p.transactionRequest(t);
  if (request.from === undefined) throw new InvalidInputError("eth_sendUnsignedTransaction needs a `from` address");
  const from = request.from;
  const wasImpersonated = e.stopImpersonating(from);
  e.impersonate(from);
  let pooled;
  try {
    pooled = await e.prepareTransaction(request);
  } finally {
    if (!wasImpersonated) e.stopImpersonating(from);
  }
  const hash = await e.submit(pooled);
  filters.notePending(hash);
  subscriptions.notePending(pooled);
  return hash;
}

// ---------------------------------------------------------------- accounts and state

function impersonateAccount(e: Engine, [a]: unknown[]): null {
  e.impersonate(p.address(a, "address"));
  return null;
}

function stopImpersonatingAccount(e: Engine, [a]: unknown[]): null {
  e.stopImpersonating(p.address(a, "address"));
  return null;
}

export async function setBalance(e: Engine, [a, b]: unknown[]): Promise<null> {
  const address = p.address(a, "address");
  await e.setBalance(address, p.looseQuantity(b, "balance"));
  noteWritten(e, address);
  return null;
}

export async function setNonce(e: Engine, [a, n]: unknown[]): Promise<null> {
  const address = p.address(a, "address");
  await e.setNonce(address, p.looseQuantity(n, "nonce"));
  noteWritten(e, address);
  return null;
}

export async function setCode(e: Engine, [a, c]: unknown[]): Promise<null> {
  const address = p.address(a, "address");
  await e.setCode(address, p.data(c, "code"));
  noteWritten(e, address);
  return null;
}

export async function setStorageAt(e: Engine, [a, s, v]: unknown[]): Promise<true> {
  const address = p.address(a, "address");
  const slot = p.slotBytes(p.looseQuantity(s, "slot"));
  await e.setStorageAt(address, slot, p.data(v, "value", 32));
  noteWritten(e, address, slot);
  return true;
}

/**
 * As hardhat_reset, but as anvil reads `{ forking: { jsonRpcUrl?, blockNumber? } }`: without a
 * URL (viem's `reset()` sends one without), a fork stays on its remote (at `blockNumber` if
 * given) and a chain without one starts afresh.
 */
async function reset(e: Engine, [options]: unknown[]): Promise<null> {
  const forking = typeof options === "object" && options !== null ? (options as { forking?: unknown }).forking : undefined;
  if (typeof forking === "object" && forking !== null && !Array.isArray(forking)) {
    const { jsonRpcUrl, url, blockNumber } = forking as Record<string, unknown>;
    if (jsonRpcUrl === undefined && url === undefined) {
      const remote = e.options.forking?.url;
      const block = optionalQuantity(blockNumber, "forking.blockNumber");
      await e.reset(e.fork === undefined || remote === undefined ? undefined : { url: remote, ...(block === undefined ? {} : { blockNumber: block }) });
      return null;
    }
  }
  await e.reset(resetForking(options));
  return null;
}

/**
 * Accounts and slots written through the API, per engine: a dump names them (the state keeps
 * addresses and slots only by their hashes). hardhat_set* note theirs here too.
 */
const written = new WeakMap<Engine, Map<string, Set<string>>>();

export function noteWritten(e: Engine, address: Address, slot?: Uint8Array): void {
  let accounts = written.get(e);
  if (accounts === undefined) written.set(e, (accounts = new Map()));
  const key = address.toString();
  let slots = accounts.get(key);
  if (slots === undefined) accounts.set(key, (slots = new Set()));
  if (slot !== undefined) slots.add(bytesToHex(slot));
}

/** One account of anvil's state dump. */
interface DumpedAccount {
  nonce: number;
  balance: string;
  code: string;
  storage: Record<string, string>;
}

/** The state after the head block in anvil's format: hex of gzipped JSON (see the module's WARNING). */
async function dumpState(e: Engine): Promise<string> {
  const head = e.head;
  const accounts: Record<string, DumpedAccount> = {};
  const slotsOf = written.get(e) ?? new Map<string, Set<string>>();
  const names = await nameableAccounts(e);
  const slotNames = nameableSlots(names);
  let unnamed = 0;
  for (const address of names) {
    const account = await e.getAccount(address, head);
    const code = await e.getCode(address, head);
    const storage: Record<string, string> = {};
    for (const slot of slotsOf.get(address.toString()) ?? []) slotNames.set(bytesToHex(keccak256(hexToBytes(slot as `0x${string}`))), slot);
    if (account.storageRoot !== undefined && !equalsBytes(account.storageRoot, KECCAK256_RLP)) {
      // The storage trie's keys are the slots' hashes; its values, RLP of the stripped words.
      for (const [hashed, encoded] of Object.entries(await e.stateManager.dumpStorage(address))) {
        const slot = slotNames.get(withPrefix(hashed));
        if (slot === undefined) {
          unnamed++;
          continue;
        }
        storage[slot] = bytesToHex(setLengthLeft(RLP.decode(hexToBytes(withPrefix(encoded))) as Uint8Array, 32));
      }
    }
    if (account.nonce === 0n && account.balance === 0n && code.length === 0 && Object.keys(storage).length === 0) continue;
    accounts[address.toString()] = { nonce: Number(account.nonce), balance: q(account.balance), code: bytesToHex(code), storage };
  }
  if (unnamed > 0) e.options.log(`anvil_dumpState: ${unnamed} storage slot(s) could not be named (the state keeps slots by their hashes) and are not in the dump`);
  const header = head.block.header;
  const state = {
    block: {
      number: q(header.number),
      beneficiary: header.coinbase.toString(),
      timestamp: q(header.timestamp),
      gas_limit: Number(header.gasLimit),
      basefee: Number(header.baseFeePerGas ?? 0n),
      difficulty: q(header.difficulty),
      prevrandao: bytesToHex(header.mixHash),
    },
    accounts,
    best_block_number: Number(head.number),
    blocks: [],
    transactions: [],
    historical_states: null,
  };
  return bytesToHex(gzipSync(JSON.stringify(state)));
}

/** Every account the node can name: its keys, the chain's senders, recipients, contracts and log emitters, those contracts' creations, and what the API wrote. */
async function nameableAccounts(e: Engine): Promise<Address[]> {
  const names = new Set<string>();
  for (const address of e.unlocked.keys()) names.add(address.toLowerCase());
  for (const address of written.get(e)?.keys() ?? []) names.add(address);
  for (const record of e.chain.range(e.chain.first, e.chain.height)) {
    names.add(record.block.header.coinbase.toString());
    for (const mined of record.transactions) {
      names.add(mined.from.toString());
      if (mined.tx.to !== undefined) names.add(mined.tx.to.toString());
      if (mined.receipt.contractAddress !== undefined) names.add(mined.receipt.contractAddress.toString());
      for (const log of mined.receipt.logs) names.add(bytesToHex(log.address));
    }
  }
  // Contracts created by contracts: a contract's nonce counts its creations (from 1).
  const queue = [...names];
  while (queue.length > 0) {
    const address = createAddressFromString(queue.pop()!);
    const { nonce } = await e.getAccount(address, e.head);
    if ((await e.getCode(address, e.head)).length === 0) continue;
    for (let n = 1n; n < nonce; n++) {
      const created = new Address(generateAddress(address.bytes, bigIntToBytes(n))).toString();
      if (!names.has(created)) {
        names.add(created);
        queue.push(created);
      }
    }
  }
  return [...names].map((name) => createAddressFromString(name));
}

/**
 * The slots a dump can name, by their hashes: the first 1024, and the entries of mappings at
 * slots 0-31 keyed by the nameable accounts or by 0-255 (Solidity's keccak(key . slot)).
 */
function nameableSlots(accounts: readonly Address[]): Map<string, string> {
  const names = new Map<string, string>();
  const word = (n: bigint) => setLengthLeft(bigIntToBytes(n), 32);
  const add = (slot: Uint8Array) => names.set(bytesToHex(keccak256(slot)), bytesToHex(slot));
  for (let n = 0n; n < 1024n; n++) add(word(n));
  const keys = [...accounts.map((a) => setLengthLeft(a.bytes, 32)), ...Array.from({ length: 256 }, (_, i) => word(BigInt(i)))];
  for (let m = 0n; m < 32n; m++) {
    const position = word(m);
    for (const key of keys) add(keccak256(concatBytes(key, position)));
  }
  return names;
}

function withPrefix(hex: string): `0x${string}` {
  return (hex.startsWith("0x") ? hex : `0x${hex}`) as `0x${string}`;
}

/**
 * The largest state anvil_loadState unzips, and the deepest nesting it parses: a few kilobytes
 * of gzip can unzip to gigabytes, and the request's own limits see only the zipped bytes.
 */
const MAX_STATE_BYTES = 64 * 1024 * 1024;
const MAX_STATE_DEPTH = 64;

/** Writes the accounts of a dump (anvil's format, gzipped or not) over the head state; blocks and transactions in it are not replayed. */
async function loadState(e: Engine, [data]: unknown[]): Promise<true> {
  const bytes = p.data(data, "state");
  let text: string;
  try {
    text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes, { maxOutputLength: MAX_STATE_BYTES }) : Buffer.from(bytes)).toString("utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      throw invalidParams(`anvil_loadState: the state is larger than ${MAX_STATE_BYTES / 1024 / 1024} MiB once unzipped, the most this node loads`);
    }
    throw invalidParams(`anvil_loadState: the state is not gzip data (${(error as Error).message})`);
  }
  if (jsonNestingDepth(text, MAX_STATE_DEPTH) > MAX_STATE_DEPTH) {
    throw invalidParams(`anvil_loadState: the state is nested more than ${MAX_STATE_DEPTH} levels deep; anvil_dumpState's output is not`);
  }
  let state: { accounts?: Record<string, Partial<DumpedAccount>> };
  try {
    state = JSON.parse(text) as typeof state;
  } catch {
    throw invalidParams("anvil_loadState: the state is not JSON: expected anvil_dumpState's output");
  }
  if (typeof state !== "object" || state === null || typeof state.accounts !== "object" || state.accounts === null) {
    throw invalidParams("anvil_loadState: expected an object with `accounts`, as anvil_dumpState gives");
  }
  for (const [key, account] of Object.entries(state.accounts)) {
    const address = p.address(key, "accounts key");
    if (account.balance !== undefined) await e.setBalance(address, p.looseQuantity(account.balance, `${key}.balance`));
    if (account.nonce !== undefined) await e.setNonce(address, p.looseQuantity(account.nonce, `${key}.nonce`));
    if (account.code !== undefined) await e.setCode(address, p.data(account.code, `${key}.code`));
    noteWritten(e, address);
    for (const [s, v] of Object.entries(account.storage ?? {})) {
      const slot = p.slotBytes(p.looseQuantity(s, `${key}.storage key`));
      await e.setStorageAt(address, slot, p.data(v, `${key}.storage value`, 32));
      noteWritten(e, address, slot);
    }
  }
  return true;
}

// ---------------------------------------------------------------- the next block and the clock

function setNextBlockBaseFeePerGas(e: Engine, [f]: unknown[]): null {
  e.setNextBlockBaseFee(p.looseQuantity(f, "baseFeePerGas"));
  return null;
}

function setCoinbase(e: Engine, [a]: unknown[]): null {
  e.setCoinbase(p.address(a, "address"));
  return null;
}

function setBlockGasLimit(e: Engine, [g]: unknown[]): true {
  e.setBlockGasLimit(p.looseQuantity(g, "gasLimit"));
  return true;
}

/** As anvil and Hardhat's network, where EIP-1559 is active (always, on the contract chain). */
function setMinGasPrice(): never {
  throw new InvalidInputError("anvil_setMinGasPrice is not supported when EIP-1559 is active");
}

/** Adds to the clock; answers the total offset in seconds, a number as anvil does. */
function increaseTime(e: Engine, [s]: unknown[]): number {
  return e.increaseTime(Number(p.looseQuantity(s, "seconds")));
}

function setNextBlockTimestamp(e: Engine, [t]: unknown[]): null {
  e.setNextBlockTimestamp(Number(p.looseQuantity(t, "timestamp")));
  return null;
}

/** Sets the clock to a time; answers its offset from the wall clock in seconds. */
function setTime(e: Engine, [t]: unknown[]): number {
  return e.clock.setTime(Number(p.looseQuantity(t, "timestamp")));
}

function setBlockTimestampInterval(e: Engine, [s]: unknown[]): null {
  e.clock.setBlockInterval(Number(p.looseQuantity(s, "interval")));
  return null;
}

// ---------------------------------------------------------------- the node

function setLoggingEnabled(e: Engine, [flag]: unknown[]): null {
  if (typeof flag !== "boolean") throw invalidParams("anvil_setLoggingEnabled expects true or false");
  e.loggingEnabled = flag;
  return null;
}

/** anvil's node information, with this network's values (nativekit's hardfork names are ethereumjs'). */
function nodeInfo(e: Engine): Record<string, unknown> {
  const head = e.head;
  const o = e.options;
  return {
    currentBlockNumber: q(head.number),
    currentBlockTimestamp: Number(head.block.header.timestamp),
    currentBlockHash: head.hash,
    hardFork: o.hardfork,
    transactionOrder: "fees",
    environment: { baseFee: q(e.nextBlockBaseFee()), chainId: o.chainId, gasLimit: q(o.blockGasLimit), gasPrice: q(e.nextBlockBaseFee()) },
    forkConfig: {
      forkUrl: e.fork === undefined ? null : (o.forking?.url ?? null),
      forkBlockNumber: e.fork === undefined ? null : Number(e.fork.point.number),
      forkRetryBackoff: null,
    },
  };
}

/** hardhat_metadata's fields with anvil's extras: the semantic version, and null for no fork. */
function metadata(e: Engine): Record<string, unknown> {
  return {
    clientVersion: CLIENT_VERSION,
    clientSemver: CLIENT_VERSION.slice(CLIENT_VERSION.lastIndexOf("/") + 1),
    chainId: e.options.chainId,
    instanceId: instanceId(e),
    latestBlockNumber: Number(e.chain.height),
    latestBlockHash: e.head.hash,
    forkedNetwork:
      e.fork === undefined ? null : { chainId: e.fork.chainId, forkBlockNumber: Number(e.fork.point.number), forkBlockHash: e.fork.point.hash },
  };
}

function notServed(method: string, instead: string): never {
  throw new UnavailableOperationError(`${method} is not supported by nativekit: ${instead}`);
}

// ---------------------------------------------------------------- parameters

function optionalQuantity(value: unknown, name: string): bigint | undefined {
  return value === undefined || value === null ? undefined : p.looseQuantity(value, name);
}
