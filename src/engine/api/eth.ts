/**
 * The eth_ namespace: the chain's identity and fees, state at a block, blocks, transactions,
 * calls and estimates. (Logs and filters are in `filters.ts`, signing in `signing.ts`.)
 */
import { RpcApi, type RpcApiOptions } from "../../rpc/api";
import { invalidParams } from "../../rpc/errors";
import type { BlockRecord } from "../chain";
import type { Engine } from "../engine";
import { ExecutionFailedError, UnknownBlockError } from "../errors";
import type { PooledTransaction } from "../types";
import type { Filters } from "./filters";
import type { SubscriptionHub } from "./subscriptions";
import { formatBlock, formatMinedTransaction, formatReceipt, formatTransaction, hex, q } from "./format";
import * as p from "./params";
import { eth_getProof } from "./proof";
import { PreForkHistory } from "./pre-fork";
import { engineHeadReadOptions } from "./serve";

/** A sent transaction's block is sealed after the answer (see Engine.submit). */
const SEAL_LATER = { sealLater: true } as const;

export function ethApi(engine: Engine, options: RpcApiOptions, filters: Filters, subscriptions: SubscriptionHub): RpcApi {
  const e = engine;
  const o = e.options;
  const history = new PreForkHistory(e);
  /** The local answer, unless parameter `index` names a block before the fork (then the remote's). */
  const atBlock = (method: string, index: number, local: (params: unknown[]) => unknown) => (params: unknown[]) =>
    history.atBlock(method, params, index) ?? local(params);
  const byNumber = (method: string, local: (params: unknown[]) => unknown) => (params: unknown[]) => history.blockByNumber(method, params) ?? local(params);
  const at = (b: unknown): BlockRecord => e.resolveBlock(p.blockSelector(b));
  const byHash = (h: unknown): BlockRecord => e.resolveBlock({ hash: p.hash(h, "blockHash") });
  const send = async (pooledTransaction: Promise<PooledTransaction>): Promise<string> => {
    const pooled = await pooledTransaction;
    const hash = await e.submit(pooled, SEAL_LATER);
    filters.notePending(hash);
    subscriptions.notePending(pooled);
    return hash;
  };
  return (
    new RpcApi(options)
      .include(
        new RpcApi(engineHeadReadOptions(e))
          .positional("eth_chainId", 0, () => q(o.chainId))
          .positional("eth_syncing", 0, () => false)
          .positional("eth_blockNumber", 0, () => q(e.chain.height)),
      )
      // -- identity
      .positional("eth_protocolVersion", 0, () => "0x41")
      .positional("eth_mining", 0, () => e.automine)
      .positional("eth_hashrate", 0, () => "0x0")
      .positional("eth_coinbase", 0, () => o.coinbase.toLowerCase())
      .positional("eth_accounts", 0, () => [...e.unlocked.keys()])
      .positional("eth_requestAccounts", 0, () => [...e.unlocked.keys()])

      // -- fees
      .positional("eth_gasPrice", 0, () => q(e.nextBlockBaseFee()))
      .positional("eth_baseFee", 0, () => q(e.nextBlockBaseFee()))
      .positional("eth_maxPriorityFeePerGas", 0, () => "0x0")
      .positional("eth_feeHistory", [2, 3], ([count, newest, percentiles]) => feeHistory(e, count, newest, percentiles))

      // -- state
      .positional("eth_getBalance", [1, 2], atBlock("eth_getBalance", 1, async ([a, b]) => q((await e.getAccount(p.address(a, "address"), at(b))).balance)))
      .positional(
        "eth_getTransactionCount",
        [1, 2],
        atBlock("eth_getTransactionCount", 1, async ([a, b]) => {
          const address = p.address(a, "address");
          if (b === "pending") return q(await e.pendingNonce(address));
          return q((await e.getAccount(address, at(b))).nonce);
        }),
      )
      .positional("eth_getCode", [1, 2], atBlock("eth_getCode", 1, async ([a, b]) => hex(await e.getCode(p.address(a, "address"), at(b)))))
      .positional(
        "eth_getStorageAt",
        [2, 3],
        atBlock("eth_getStorageAt", 2, async ([a, s, b]) => {
          const slot = p.looseQuantity(s, "slot");
          if (slot >= 1n << 256n) throw invalidParams("slot must fit in 32 bytes");
          return hex(await e.getStorageAt(p.address(a, "address"), p.slotBytes(slot), at(b)));
        }),
      )
      .positional("eth_getProof", [2, 3], atBlock("eth_getProof", 2, (params) => eth_getProof(e, params)))
      .positional(
        "eth_getAssetBalance",
        3,
        atBlock("eth_getAssetBalance", 1, async ([a, b, id]) => q(await e.getAssetBalance(p.address(a, "address"), p.parseAssetIdHex(id, "assetID"), at(b)))),
      )

      // -- blocks: an unknown block reads as null (as on geth) rather than as an error
      .positional("eth_getBlockByNumber", [1, 2], byNumber("eth_getBlockByNumber", ([b, full]) => blockOrNull(() => at(b), p.optionalBoolean(full, "fullTransactions"))))
      .positional("eth_getBlockByHash", [1, 2], (params) => {
        const [h, full] = params;
        return blockOrNull(() => byHash(h), p.optionalBoolean(full, "fullTransactions")) ?? history.byHash("eth_getBlockByHash", params);
      })
      .positional("eth_getBlockTransactionCountByNumber", 1, byNumber("eth_getBlockTransactionCountByNumber", ([b]) => orNull(() => q(at(b).transactions.length))))
      .positional("eth_getBlockTransactionCountByHash", 1, ([h]) => orNull(() => q(byHash(h).transactions.length)))
      .positional("eth_getUncleCountByBlockNumber", 1, () => "0x0")
      .positional("eth_getUncleCountByBlockHash", 1, () => "0x0")
      .positional("eth_getBlockReceipts", 1, byNumber("eth_getBlockReceipts", ([b]) => orNull(() => at(b).transactions.map(formatReceipt))))

      // -- transactions
      .positional("eth_getTransactionByHash", 1, ([h]) => {
        const hash = p.hash(h, "transactionHash");
        const mined = e.chain.transaction(hash);
        if (mined !== undefined) return formatMinedTransaction(mined);
        const pooled = e.pendingTransactions.find((t) => t.hash === hash);
        if (pooled !== undefined) return formatTransaction(pooled.tx, pooled.hash, pooled.from.toString());
        return history.byHash("eth_getTransactionByHash", [hash]);
      })
      .positional("eth_getTransactionReceipt", 1, ([h]) => {
        const hash = p.hash(h, "transactionHash");
        const mined = e.chain.transaction(hash);
        return mined === undefined ? history.byHash("eth_getTransactionReceipt", [hash]) : formatReceipt(mined);
      })
      .positional(
        "eth_getTransactionByBlockNumberAndIndex",
        2,
        byNumber("eth_getTransactionByBlockNumberAndIndex", ([b, i]) => transactionAt(() => at(b), p.looseQuantity(i, "index"))),
      )
      .positional("eth_getTransactionByBlockHashAndIndex", 2, ([h, i]) => transactionAt(() => byHash(h), p.looseQuantity(i, "index")))
      .positional("eth_sendTransaction", 1, ([t]) => send(e.prepareTransaction(p.transactionRequest(t))))
      .positional("eth_sendRawTransaction", 1, ([raw]) => send(e.decodeRawTransaction(p.data(raw, "transaction"))))
      .positional(
        "eth_call",
        [1, 3],
        atBlock("eth_call", 1, async ([t, b]) => {
          const outcome = await e.call(p.transactionRequest(t), p.blockSelector(b));
          if (outcome.error !== undefined && o.throwOnCallFailures) throw new ExecutionFailedError(outcome.error, outcome.returnValue, undefined, outcome.trace);
          return hex(outcome.returnValue);
        }),
      )
      .positional("eth_estimateGas", [1, 3], async ([t, b]) => q(await e.estimateGas(p.transactionRequest(t), p.blockSelector(b ?? "pending"))))
  );
}

