/**
 * The network context kept in the `chains` table, so the API answers without the node. A
 * database that already holds another network's chains is refused: mixing two networks in one
 * index would give wrong balances.
 */
import type { SqlDatabase } from "../../sql/database";
import type { ExplorerContext } from "../context";

const VMS = { X: "avm", P: "pvm", C: "evm" } as const;

export async function storeContext(db: SqlDatabase, context: ExplorerContext): Promise<void> {
  await db.transaction(async (q) => {
    const existing = await q.query("SELECT id, alias, network_id FROM chains");
    const other = existing.find((row) => Number(row.network_id) !== context.networkId || context.chains[String(row.alias) as keyof typeof VMS] !== row.id);
    if (other !== undefined) {
      throw new Error(
        `the explorer's database indexes another network (chain ${String(other.alias)} = ${String(other.id)} of network ${String(other.network_id)}), ` +
          `not the node's (network ${context.networkId}): use another --data-dir or database`,
      );
    }
    for (const alias of ["X", "P", "C"] as const) {
      await q.query("INSERT INTO chains (id, alias, vm, network_id) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING", [context.chains[alias], alias, VMS[alias], context.networkId]);
    }
  });
}
