/**
 * eth_feeHistory: [blockCount, newestBlock, rewardPercentiles?] to the base fees, the gas used
 * ratios and (with percentiles) the tips of a range of blocks ending at `newestBlock`, as geth
 * answers it.
 */
import { invalidParams } from "../../rpc/errors";
import type { BlockRecord } from "../chain";
import type { Engine } from "../engine";
import { q } from "./format";
import * as p from "./params";

export function feeHistory({ engine }: { readonly engine: Engine }, [blockCount, newestBlock, rewardPercentiles]: unknown[]): unknown {
  const count = p.looseQuantity(blockCount, "blockCount");
  if (count < 1n || count > 1024n) throw invalidParams("blockCount must be between 1 and 1024");
  const newest = engine.resolveBlock(p.blockSelector(newestBlock, "newestBlock")).number;
  const percentiles = p.rewardPercentiles(rewardPercentiles);
  const oldest = newest - count + 1n > 0n ? newest - count + 1n : 0n;
  const baseFeePerGas: string[] = [];
  const gasUsedRatio: number[] = [];
  const reward: string[][] = [];
  for (const record of engine.chain.range(oldest, newest)) {
    const header = record.block.header;
    baseFeePerGas.push(q(header.baseFeePerGas ?? 0n));
    gasUsedRatio.push(Number(header.gasUsed) / Number(header.gasLimit));
    reward.push(blockRewards(record, percentiles).map(q));
  }
  const next = newest === engine.chain.height ? engine.nextBlockBaseFee() : (engine.chain.byNumberOrUndefined(newest + 1n)!.block.header.baseFeePerGas ?? 0n);
  baseFeePerGas.push(q(next));
  return { oldestBlock: q(oldest), baseFeePerGas, gasUsedRatio, ...(percentiles.length > 0 ? { reward } : {}) };
}

/**
 * The tips paid at each percentile of a block's gas, as geth computes them: the transactions
 * sorted by tip, each weighing the gas it used, and a percentile's tip that of the transaction
 * whose gas takes the running sum to that share of the block's gas used (0 for an empty block).
 */
function blockRewards(record: BlockRecord, percentiles: readonly number[]): bigint[] {
  const baseFee = record.block.header.baseFeePerGas ?? 0n;
  const sorted = record.transactions
    .map((mined) => ({ tip: mined.tx.getEffectivePriorityFee(baseFee), gasUsed: mined.receipt.gasUsed }))
    .sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0));
  if (sorted.length === 0) return percentiles.map(() => 0n);
  const blockGasUsed = Number(record.block.header.gasUsed);
  let index = 0;
  let sum = sorted[0]!.gasUsed;
  return percentiles.map((percentile) => {
    // geth: uint64(float64(gasUsed) * p / 100).
    const threshold = BigInt(Math.floor((blockGasUsed * percentile) / 100));
    while (sum < threshold && index < sorted.length - 1) sum += sorted[++index]!.gasUsed;
    return sorted[index]!.tip;
  });
}
