import { bytesToHex, hexToBytes } from "@ethereumjs/util";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { Signature, TypedDataEncoder, Wallet, hashMessage } from "ethers";
import type { BlockRecord, LogRecord } from "./chain";
import type { Engine, LogFilter } from "./engine";
import { RpcError, RpcErrorCode, methodNotFound } from "../rpc/errors";
import { formatBlock, formatLog, formatMinedTransaction, formatReceipt, formatTransaction, hex, q } from "./format";
import * as p from "./params";
import { revertError } from "./revert";

type Handler = (params: unknown) => Promise<unknown> | unknown;

// Starts with "HardhatNetwork" on purpose: Hardhat's network helpers accept only development
// networks that say so (as they accept anvil), and the engine answers every method they call.
const CLIENT_VERSION = "HardhatNetwork/nativekit/0.1.0";

/**
 * An installed filter. Like geth's filter system, a filter collects what arrives after it was
 * installed (mined blocks, their matching logs, pooled transactions) until the next poll, so a
 * poll reports every block since the last one, also across evm_revert.
 */
type Filter = (
  | { kind: "logs"; match: LogFilter; fromBlock?: bigint; toBlock?: bigint; logs: LogRecord[] }
  | { kind: "blocks"; hashes: string[] }
  | { kind: "pending"; hashes: string[] }
) & { lastPolled?: number };

/** Like geth, a filter nobody polls for this long is dropped (and stops collecting). */
const FILTER_TIMEOUT_MS = 5 * 60 * 1000;

const HEAD_TAGS = new Set(["latest", "pending", "safe", "finalized"]);

/**
 * The JSON-RPC method table over an Engine: parameter parsing, result formatting and the
 * standard error shapes. Every handler runs serialized on the engine.
 */
export class RpcMethods {
  private readonly handlers = new Map<string, Handler>();
  private readonly filters = new Map<string, Filter>();
  private nextFilterId = 1;

  constructor(private readonly engine: Engine) {
    this.register();
    engine.onBlock((record) => this.noteBlock(record));
  }

  has(method: string): boolean {
    return this.handlers.has(method);
  }

  get methods(): string[] {
    return [...this.handlers.keys()].sort();
  }

  async handle(method: string, params: unknown): Promise<unknown> {
    if (typeof method !== "string") throw new RpcError(RpcErrorCode.InvalidRequest, "the method must be a string");
    const handler = this.handlers.get(method);
    if (handler === undefined) throw methodNotFound(method);
    return this.engine.serialize(async () => handler(params));
  }

  private on(method: string, min: number, max: number, fn: (args: unknown[]) => Promise<unknown> | unknown): void {
    this.handlers.set(method, (params) => fn(p.asArray(params, method, min, max)));
  }

