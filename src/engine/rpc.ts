import { bytesToHex, hexToBytes } from "@ethereumjs/util";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { Signature, TypedDataEncoder, Wallet, hashMessage } from "ethers";
import type { BlockRecord } from "./chain";
import type { Engine, LogFilter } from "./engine";
import { RpcError, RpcErrorCode, methodNotFound } from "./errors";
import { formatBlock, formatLog, formatMinedTransaction, formatReceipt, formatTransaction, hex, q } from "./format";
import * as p from "./params";
import { revertError } from "./revert";

type Handler = (params: unknown) => Promise<unknown> | unknown;

const CLIENT_VERSION = "nativekit/0.1.0";

type Filter =
  | { kind: "logs"; criteria: unknown; nextBlock: bigint }
  | { kind: "blocks"; nextBlock: bigint }
  | { kind: "pending"; hashes: string[] };

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
    this.on("eth_getBlockByNumber", 1, 2, ([b, full]) => this.blockOrNull(() => e.resolveBlock(p.blockSelector(b)), full === true));
    this.on("eth_getBlockByHash", 1, 2, ([h, full]) => this.blockOrNull(() => e.resolveBlock({ hash: p.hash(h, "blockHash") }), full === true));
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
      const hash = await e.submit(pooled);
      this.notePending(hash);
      return hash;
    });
    this.on("eth_sendRawTransaction", 1, 1, async ([raw]) => {
      const pooled = await e.decodeRawTransaction(p.data(raw, "transaction"));
      const hash = await e.submit(pooled);
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
    this.on("eth_newFilter", 1, 1, ([f]) => {
      this.logFilter(f); // validate now, not at the first poll
      return this.addFilter({ kind: "logs", criteria: f, nextBlock: e.chain.height + 1n });
    });
    this.on("eth_newBlockFilter", 0, 0, () => this.addFilter({ kind: "blocks", nextBlock: e.chain.height + 1n }));
    this.on("eth_newPendingTransactionFilter", 0, 1, () => this.addFilter({ kind: "pending", hashes: [] }));
    this.on("eth_uninstallFilter", 1, 1, ([id]) => this.filters.delete(String(id)));
    this.on("eth_getFilterChanges", 1, 1, ([id]) => this.filterChanges(String(id)));
    this.on("eth_getFilterLogs", 1, 1, ([id]) => {
      const filter = this.filter(String(id));
      if (filter.kind !== "logs") throw new RpcError(RpcErrorCode.InvalidParams, `filter ${String(id)} is not a log filter`);
      return e.getLogs(this.logFilter(filter.criteria)).map(formatLog);
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
    this.filters.set(id, filter);
    return id;
  }

  private filter(id: string): Filter {
    const filter = this.filters.get(id);
    if (filter === undefined) throw new RpcError(RpcErrorCode.InvalidParams, `filter ${id} not found (it was never created or has been uninstalled)`);
    return filter;
  }

  private filterChanges(id: string): unknown[] {
    const filter = this.filter(id);
    const head = this.engine.chain.height;
    if (filter.kind === "pending") {
      const hashes = filter.hashes;
      filter.hashes = [];
      return hashes;
    }
    const from = filter.nextBlock;
    filter.nextBlock = head + 1n;
    if (filter.kind === "blocks") return [...this.engine.chain.range(from, head)].map((r) => r.hash);
    const criteria = this.logFilter(filter.criteria);
    const lo = criteria.fromBlock > from ? criteria.fromBlock : from;
    return this.engine.getLogs({ ...criteria, fromBlock: lo, toBlock: criteria.toBlock < head ? criteria.toBlock : head }).map(formatLog);
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
    const typed = (typeof raw === "string" ? JSON.parse(raw) : raw) as {
      domain: Record<string, unknown>;
      types: Record<string, { name: string; type: string }[]>;
      message: Record<string, unknown>;
    };
    if (typeof typed !== "object" || typed === null || typed.types === undefined) {
      throw new RpcError(RpcErrorCode.InvalidParams, "typed data must be an object with domain, types, primaryType and message");
    }
    const { EIP712Domain: _domain, ...types } = typed.types;
    const digest = TypedDataEncoder.hash(typed.domain, types, typed.message);
    return Signature.from(this.wallet(address).signingKey.sign(digest)).serialized;
  }

  private feeHistory(countParam: unknown, newestParam: unknown, percentilesParam: unknown): unknown {
    const e = this.engine;
    const count = p.looseQuantity(countParam, "blockCount");
    if (count < 1n || count > 1024n) throw new RpcError(RpcErrorCode.InvalidParams, "blockCount must be between 1 and 1024");
    const newest = e.resolveBlock(p.blockSelector(newestParam, "newestBlock")).number;
    const percentiles = Array.isArray(percentilesParam) ? (percentilesParam as number[]) : [];
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

const instanceIds = new WeakMap<Engine, string>();
function instanceId(engine: Engine): string {
  let id = instanceIds.get(engine);
  if (id === undefined) {
    id = bytesToHex(keccak_256(new TextEncoder().encode(`${Date.now()}-${Math.random()}`)));
    instanceIds.set(engine, id);
  }
  return id;
}

