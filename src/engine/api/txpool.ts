/** The txpool_ namespace: what waits in the pool (automine off). Nothing is ever queued. */
import type { TypedTransaction } from "@ethereumjs/tx";
import { RpcApi, type RpcApiOptions } from "../../rpc/api";
import type { Engine } from "../engine";
import type { LockHeld } from "../engine-lock";
import type { PooledTransaction } from "../types";
import { formatTransaction, q } from "./format";
import type { EngineContext } from "./serve";

export function txpoolApi(engine: Engine, options: RpcApiOptions<LockHeld>): RpcApi<LockHeld> {
  return RpcApi.scoped(options).positionalMethods({ engine }, {
    "txpool_status": [0, status],
    "txpool_content": [0, content],
    "txpool_inspect": [0, inspect],
  });
}

function status({ engine }: EngineContext): { pending: string; queued: string } {
  return { pending: q(engine.pendingTransactions.length), queued: "0x0" };
}

function content({ engine }: EngineContext): { pending: Record<string, Record<string, unknown>>; queued: Record<string, never> } {
  return { pending: bySenderAndNonce(engine.pendingTransactions, (t, from) => formatTransaction(t.tx, t.hash, from)), queued: {} };
}

/** geth's one-line summary of each pending transaction: "<to>: <value> wei + <gas> gas × <price> wei". */
function inspect({ engine }: EngineContext): { pending: Record<string, Record<string, string>>; queued: Record<string, never> } {
  return { pending: bySenderAndNonce(engine.pendingTransactions, (t) => summary(t.tx)), queued: {} };
}

function summary(tx: TypedTransaction): string {
  const to = tx.to === undefined ? "contract creation" : tx.to.toString();
  const price = "maxFeePerGas" in tx ? tx.maxFeePerGas : (tx as { gasPrice: bigint }).gasPrice;
  return `${to}: ${tx.value} wei + ${tx.gasLimit} gas × ${price} wei`;
}

/** The pool as geth answers it: by sender, then by nonce (a decimal string). */
function bySenderAndNonce<T>(pooled: readonly PooledTransaction[], entry: (t: PooledTransaction, from: string) => T): Record<string, Record<string, T>> {
  const out: Record<string, Record<string, T>> = {};
  for (const t of pooled) {
    const from = t.from.toString();
    (out[from] ??= {})[t.tx.nonce.toString()] = entry(t, from);
  }
  return out;
}