  private register(): void {
    const e = this.engine;
    const o = e.options;

    // -- identity and network
    this.on("web3_clientVersion", 0, 0, () => CLIENT_VERSION);
    this.on("web3_sha3", 1, 1, ([d]) => hex(keccak_256(p.data(d, "data"))));
    this.on("net_version", 0, 0, () => String(o.networkId));
    this.on("net_listening", 0, 0, () => true);
    this.on("net_peerCount", 0, 0, () => "0x0");
    this.on("eth_chainId", 0, 0, () => q(o.chainId));
    this.on("eth_protocolVersion", 0, 0, () => "0x41");
    this.on("eth_syncing", 0, 0, () => false);
    this.on("eth_mining", 0, 0, () => e.automine);
    this.on("eth_hashrate", 0, 0, () => "0x0");
    this.on("eth_coinbase", 0, 0, () => o.coinbase.toLowerCase());
    this.on("eth_accounts", 0, 0, () => [...e.unlocked.keys()]);
    this.on("eth_requestAccounts", 0, 0, () => [...e.unlocked.keys()]);

    // -- fees
    this.on("eth_gasPrice", 0, 0, () => q(e.nextBlockBaseFee()));
    this.on("eth_baseFee", 0, 0, () => q(e.nextBlockBaseFee()));
    this.on("eth_maxPriorityFeePerGas", 0, 0, () => "0x0");
    this.on("eth_feeHistory", 2, 3, ([count, newest, percentiles]) => this.feeHistory(count, newest, percentiles));

    // -- state
    this.on("eth_blockNumber", 0, 0, () => q(e.chain.height));
    this.on("eth_getBalance", 1, 2, async ([a, b]) =>
      q((await e.getAccount(p.address(a, "address"), e.resolveBlock(p.blockSelector(b)))).balance),
    );
    this.on("eth_getTransactionCount", 1, 2, async ([a, b]) => {
      const address = p.address(a, "address");
      if (b === "pending") return q(await e.pendingNonce(address));
      return q((await e.getAccount(address, e.resolveBlock(p.blockSelector(b)))).nonce);
    });
    this.on("eth_getCode", 1, 2, async ([a, b]) => hex(await e.getCode(p.address(a, "address"), e.resolveBlock(p.blockSelector(b)))));
    this.on("eth_getStorageAt", 2, 3, async ([a, s, b]) => {
      const slot = p.looseQuantity(s, "slot");
      if (slot >= 1n << 256n) throw new RpcError(RpcErrorCode.InvalidParams, "slot must fit in 32 bytes");
      const slotBytes = hexToBytes(("0x" + slot.toString(16).padStart(64, "0")) as `0x${string}`);
      return hex(await e.getStorageAt(p.address(a, "address"), slotBytes, e.resolveBlock(p.blockSelector(b))));
    });
    this.on("eth_getAssetBalance", 3, 3, ([a, b, id]) =>
      q(e.getAssetBalance(p.address(a, "address"), p.parseAssetIdHex(id, "assetID"), e.resolveBlock(p.blockSelector(b)))),
    );

    // -- blocks
    this.on("eth_getBlockByNumber", 1, 2, ([b, full]) =>
      this.blockOrNull(() => e.resolveBlock(p.blockSelector(b)), p.optionalBoolean(full, "fullTransactions")),
    );
    this.on("eth_getBlockByHash", 1, 2, ([h, full]) =>
      this.blockOrNull(() => e.resolveBlock({ hash: p.hash(h, "blockHash") }), p.optionalBoolean(full, "fullTransactions")),
    );
    this.on("eth_getBlockTransactionCountByNumber", 1, 1, ([b]) => this.orNull(() => q(e.resolveBlock(p.blockSelector(b)).transactions.length)));
    this.on("eth_getBlockTransactionCountByHash", 1, 1, ([h]) => this.orNull(() => q(e.resolveBlock({ hash: p.hash(h, "blockHash") }).transactions.length)));
    this.on("eth_getUncleCountByBlockNumber", 1, 1, () => "0x0");
    this.on("eth_getUncleCountByBlockHash", 1, 1, () => "0x0");
    this.on("eth_getBlockReceipts", 1, 1, ([b]) => this.orNull(() => e.resolveBlock(p.blockSelector(b)).transactions.map(formatReceipt)));

    // -- transactions
    this.on("eth_getTransactionByHash", 1, 1, ([h]) => {
      const hash = p.hash(h, "transactionHash");
      const mined = e.chain.transaction(hash);
      if (mined !== undefined) return formatMinedTransaction(mined);
      const pooled = e.pendingTransactions.find((t) => t.hash === hash);
      return pooled === undefined ? null : formatTransaction(pooled.tx, pooled.hash, pooled.from.toString());
    });
    this.on("eth_getTransactionReceipt", 1, 1, ([h]) => {
      const mined = e.chain.transaction(p.hash(h, "transactionHash"));
      return mined === undefined ? null : formatReceipt(mined);
    });
    this.on("eth_getTransactionByBlockNumberAndIndex", 2, 2, ([b, i]) =>
      this.txAt(() => e.resolveBlock(p.blockSelector(b)), p.looseQuantity(i, "index")),
    );
    this.on("eth_getTransactionByBlockHashAndIndex", 2, 2, ([h, i]) =>
      this.txAt(() => e.resolveBlock({ hash: p.hash(h, "blockHash") }), p.looseQuantity(i, "index")),
    );
    this.on("eth_sendTransaction", 1, 1, async ([t]) => {
      const pooled = await e.prepareTransaction(p.transactionRequest(t));
      const hash = await e.submit(pooled, { sealLater: true });
      this.notePending(hash);
      return hash;
    });
    this.on("eth_sendRawTransaction", 1, 1, async ([raw]) => {
      const pooled = await e.decodeRawTransaction(p.data(raw, "transaction"));
      const hash = await e.submit(pooled, { sealLater: true });
      this.notePending(hash);
      return hash;
    });
    this.on("eth_call", 1, 3, async ([t, b]) => {
      const outcome = await e.call(p.transactionRequest(t), p.blockSelector(b));
      if (outcome.error !== undefined && o.throwOnCallFailures) throw revertError(outcome.error, outcome.returnValue);
      return hex(outcome.returnValue);
    });
    this.on("eth_estimateGas", 1, 3, async ([t, b]) => q(await e.estimateGas(p.transactionRequest(t), p.blockSelector(b ?? "pending"))));

    // -- signing with the unlocked accounts
    this.on("eth_sign", 2, 2, ([a, m]) => this.wallet(p.address(a, "address").toString()).signingKey.sign(hashMessage(p.data(m, "message"))).serialized);
    this.on("personal_sign", 2, 3, ([m, a]) => this.wallet(p.address(a, "address").toString()).signingKey.sign(hashMessage(p.data(m, "message"))).serialized);
    this.on("eth_signTypedData_v4", 2, 2, ([a, d]) => this.signTypedData(p.address(a, "address").toString(), d));
    this.on("eth_signTypedData", 2, 2, ([a, d]) => this.signTypedData(p.address(a, "address").toString(), d));

    // -- logs and filters
    this.on("eth_getLogs", 1, 1, ([f]) => e.getLogs(this.logFilter(f)).map(formatLog));
    this.on("eth_newFilter", 1, 1, ([f]) => this.addFilter(this.newLogFilter(f)));
    this.on("eth_newBlockFilter", 0, 0, () => this.addFilter({ kind: "blocks", hashes: [] }));
    this.on("eth_newPendingTransactionFilter", 0, 1, () => this.addFilter({ kind: "pending", hashes: [] }));
    this.on("eth_uninstallFilter", 1, 1, ([id]) => this.filters.delete(String(id)));
    this.on("eth_getFilterChanges", 1, 1, ([id]) => this.filterChanges(String(id)));
    this.on("eth_getFilterLogs", 1, 1, ([id]) => {
      const filter = this.filter(String(id));
      if (filter.kind !== "logs") throw new RpcError(RpcErrorCode.InvalidParams, `filter ${String(id)} is not a log filter`);
      const head = e.chain.height;
      const from = filter.fromBlock ?? head;
      const to = filter.toBlock === undefined || filter.toBlock > head ? head : filter.toBlock;
      return from > to ? [] : e.getLogs({ ...filter.match, fromBlock: from, toBlock: to }).map(formatLog);
    });

    // -- pool
    this.on("txpool_status", 0, 0, () => ({ pending: q(e.pendingTransactions.length), queued: "0x0" }));
    this.on("txpool_content", 0, 0, () => {
      const pending: Record<string, Record<string, unknown>> = {};
      for (const t of e.pendingTransactions) {
        const from = t.from.toString();
        (pending[from] ??= {})[t.tx.nonce.toString()] = formatTransaction(t.tx, t.hash, from);
      }
      return { pending, queued: {} };
    });

    // -- test-only powers: our own namespace, plus the evm_/hardhat_ methods Hardhat helpers call
    this.on("nativekit_setAssetBalance", 3, 3, async ([a, id, amount]) => {
      const value = p.looseQuantity(amount, "amount");
      if (value >= 1n << 256n) throw new RpcError(RpcErrorCode.InvalidParams, "amount must fit in 256 bits");
      await e.setAssetBalance(p.address(a, "address"), p.parseAssetIdHex(id, "assetID"), value);
      return true;
    });
    this.on("evm_mine", 0, 1, async ([t]) => {
      await e.mineBlock(t === undefined || t === null ? {} : { timestamp: p.looseQuantity(t, "timestamp") });
      return "0x0";
    });
    this.on("hardhat_mine", 0, 2, async ([count, interval]) => {
      const n = count === undefined ? 1n : p.looseQuantity(count, "blocks");
      const step = interval === undefined ? 1n : p.looseQuantity(interval, "interval");
      for (let i = 0n; i < n; i++) {
        const parent = e.head.block.header.timestamp;
        await e.mineBlock(i === 0n ? {} : { timestamp: parent + step });
      }
      return true;
    });
    this.on("evm_snapshot", 0, 0, async () => q(await e.snapshot()));
    this.on("evm_revert", 1, 1, ([id]) => e.revertTo(Number(p.looseQuantity(id, "snapshotId"))));
    this.on("evm_increaseTime", 1, 1, ([s]) => {
      const seconds = typeof s === "number" ? s : Number(p.looseQuantity(s, "seconds"));
      return String(e.increaseTime(seconds));
    });
    this.on("evm_setNextBlockTimestamp", 1, 1, ([t]) => {
      e.setNextBlockTimestamp(typeof t === "number" ? t : Number(p.looseQuantity(t, "timestamp")));
      return null;
    });
    this.on("evm_setAutomine", 1, 1, ([flag]) => {
      if (typeof flag !== "boolean") throw new RpcError(RpcErrorCode.InvalidParams, "evm_setAutomine expects true or false");
      e.automine = flag;
      return true;
    });
    this.on("hardhat_getAutomine", 0, 0, () => e.automine);
    this.on("hardhat_impersonateAccount", 1, 1, ([a]) => (e.impersonated.add(p.address(a, "address").toString()), true));
    this.on("hardhat_stopImpersonatingAccount", 1, 1, ([a]) => e.impersonated.delete(p.address(a, "address").toString()));
    this.on("hardhat_setBalance", 2, 2, async ([a, b]) => (await e.setBalance(p.address(a, "address"), p.looseQuantity(b, "balance")), true));
    this.on("hardhat_setNonce", 2, 2, async ([a, n]) => (await e.setNonce(p.address(a, "address"), p.looseQuantity(n, "nonce")), true));
    this.on("hardhat_setCode", 2, 2, async ([a, c]) => (await e.setCode(p.address(a, "address"), p.data(c, "code")), true));
    this.on("hardhat_setStorageAt", 3, 3, async ([a, s, v]) => {
      const slot = p.looseQuantity(s, "slot");
      const slotBytes = hexToBytes(("0x" + slot.toString(16).padStart(64, "0")) as `0x${string}`);
      await e.setStorageAt(p.address(a, "address"), slotBytes, p.data(v, "value", 32));
      return true;
    });
    this.on("hardhat_setNextBlockBaseFeePerGas", 1, 1, ([f]) => (e.setNextBlockBaseFee(p.looseQuantity(f, "baseFeePerGas")), true));
    this.on("evm_setBlockGasLimit", 1, 1, ([g]) => (e.setBlockGasLimit(p.looseQuantity(g, "gasLimit")), true));
    this.on("hardhat_setCoinbase", 1, 1, ([a]) => (e.setCoinbase(p.address(a, "address")), true));
    this.on("hardhat_setPrevRandao", 1, 1, ([v]) => (e.setNextPrevRandao(p.data(v, "prevRandao", 32)), true));
    this.on("hardhat_reset", 0, 1, async ([options]) => {
      const forking = (options as { forking?: unknown } | undefined)?.forking;
      if (forking !== undefined && forking !== null) {
        throw new RpcError(RpcErrorCode.InvalidParams, "hardhat_reset: forking is not supported by the nativekit simulator; call it without options to start from a fresh genesis");
      }
      await e.reset();
      return true;
    });
    this.on("hardhat_dropTransaction", 1, 1, ([h]) => e.dropPendingTransaction(p.hash(h, "transactionHash")));
    this.on("hardhat_metadata", 0, 0, () => ({
      clientVersion: CLIENT_VERSION,
      chainId: o.chainId,
      instanceId: instanceId(e),
      latestBlockNumber: Number(e.chain.height),
      latestBlockHash: e.head.hash,
    }));
  }

