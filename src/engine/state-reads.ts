/**
 * Reads of the chain as of a block: which block a selector names, accounts, code, storage and
 * multi-coin balances at it, logs over a range, the block of an atomic transaction. Nothing
 * here writes; the head block reads the live state, older blocks a view of theirs.
 */
import { Account, bytesToUnprefixedHex, setLengthLeft, type Address } from "@ethereumjs/util";
import type { BlockRecord, LogRecord } from "./chain";
import type { ChainState } from "./chain-state";
import { UnknownBlockError } from "./errors";
import type { BlockSelector, LogFilter } from "./types";

export class StateReads {
  constructor(private readonly state: ChainState) {}

  /** The block a selector names; throws UnknownBlockError for a number or hash not on the chain. */
  resolveBlock(selector: BlockSelector): BlockRecord {
    const chain = this.state.chain;
    if (selector === "latest" || selector === "pending" || selector === "safe" || selector === "finalized") return chain.head;
    if (selector === "earliest") return chain.byNumberOrUndefined(chain.first)!;
    if (typeof selector === "bigint") {
      const record = chain.byNumberOrUndefined(selector);
      if (record === undefined) throw new UnknownBlockError(`block ${selector} is not known: the latest block is ${chain.height}`);
      return record;
    }
    const record = chain.byHashOrUndefined(selector.hash);
    if (record === undefined) throw new UnknownBlockError(`block with hash ${selector.hash} is not known`);
    return record;
  }

  /** The block at a height of the chain, if there is one. */
  blockAt(height: bigint): BlockRecord | undefined {
    return this.state.chain.byNumberOrUndefined(height);
  }

  /** The block that accepted an atomic transaction, if any. */
  atomicTransactionBlock(id: string): BlockRecord | undefined {
    const chain = this.state.chain;
    for (let n = chain.height; n >= 0n; n--) {
      const record = chain.byNumberOrUndefined(n)!;
      if (record.atomicTransactions.includes(id)) return record;
    }
    return undefined;
  }

  async getAccount(address: Address, record: BlockRecord): Promise<Account> {
    return (await this.state.stateAt(record).getAccount(address)) ?? new Account();
  }

  getCode(address: Address, record: BlockRecord): Promise<Uint8Array> {
    return this.state.stateAt(record).getCode(address);
  }

  async getStorageAt(address: Address, slot: Uint8Array, record: BlockRecord): Promise<Uint8Array> {
    const value = await this.state.stateAt(record).getStorage(address, setLengthLeft(slot, 32));
    return setLengthLeft(value, 32);
  }

  async getAssetBalance(address: Address, assetIdHex64: string, record: BlockRecord): Promise<bigint> {
    const live = this.state.stateManager;
    const addressHex = bytesToUnprefixedHex(address.bytes);
    await live.loadAssetBalance(addressHex, assetIdHex64);
    if (record === this.state.head) return live.getAssetBalance(address, assetIdHex64);
    return live.multiCoin.balanceIn(record.multiCoin, addressHex, assetIdHex64);
  }

  /**
   * The logs of the blocks `filter` spans that match its addresses and topics, in chain order;
   * at most `stopAfter` of them (the caller then knows there were more and refuses the query
   * without collecting the rest).
   */
  getLogs(filter: LogFilter, stopAfter: number = Number.POSITIVE_INFINITY): LogRecord[] {
    const out: LogRecord[] = [];
    // Only the blocks the log index names, when the query names addresses or topics.
    for (const record of this.state.chain.logBlocks(filter)) {
      for (const mined of record.transactions) {
        for (const log of mined.receipt.logs) {
          if (!logMatches(log, filter)) continue;
          out.push(log);
          if (out.length >= stopAfter) return out;
        }
      }
    }
    return out;
  }
}

/** The logs of one block that pass a filter (its bounds, address and topics), in log order. */
export function* logsOfBlock(record: BlockRecord, match: LogFilter): Iterable<LogRecord> {
  if (record.number < match.fromBlock || record.number > match.toBlock) return;
  for (const mined of record.transactions) {
    for (const log of mined.receipt.logs) if (logMatches(log, match)) yield log;
  }
}

/** Whether a log passes a filter's address and topics criteria (its block bounds are the caller's). */
export function logMatches(log: LogRecord, filter: LogFilter): boolean {
  if (filter.addresses.length > 0 && !filter.addresses.some((a) => bytesEqual(a, log.address))) return false;
  for (let i = 0; i < filter.topics.length; i++) {
    const wanted = filter.topics[i];
    if (wanted === undefined || wanted.length === 0) continue;
    const topic = log.topics[i];
    if (topic === undefined || !wanted.some((t) => bytesEqual(t, topic))) return false;
  }
  return true;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
