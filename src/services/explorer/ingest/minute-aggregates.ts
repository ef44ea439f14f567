/**
 * The per-minute aggregates (schema-reads.ts, schema-reads-scale.ts) moved by the ingester for
 * its page, in the page's SQL transaction: the rows it inserted are in hand, so the minutes,
 * chains and assets they fall in are summed here and written in two statements, instead of by
 * the three statement triggers that joined every added row back to its output (about a tenth
 * of a millisecond of the server's CPU per container). The triggers stand aside in a SQL
 * transaction that says so (`explorer.ingester_aggregates`, schema-ingest-writes.ts) and still
 * keep the aggregates of any other writer.
 *
 * Counting stays as the triggers count: an output's volume and count in its minute, creating
 * chain and asset; a transaction once per such group, unless outputs of it of that asset were
 * stored before (the platform genesis row grows page by page); an owner once per minute, chain
 * and asset, `owners` counting the (minute, chain, asset, address) rows that are new.
 */
import type { SqlQueries } from "../../sql/database";
import { arrayLiteral } from "./bulk-insert";
import type { OutputRow, TransactionRow } from "./rows";

export const INGESTER_AGGREGATES_SETTING = "explorer.ingester_aggregates";

const MINUTE_MS = 60_000;
const minuteOf = (ms: number): number => ms - (ms % MINUTE_MS);

interface MinuteGroup {
  minute: number;
  chainId: string;
  assetId: string;
  volume: bigint;
  outputs: number;
  transactions: Set<string>;
}

const byKey = <T>(entries: Map<string, T>): T[] => [...entries.keys()].sort().map((k) => entries.get(k)!);

/**
 * Adds to the per-minute aggregates the rows this SQL transaction inserted: `newTransactions`,
 * `newOutputs` and `newOwners` (output ID, address) as the inserts answered them. The writes go
 * to `writes` (a page's pipeline sends them without waiting for their answers); `q` reads.
 */