  private blockOrNull(resolve: () => BlockRecord, full: boolean): Record<string, unknown> | null {
    return this.orNull(() => formatBlock(resolve(), full));
  }

  /** Unknown blocks read as null (as on geth) rather than as errors. */
  private orNull<T>(fn: () => T): T | null {
    try {
      return fn();
    } catch (error) {
      if (error instanceof RpcError && / is not known/.test(error.message)) return null;
      throw error;
    }
  }

  private txAt(resolve: () => BlockRecord, index: bigint): Record<string, unknown> | null {
    return this.orNull(() => {
      const mined = resolve().transactions[Number(index)];
      return mined === undefined ? null : formatMinedTransaction(mined);
    });
  }

  private logFilter(criteria: unknown): LogFilter {
    const e = this.engine;
    return p.logFilter(criteria, e.chain.height, (h) => e.resolveBlock({ hash: h }).number);
  }

  private addFilter(filter: Filter): string {
    const id = q(this.nextFilterId++);
    filter.lastPolled = Date.now();
    this.filters.set(id, filter);
    return id;
  }

  private filter(id: string): Filter {
    const filter = this.filters.get(id);
    if (filter === undefined) {
      // geth's words and code: clients (viem, ethers) recognise them and install a new filter.
      throw new RpcError(RpcErrorCode.ServerError, `filter not found: ${id} was never created, was uninstalled, or expired after 5 minutes without a poll`);
    }
    return filter;
  }