/** The value of `read`, or null when the block it reads is not known. */
function orNull<T>(read: () => T): T | null {
  try {
    return read();
  } catch (error) {
    if (error instanceof UnknownBlockError) return null;
    throw error;
  }
}

function blockOrNull(block: () => BlockRecord, fullTransactions: boolean): Record<string, unknown> | null {
  return orNull(() => formatBlock(block(), fullTransactions));
}

function transactionAt(block: () => BlockRecord, index: bigint): Record<string, unknown> | null {
  return orNull(() => {
    const mined = block().transactions[Number(index)];
    return mined === undefined ? null : formatMinedTransaction(mined);
  });
}

/**
 * The tips paid at each percentile of a block's gas, as geth computes them: the transactions
 * sorted by tip, each weighing the gas it used, and a percentile's tip that of the transaction
 * whose gas takes the running sum to that share of the block's gas used (0 for an empty block).
 */
function blockRewards(record: BlockRecord, percentiles: readonly number[]): bigint[] {
  const baseFee = record.block.header.baseFeePerGas ?? 0n;
  const sorted = record.transactions
    .map((m) => ({ tip: m.tx.getEffectivePriorityFee(baseFee), gasUsed: m.receipt.gasUsed }))
    .sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0));
  if (sorted.length === 0) return percentiles.map(() => 0n);
  const blockGasUsed = Number(record.block.header.gasUsed);
  let index = 0;
  let sum = sorted[0]!.gasUsed;
  return percentiles.map((pc) => {
    // geth: uint64(float64(gasUsed) * p / 100).
    const threshold = BigInt(Math.floor((blockGasUsed * pc) / 100));
    while (sum < threshold && index < sorted.length - 1) sum += sorted[++index]!.gasUsed;
    return sorted[index]!.tip;
  });
}

function feeHistory(e: Engine, countParam: unknown, newestParam: unknown, percentilesParam: unknown): unknown {
  const count = p.looseQuantity(countParam, "blockCount");
  if (count < 1n || count > 1024n) throw invalidParams("blockCount must be between 1 and 1024");
  const newest = e.resolveBlock(p.blockSelector(newestParam, "newestBlock")).number;
  const percentiles = p.rewardPercentiles(percentilesParam);
  const oldest = newest - count + 1n > 0n ? newest - count + 1n : 0n;
  const baseFeePerGas: string[] = [];
  const gasUsedRatio: number[] = [];
  const reward: string[][] = [];
  for (const record of e.chain.range(oldest, newest)) {
    const h = record.block.header;
    baseFeePerGas.push(q(h.baseFeePerGas ?? 0n));
    gasUsedRatio.push(Number(h.gasUsed) / Number(h.gasLimit));
    reward.push(blockRewards(record, percentiles).map(q));
  }
  const next = newest === e.chain.height ? e.nextBlockBaseFee() : (e.chain.byNumberOrUndefined(newest + 1n)!.block.header.baseFeePerGas ?? 0n);
  baseFeePerGas.push(q(next));
  return { oldestBlock: q(oldest), baseFeePerGas, gasUsedRatio, ...(percentiles.length > 0 ? { reward } : {}) };
}