export async function writeMinuteAggregates(
  q: SqlQueries,
  writes: SqlQueries,
  txs: readonly TransactionRow[],
  newTransactions: ReadonlySet<string>,
  newOutputs: ReadonlySet<string>,
  newOwners: readonly (readonly [outputId: string, address: string])[],
): Promise<void> {
  const perChain = new Map<string, { minute: number; chainId: string; transactions: number; txfee: bigint }>();
  const outputs = new Map<string, { output: OutputRow; acceptedAt: number }>();
  for (const t of txs) {
    if (newTransactions.has(t.id)) {
      const key = `${String(minuteOf(t.acceptedAt)).padStart(16, "0")} ${t.chainId}`;
      const group = perChain.get(key) ?? { minute: minuteOf(t.acceptedAt), chainId: t.chainId, transactions: 0, txfee: 0n };
      group.transactions++;
      group.txfee += t.txFee;
      perChain.set(key, group);
    }
    for (const o of t.outputs) if (newOutputs.has(o.id)) outputs.set(o.id, { output: o, acceptedAt: t.acceptedAt });
  }
  const groupKey = (minute: number, chainId: string, assetId: string) => `${String(minute).padStart(16, "0")} ${chainId} ${assetId}`;
  const groups = new Map<string, MinuteGroup>();
  for (const { output: o, acceptedAt } of outputs.values()) {
    const key = groupKey(minuteOf(acceptedAt), o.createdOnChainId, o.assetId);
    const group = groups.get(key) ?? { minute: minuteOf(acceptedAt), chainId: o.createdOnChainId, assetId: o.assetId, volume: 0n, outputs: 0, transactions: new Set<string>() };
    group.volume += o.amount;
    group.outputs++;
    group.transactions.add(o.transactionId);
    groups.set(key, group);
  }
  // A transaction stored before that gains outputs counts only for assets it held no output of.
  const grown = [...new Set([...outputs.values()].map((o) => o.output.transactionId).filter((id) => !newTransactions.has(id)))];
  if (grown.length > 0) {
    const before = await q.query("SELECT DISTINCT transaction_id, asset_id FROM outputs WHERE transaction_id = ANY($1::text[]) AND NOT (id = ANY($2::text[]))", [
      arrayLiteral(grown),
      arrayLiteral([...outputs.keys()]),
    ]);
    const held = new Set(before.map((r) => `${String(r.transaction_id)} ${String(r.asset_id)}`));
    for (const group of groups.values()) for (const id of [...group.transactions]) if (held.has(`${id} ${group.assetId}`)) group.transactions.delete(id);
  }
  const owners = new Map<string, [number, string, string, string]>();
  for (const [outputId, address] of newOwners) {
    const found = outputs.get(outputId);
    if (found === undefined) continue;
    const minute = minuteOf(found.acceptedAt);
    owners.set(`${groupKey(minute, found.output.createdOnChainId, found.output.assetId)} ${address}`, [minute, found.output.createdOnChainId, found.output.assetId, address]);
  }
  if (perChain.size > 0) {
    const rows = byKey(perChain);
    await writes.query(
      `INSERT INTO explorer_minute_transactions AS m (minute, chain_id, transactions, txfee)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::numeric[])
       ON CONFLICT (minute, chain_id) DO UPDATE SET transactions = m.transactions + EXCLUDED.transactions, txfee = m.txfee + EXCLUDED.txfee`,
      [arrayLiteral(rows.map((r) => r.minute)), arrayLiteral(rows.map((r) => r.chainId)), arrayLiteral(rows.map((r) => r.transactions)), arrayLiteral(rows.map((r) => r.txfee.toString()))],
    );
  }
  if (groups.size === 0 && owners.size === 0) return;
  const sums = byKey(groups);
  const owned = [...owners.keys()].sort().map((k) => owners.get(k)!);
  // One upsert per (minute, chain, asset): the outputs' sums and the owners new to it together.
  await writes.query(
    `WITH new_owners AS (
       INSERT INTO explorer_minute_owners (minute, chain_id, asset_id, address)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[])
       ON CONFLICT DO NOTHING RETURNING minute, chain_id, asset_id),
     owner_counts AS (SELECT minute, chain_id, asset_id, count(*) AS owners FROM new_owners GROUP BY 1, 2, 3),
     sums AS (SELECT * FROM unnest($5::bigint[], $6::text[], $7::text[], $8::numeric[], $9::bigint[], $10::bigint[]) AS s(minute, chain_id, asset_id, volume, outputs, transactions))
     INSERT INTO explorer_minute_outputs AS m (minute, chain_id, asset_id, volume, outputs, transactions, owners)
     SELECT coalesce(s.minute, c.minute), coalesce(s.chain_id, c.chain_id), coalesce(s.asset_id, c.asset_id),
            coalesce(s.volume, 0), coalesce(s.outputs, 0), coalesce(s.transactions, 0), coalesce(c.owners, 0)
       FROM sums s FULL JOIN owner_counts c ON c.minute = s.minute AND c.chain_id = s.chain_id AND c.asset_id = s.asset_id
      ORDER BY 1, 2, 3
     ON CONFLICT (minute, chain_id, asset_id) DO UPDATE SET volume = m.volume + EXCLUDED.volume, outputs = m.outputs + EXCLUDED.outputs,
       transactions = m.transactions + EXCLUDED.transactions, owners = m.owners + EXCLUDED.owners`,
    [
      ...[0, 1, 2, 3].map((column) => arrayLiteral(owned.map((r) => r[column]!))),
      arrayLiteral(sums.map((s) => s.minute)),
      arrayLiteral(sums.map((s) => s.chainId)),
      arrayLiteral(sums.map((s) => s.assetId)),
      arrayLiteral(sums.map((s) => s.volume.toString())),
      arrayLiteral(sums.map((s) => s.outputs)),
      arrayLiteral(sums.map((s) => s.transactions.size)),
    ],
  );
}