  private filterChanges(id: string): unknown[] {
    const filter = this.filter(id);
    filter.lastPolled = Date.now();
    if (filter.kind === "logs") {
      const logs = filter.logs;
      filter.logs = [];
      return logs.map(formatLog);
    }
    const hashes = filter.hashes;
    filter.hashes = [];
    return hashes;
  }

  /**
   * A log filter as geth installs one: addresses and topics match new logs; fromBlock/toBlock,
   * when numbers (or a hash), bound the blocks whose logs are collected; a head tag or nothing
   * leaves that side open.
   */
  private newLogFilter(criteria: unknown): Filter {
    const match = this.logFilter(
      typeof criteria === "object" && criteria !== null && !Array.isArray(criteria)
        ? { ...(criteria as Record<string, unknown>), fromBlock: undefined, toBlock: undefined, blockHash: undefined }
        : criteria,
    );
    const o = criteria as Record<string, unknown>;
    const bound = (value: unknown, name: string): bigint | undefined => {
      if (value === undefined || value === null || (typeof value === "string" && HEAD_TAGS.has(value))) return undefined;
      const selector = p.blockSelector(value, name);
      if (selector === "earliest") return 0n;
      if (typeof selector === "bigint") return selector;
      if (typeof selector === "object") return this.engine.resolveBlock(selector).number;
      return undefined;
    };
    let fromBlock: bigint | undefined;
    let toBlock: bigint | undefined;
    if (o.blockHash !== undefined && o.blockHash !== null) {
      if (o.fromBlock !== undefined || o.toBlock !== undefined) {
        throw new RpcError(RpcErrorCode.InvalidParams, "a filter with blockHash cannot also have fromBlock or toBlock");
      }
      fromBlock = toBlock = this.engine.resolveBlock({ hash: p.hash(o.blockHash, "filter.blockHash") }).number;
    } else {
      fromBlock = bound(o.fromBlock, "filter.fromBlock");
      toBlock = bound(o.toBlock, "filter.toBlock");
      if (fromBlock !== undefined && toBlock !== undefined && fromBlock > toBlock) {
        throw new RpcError(RpcErrorCode.InvalidParams, `filter.fromBlock ${fromBlock} is after filter.toBlock ${toBlock}`);
      }
    }
    return { kind: "logs", match, fromBlock, toBlock, logs: [] };
  }

