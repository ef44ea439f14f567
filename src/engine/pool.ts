/**
 * The transaction pool: transactions accepted while automine is off, waiting for a block; the
 * rules a transaction must pass to be accepted at all (a node's pool checks them on arrival);
 * and a sender's next nonce once its waiting transactions are counted.
 */
import type { TypedTransaction } from "@ethereumjs/tx";
import { Account, type Address } from "@ethereumjs/util";
import type { BlockTime } from "./block-time";
import type { ChainState } from "./chain-state";
import { TransactionRejectedError } from "./errors";
import type { ResolvedEngineOptions } from "./options";
import type { PooledTransaction } from "./types";

export class TransactionPool {
  private waiting: PooledTransaction[] = [];

  constructor(
    private readonly state: ChainState,
    private readonly settings: Readonly<ResolvedEngineOptions>,
    private readonly time: BlockTime,
  ) {}

  /** The transactions waiting for a block, in arrival order. */
  get pending(): readonly PooledTransaction[] {
    return this.waiting;
  }

  add(pooled: PooledTransaction): void {
    this.waiting.push(pooled);
  }

  /**
   * Checks a transaction against the head state, like a node's pool does on arrival. With
   * automine the transaction goes into the next block at once, so it must also pay that block's
   * base fee and carry the sender's next nonce.
   */
  async validate(pooled: PooledTransaction, automine: boolean): Promise<void> {
    const { tx, from } = pooled;
    if (this.waiting.some((p) => p.hash === pooled.hash)) {
      throw new TransactionRejectedError(`transaction ${pooled.hash} is already known`);
    }
    const account = (await this.state.stateManager.getAccount(from)) ?? new Account();
    if (tx.nonce < account.nonce) {
      throw new TransactionRejectedError(`nonce too low: address ${from.toString()}, next nonce ${account.nonce}, transaction nonce ${tx.nonce}`);
    }
    const intrinsic = tx.getIntrinsicGas();
    if (tx.gasLimit < intrinsic) {
      throw new TransactionRejectedError(`intrinsic gas too low: gas limit ${tx.gasLimit}, needed at least ${intrinsic}`);
    }
    if (tx.gasLimit > this.settings.blockGasLimit) {
      throw new TransactionRejectedError(`gas limit ${tx.gasLimit} exceeds the block gas limit ${this.settings.blockGasLimit}`);
    }
    const maxFee = "maxFeePerGas" in tx ? (tx.maxFeePerGas as bigint) : (tx as unknown as { gasPrice: bigint }).gasPrice;
    const cost = tx.gasLimit * maxFee + tx.value;
    if (account.balance < cost) {
      throw new TransactionRejectedError(
        `insufficient funds for gas * price + value: address ${from.toString()} has ${account.balance} wei, needs ${cost} wei`,
      );
    }
    if (automine) {
      const baseFee = this.time.nextBlockBaseFee();
      if (maxFee < baseFee) {
        throw new TransactionRejectedError(`max fee per gas ${maxFee} is below the next block's base fee ${baseFee}`);
      }
      const expected = this.nonceAfterPool(from, account.nonce);
      if (tx.nonce > expected) {
        throw new TransactionRejectedError(
          `nonce too high: expected ${expected} for ${from.toString()}, got ${tx.nonce}; transactions cannot be queued while automine is on`,
        );
      }
    }
  }

  /** The nonce the sender's next transaction needs, counting its waiting transactions. */
  async pendingNonce(address: Address): Promise<bigint> {
    const account = await this.state.stateManager.getAccount(address);
    return this.nonceAfterPool(address, account?.nonce ?? 0n);
  }

  /** The next nonce of `address` after its pooled transactions, from its state nonce. */
  private nonceAfterPool(address: Address, stateNonce: bigint): bigint {
    let nonce = stateNonce;
    for (const pooled of this.waiting) if (pooled.from.equals(address) && pooled.tx.nonce === nonce) nonce++;
    return nonce;
  }

  /**
   * Takes the transactions for the next block out of the pool: per sender in nonce order, best
   * tip first, as many as the block gas limit allows.
   */
  takeForBlock(baseFee: bigint): PooledTransaction[] {
    const chosen: PooledTransaction[] = [];
    const remaining: PooledTransaction[] = [];
    let gas = 0n;
    const sorted = [...this.waiting].sort((a, b) => {
      if (a.from.equals(b.from)) return a.tx.nonce < b.tx.nonce ? -1 : 1;
      const fa = a.tx.getEffectivePriorityFee(baseFee);
      const fb = b.tx.getEffectivePriorityFee(baseFee);
      return fa === fb ? 0 : fa > fb ? -1 : 1;
    });
    for (const pooled of sorted) {
      if (gas + pooled.tx.gasLimit <= this.settings.blockGasLimit) {
        chosen.push(pooled);
        gas += pooled.tx.gasLimit;
      } else remaining.push(pooled);
    }
    this.waiting = remaining;
    return chosen;
  }

  /** Removes a waiting transaction (hardhat_dropTransaction); false if none has that hash. */
  drop(hash: string): boolean {
    const before = this.waiting.length;
    this.waiting = this.waiting.filter((p) => p.hash !== hash.toLowerCase());
    return this.waiting.length !== before;
  }

  /** The transactions waiting now (for evm_snapshot). */
  capture(): TypedTransaction[] {
    return this.waiting.map((p) => p.tx);
  }

  /** Keeps only the waiting transactions that were already waiting at `captured` (evm_revert). */
  restore(captured: readonly TypedTransaction[]): void {
    this.waiting = this.waiting.filter((p) => captured.includes(p.tx));
  }

  clear(): void {
    this.waiting = [];
  }
}
