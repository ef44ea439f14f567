/**
 * anvil_dumpState and anvil_loadState: the state after the head block in anvil's format (hex of
 * gzipped JSON), and such a dump written back over the head state.
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
import { invalidParams } from "../../rpc/errors";
import { jsonNestingDepth } from "../../rpc/json-depth";
import type { Engine } from "../engine";
import { keccak256 } from "../keccak";
import { q } from "./format";
import * as p from "./params";
import type { EngineContext } from "./serve";

/**
 * Accounts and slots written through the API, per engine: a dump names them (the state keeps
 * addresses and slots only by their hashes). hardhat_set* note theirs here too.
 */
const written = new WeakMap<Engine, Map<string, Set<string>>>();

export function noteWritten(engine: Engine, address: Address, slot?: Uint8Array): void {
  let accounts = written.get(engine);
  if (accounts === undefined) written.set(engine, (accounts = new Map()));
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
export async function dumpState({ engine }: EngineContext): Promise<string> {
  const head = engine.head;
  const accounts: Record<string, DumpedAccount> = {};
  const slotsOf = written.get(engine) ?? new Map<string, Set<string>>();
  const names = await nameableAccounts(engine);
  const slotNames = nameableSlots(names);
  let unnamed = 0;
  for (const address of names) {
    const account = await engine.getAccount(address, head);
    const code = await engine.getCode(address, head);
    const storage: Record<string, string> = {};
    for (const slot of slotsOf.get(address.toString()) ?? []) slotNames.set(bytesToHex(keccak256(hexToBytes(slot as `0x${string}`))), slot);
    if (account.storageRoot !== undefined && !equalsBytes(account.storageRoot, KECCAK256_RLP)) {
      // The storage trie's keys are the slots' hashes; its values, RLP of the stripped words.
      for (const [hashed, encoded] of Object.entries(await engine.stateManager.dumpStorage(address))) {
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
  if (unnamed > 0) engine.options.log(`anvil_dumpState: ${unnamed} storage slot(s) could not be named (the state keeps slots by their hashes) and are not in the dump`);
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
async function nameableAccounts(engine: Engine): Promise<Address[]> {
  const names = new Set<string>();
  for (const address of engine.unlocked.keys()) names.add(address.toLowerCase());
  for (const address of written.get(engine)?.keys() ?? []) names.add(address);
  for (const record of engine.chain.range(engine.chain.first, engine.chain.height)) {
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
    const { nonce } = await engine.getAccount(address, engine.head);
    if ((await engine.getCode(address, engine.head)).length === 0) continue;
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
export async function loadState({ engine }: EngineContext, [data]: unknown[]): Promise<true> {
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
    if (account.balance !== undefined) await engine.setBalance(address, p.looseQuantity(account.balance, `${key}.balance`));
    if (account.nonce !== undefined) await engine.setNonce(address, p.looseQuantity(account.nonce, `${key}.nonce`));
    if (account.code !== undefined) await engine.setCode(address, p.data(account.code, `${key}.code`));
    noteWritten(engine, address);
    for (const [slotKey, value] of Object.entries(account.storage ?? {})) {
      const slot = p.slotBytes(p.looseQuantity(slotKey, `${key}.storage key`));
      await engine.setStorageAt(address, slot, p.data(value, `${key}.storage value`, 32));
      noteWritten(engine, address, slot);
    }
  }
  return true;
}