  /** Called for every mined block: hands it to the installed filters. */
  private noteBlock(record: BlockRecord): void {
    const now = Date.now();
    for (const [id, filter] of this.filters) {
      if (now - (filter.lastPolled ?? now) > FILTER_TIMEOUT_MS) {
        this.filters.delete(id);
        continue;
      }
      if (filter.kind === "blocks") filter.hashes.push(record.hash);
      else if (filter.kind === "logs") {
        if (filter.fromBlock !== undefined && record.number < filter.fromBlock) continue;
        if (filter.toBlock !== undefined && record.number > filter.toBlock) continue;
        if (record.transactions.length === 0) continue;
        // The block is already on the chain when listeners run: match its logs like eth_getLogs.
        filter.logs.push(...this.engine.getLogs({ ...filter.match, fromBlock: record.number, toBlock: record.number }));
      }
    }
  }

  private notePending(hash: string): void {
    for (const filter of this.filters.values()) if (filter.kind === "pending") filter.hashes.push(hash);
  }

  private wallet(address: string): Wallet {
    const account = this.engine.unlocked.get(address.toLowerCase());
    if (account === undefined) throw new RpcError(RpcErrorCode.ServerError, `unknown account ${address}: the node holds no key for it`);
    return new Wallet(account.privateKeyHex);
  }

  private signTypedData(address: string, raw: unknown): string {
    const wallet = this.wallet(address);
    let typed: unknown = raw;
    if (typeof raw === "string") {
      try {
        typed = JSON.parse(raw);
      } catch {
        throw new RpcError(RpcErrorCode.InvalidParams, "typedData must be an object or its JSON text; the string given is not valid JSON");
      }
    }
    const shape = typed as {
      domain?: Record<string, unknown>;
      types?: Record<string, { name: string; type: string }[]>;
      primaryType?: unknown;
      message?: Record<string, unknown>;
    };
    if (typeof shape !== "object" || shape === null || typeof shape.types !== "object" || shape.types === null || typeof shape.message !== "object") {
      throw new RpcError(RpcErrorCode.InvalidParams, "typedData must be an object with domain, types, primaryType and message");
    }
    const { EIP712Domain: _domain, ...allTypes } = shape.types;
    // Like eth_signTypedData_v4 in wallets: sign for the named primaryType and ignore types it
    // does not reach (ethers' encoder rejects unreachable types as ambiguous).
    const types = typeof shape.primaryType === "string" ? reachableTypes(allTypes, shape.primaryType) : allTypes;
    let digest: string;
    try {
      digest = TypedDataEncoder.hash(shape.domain ?? {}, types, shape.message);
    } catch (error) {
      throw new RpcError(RpcErrorCode.InvalidParams, `typedData cannot be encoded: ${(error as Error).message.split(" (")[0]}`);
    }
    return Signature.from(wallet.signingKey.sign(digest)).serialized;
  }

