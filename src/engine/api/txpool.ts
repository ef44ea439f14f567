/** The txpool_ namespace: what waits in the pool (automine off). Nothing is ever queued. */
import { RpcApi, type RpcApiOptions } from "../../rpc/api";
import type { Engine } from "../engine";
import { formatTransaction, q } from "./format";

export function txpoolApi(engine: Engine, options: RpcApiOptions): RpcApi {
  return new RpcApi(options)
    .positional("txpool_status", 0, () => ({ pending: q(engine.pendingTransactions.length), queued: "0x0" }))
    .positional("txpool_content", 0, () => {
      const pending: Record<string, Record<string, unknown>> = {};
      for (const t of engine.pendingTransactions) {
        const from = t.from.toString();
        (pending[from] ??= {})[t.tx.nonce.toString()] = formatTransaction(t.tx, t.hash, from);
      }
      return { pending, queued: {} };
    });
}
