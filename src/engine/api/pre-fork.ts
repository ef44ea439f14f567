/**
 * On a fork, what happened before the fork point is the remote's: blocks, transactions,
 * receipts and logs up to the fork block are answered with the remote's JSON (hashes as the
 * remote gives them), and calls and state reads at an earlier block are forwarded to the remote
 * (so no history of the remote's rules is needed). Every such answer is final, so it goes
 * through the fork's cache. Each helper answers undefined when the local chain answers instead.
 */
import type { Engine } from "../engine";
import { quantity } from "../fork/fork-source";
import { isRecord } from "../fork/remote";
import * as p from "./params";

export class PreForkHistory {
  constructor(private readonly engine: Engine) {}

  /**
   * A method whose parameter `index` is a block: forwarded when that block is before the fork
   * block (the fork block's own state is the local chain's first state, the same).
   */
  atBlock(method: string, params: unknown[], index: number): Promise<unknown> | undefined {
    const number = this.preForkNumber(params[index], false);
    if (number === undefined) return undefined;
    const forwarded = params.map((param, i) => (i === index ? quantity(number) : param)).filter((param) => param !== undefined);
    return this.engine.fork!.settled(method, forwarded);
  }

  /** Methods that read a block by number (eth_getBlockByNumber, eth_getBlockReceipts, ...): up to the fork block, the remote's. */
  blockByNumber(method: string, params: unknown[]): Promise<unknown> | undefined {
    const number = this.preForkNumber(params[0], true);
    if (number === undefined) return undefined;
    return this.engine.fork!.settled(method, [quantity(number), ...params.slice(1).filter((x) => x !== undefined)]);
  }

  /**
   * Methods that name a block or transaction by hash, asked when the local chain does not know
   * it: the remote's answer, if it is about a block up to the fork block.
   */
  async byHash(method: string, params: unknown[]): Promise<unknown> {
    const fork = this.engine.fork;
    if (fork === undefined) return null;
    const answer = await fork.settled(method, params.filter((x) => x !== undefined));
    if (!isRecord(answer)) return null;
    const number = answer.blockNumber ?? answer.number;
    if (typeof number !== "string" || BigInt(number) > fork.point.number) return null;
    return answer;
  }

  /** The remote's logs for the part of a range up to the fork block (empty when none of it is). */
  async logs(filter: Record<string, unknown>, from: bigint, to: bigint): Promise<unknown[]> {
    const fork = this.engine.fork;
    if (fork === undefined || from > fork.point.number) return [];
    const last = to < fork.point.number ? to : fork.point.number;
    const { blockHash: _ignored, ...rest } = filter;
    const answer = await fork.settled("eth_getLogs", [{ ...rest, fromBlock: quantity(from), toBlock: quantity(last) }]);
    if (!Array.isArray(answer)) throw fork.garbage("eth_getLogs", "a list of logs", answer);
    return answer;
  }

  /** The block number a block parameter names, when it is a block before (or, with `inclusive`, at) the fork block. */
  private preForkNumber(param: unknown, inclusive: boolean): bigint | undefined {
    const fork = this.engine.fork;
    if (fork === undefined || param === undefined) return undefined;
    if (param === "earliest") return 0n;
    if (typeof param !== "string" || !param.startsWith("0x")) return undefined;
    const selector = p.blockSelector(param);
    if (typeof selector !== "bigint") return undefined;
    const limit = fork.point.number;
    return selector < limit || (inclusive && selector === limit) ? selector : undefined;
  }
}