  private feeHistory(countParam: unknown, newestParam: unknown, percentilesParam: unknown): unknown {
    const e = this.engine;
    const count = p.looseQuantity(countParam, "blockCount");
    if (count < 1n || count > 1024n) throw new RpcError(RpcErrorCode.InvalidParams, "blockCount must be between 1 and 1024");
    const newest = e.resolveBlock(p.blockSelector(newestParam, "newestBlock")).number;
    const percentiles = rewardPercentiles(percentilesParam);
    const oldest = newest - count + 1n > 0n ? newest - count + 1n : 0n;
    const baseFeePerGas: string[] = [];
    const gasUsedRatio: number[] = [];
    const reward: string[][] = [];
    for (const record of e.chain.range(oldest, newest)) {
      const h = record.block.header;
      baseFeePerGas.push(q(h.baseFeePerGas ?? 0n));
      gasUsedRatio.push(Number(h.gasUsed) / Number(h.gasLimit));
      const baseFee = h.baseFeePerGas ?? 0n;
      const tips = record.transactions.map((m) => m.tx.getEffectivePriorityFee(baseFee)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      reward.push(percentiles.map((pc) => q(tips.length === 0 ? 0n : tips[Math.min(tips.length - 1, Math.floor((pc / 100) * tips.length))]!)));
    }
    const next = newest === e.chain.height ? e.nextBlockBaseFee() : e.chain.byNumberOrUndefined(newest + 1n)!.block.header.baseFeePerGas ?? 0n;
    baseFeePerGas.push(q(next));
    return { oldestBlock: q(oldest), baseFeePerGas, gasUsedRatio, ...(percentiles.length > 0 ? { reward } : {}) };
  }
}

/** eth_feeHistory's third parameter: absent, or increasing numbers from 0 to 100 (geth's rule). */
function rewardPercentiles(value: unknown): number[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new RpcError(RpcErrorCode.InvalidParams, "rewardPercentiles must be an array of numbers");
  value.forEach((pc, i) => {
    if (typeof pc !== "number" || !Number.isFinite(pc) || pc < 0 || pc > 100) {
      throw new RpcError(RpcErrorCode.InvalidParams, `rewardPercentiles[${i}] must be a number from 0 to 100, got ${JSON.stringify(pc)}`);
    }
    if (i > 0 && pc < (value[i - 1] as number)) {
      throw new RpcError(RpcErrorCode.InvalidParams, `rewardPercentiles must be in increasing order: ${value[i - 1]} is followed by ${pc}`);
    }
  });
  return value as number[];
}

/** The struct types `primary` uses, directly or through other structs (arrays included). */
function reachableTypes(
  types: Record<string, { name: string; type: string }[]>,
  primary: string,
): Record<string, { name: string; type: string }[]> {
  if (types[primary] === undefined) {
    throw new RpcError(RpcErrorCode.InvalidParams, `typedData.primaryType ${JSON.stringify(primary)} is not defined in typedData.types`);
  }
  const out: Record<string, { name: string; type: string }[]> = {};
  const visit = (name: string): void => {
    const fields = types[name];
    if (fields === undefined || out[name] !== undefined) return;
    out[name] = fields;
    if (!Array.isArray(fields)) return;
    for (const field of fields) visit(String(field?.type ?? "").replace(/(\[\d*\])+$/, ""));
  };
  visit(primary);
  return out;
}

const instanceIds = new WeakMap<Engine, string>();
function instanceId(engine: Engine): string {
  let id = instanceIds.get(engine);
  if (id === undefined) {
    id = bytesToHex(keccak_256(new TextEncoder().encode(`${Date.now()}-${Math.random()}`)));
    instanceIds.set(engine, id);
  }
  return id;
}

