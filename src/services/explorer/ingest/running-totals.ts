/**
 * The running totals (schema-totals.ts, schema-totals-sets.ts: `address_asset_totals`, its
 * ledger `address_asset_transactions`, `asset_totals`) moved by the ingester for its page, in
 * the page's SQL transaction, from the rows it has in hand. Why: the three statement triggers
 * joined every added owner row and every redeemed output back to `outputs` and `transactions`
 * and took about a third of the server's CPU per container; here the changes are summed in the
 * process and written in ONE statement. The triggers stand aside in a SQL transaction that says
 * so (`explorer.ingester_totals`, schema-ingest-totals.ts) and still keep the totals of any
 * other writer.
 *
 * Counting stays as the triggers count:
 * - an owner row added counts its output for the owner, on the output's chain and over all
 *   chains (''): received, and held (balance, one UTXO) or sent as the output stands then (the
 *   ingester adds owners before it links spends, so a new output is held then);
 * - an output whose redeeming transaction is set moves from held to sent for every owner;
 * - a (address, asset, transaction, chain) row new to the ledger adds a transaction on that
 *   chain, and over all chains once per (address, asset, transaction) the ledger held on no
 *   chain before (summing the triggers' statements of a page gives the same counts as one);
 * - but a transaction this page added and closed (closedTransactions: every input linked here)
 *   gains no row later, so its rows are counted here and not written to the ledger: the ledger
 *   held none of them (its rows come from its outputs, added with it, and from outputs linked to
 *   its inputs, all linked here) and no later page adds one (an output is linked once; its
 *   outputs' owners are added with them). The ledger is then the rows of transactions that may
 *   still gain rows (an import stored before the export it spends), not one per address, asset
 *   and transaction: that was a row and a wide index entry per owner and transaction, the
 *   page's largest statement and one growing with the chain.
 * - an asset's supply: a new output adds its amount, less it when the contract chain created
 *   it; a redeemed one takes its amount away unless the contract chain spent it (the contract
 *   chain's ID read by the statement, from `chains`, as the triggers read it).
 */
import type { SqlQueries } from "../../sql/database";
import { arrayLiteral } from "./bulk-insert";
import type { TransactionRow } from "./rows";

export const INGESTER_TOTALS_SETTING = "explorer.ingester_totals";

/** An output as the totals need it. */
export interface TotalledOutput {
  assetId: string;
  amount: bigint;
  /** The chain whose UTXO set holds it (`outputs.chain_id`). */
  chainId: string;
  transactionId: string;
}

/** An output whose redeeming transaction this page set (an UPDATE's RETURNING row). */
export interface RedeemedOutput extends TotalledOutput {
  id: string;
  redeemerId: string;
  redeemerChainId: string;
}

/** What a page changed, as the inserts and links answered it. */
export interface PageChanges {
  txs: readonly TransactionRow[];
  /** Outputs this SQL transaction inserted. */
  newOutputs: ReadonlySet<string>;
  /** Owner rows (output ID, address) this SQL transaction inserted. */
  newOwners: readonly (readonly [outputId: string, address: string])[];
  redeemed: readonly RedeemedOutput[];
  /** Owners of outputs not inserted by this page, as stored (by output ID). */
  storedOwners: ReadonlyMap<string, readonly string[]>;
  /** Outputs not inserted by this page that gained owner rows, as they stood (unredeemed or by whom). */
  storedOutputs: ReadonlyMap<string, TotalledOutput & { redeemerId: string | null }>;
  /** Transactions this page inserted whose every input it linked (closedTransactions). */
  closed: ReadonlySet<string>;
}

/** The transactions inserted by this page whose inputs were all linked by it: no row of the ledger will name them later. */
export function closedTransactions(txs: readonly TransactionRow[], inserted: ReadonlySet<string>, redeemed: readonly RedeemedOutput[]): Set<string> {
  const linked = new Set(redeemed.map((r) => `${r.redeemerId} ${r.id}`));
  return new Set(txs.filter((t) => inserted.has(t.id) && t.inputs.every((i) => linked.has(`${t.id} ${i.outputId}`))).map((t) => t.id));
}

/** A change of an asset's supply; with a chain, only when that chain is the contract chain. */
interface SupplyChange {
  assetId: string;
  chainId: string | null;
  change: bigint;
}

interface Money {
  address: string;
  chainId: string;
  assetId: string;
  received: bigint;
  sent: bigint;
  balance: bigint;
  utxos: number;
  /** Transactions counted in the page (closed ones; the ledger's are counted by the statement). */
  transactions: number;
}

/** The output IDs whose owner rows were added by this page although the output was stored before. */
export function ownersOfStoredOutputs(newOutputs: ReadonlySet<string>, newOwners: readonly (readonly [string, string])[]): string[] {
  return [...new Set(newOwners.map(([outputId]) => outputId).filter((id) => !newOutputs.has(id)))];
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The changes in rows: money per (address, chain, asset), ledger candidates, supply per asset. */
function summed(page: PageChanges): { money: Money[]; ledger: string[][]; supply: SupplyChange[] } {
  const money = new Map<string, Money>();
  const ledger = new Map<string, string[]>();
  // Per asset, and per asset and chain what counts only when that chain is the contract chain.
  const supply = new Map<string, SupplyChange>();
  const addSupply = (assetId: string, chainId: string | null, change: bigint) => {
    const key = `${assetId} ${chainId ?? ""}`;
    const entry = supply.get(key) ?? { assetId, chainId, change: 0n };
    entry.change += change;
    supply.set(key, entry);
  };
  const move = (address: string, output: TotalledOutput, change: { received: bigint; sent: bigint; balance: bigint; utxos: number }) => {
    for (const chainId of [output.chainId, ""]) {
      const key = `${address} ${chainId} ${output.assetId}`;
      const entry = money.get(key) ?? { address, chainId, assetId: output.assetId, received: 0n, sent: 0n, balance: 0n, utxos: 0, transactions: 0 };
      entry.received += change.received;
      entry.sent += change.sent;
      entry.balance += change.balance;
      entry.utxos += change.utxos;
      money.set(key, entry);
    }
  };
  // Rows of closed transactions: counted here, once per chain and once over all chains.
  const countedHere = new Set<string>();
  const count = (address: string, output: TotalledOutput, transactionId: string) => {
    if (!page.closed.has(transactionId)) {
      ledger.set(`${address} ${output.assetId} ${transactionId} ${output.chainId}`, [address, output.assetId, transactionId, output.chainId]);
      return;
    }
    for (const chainId of [output.chainId, ""]) {
      const key = `${address} ${chainId} ${output.assetId}`;
      if (countedHere.has(`${key} ${transactionId}`)) continue;
      countedHere.add(`${key} ${transactionId}`);
      const entry = money.get(key) ?? { address, chainId, assetId: output.assetId, received: 0n, sent: 0n, balance: 0n, utxos: 0, transactions: 0 };
      entry.transactions += 1;
      money.set(key, entry);
    }
  };
  const created = new Map<string, TotalledOutput>();
  for (const t of page.txs) {
    for (const o of t.outputs) {
      if (!page.newOutputs.has(o.id) || created.has(o.id)) continue;
      created.set(o.id, o);
      addSupply(o.assetId, null, o.amount);
      addSupply(o.assetId, t.chainId, -o.amount);
    }
  }
  for (const [outputId, address] of page.newOwners) {
    const fresh = created.get(outputId);
    const stored = fresh === undefined ? page.storedOutputs.get(outputId) : undefined;
    const output = fresh ?? stored;
    if (output === undefined) throw new Error(`the owner ${address} of ${outputId} was added, but its output is neither in the page nor stored`);
    const redeemerId = stored?.redeemerId ?? null;
    count(address, output, output.transactionId);
    if (redeemerId === null) move(address, output, { received: output.amount, sent: 0n, balance: output.amount, utxos: 1 });
    else {
      count(address, output, redeemerId);
      move(address, output, { received: output.amount, sent: output.amount, balance: 0n, utxos: 0 });
    }
  }
  const ownersOf = new Map<string, string[]>();
  for (const [outputId, address] of page.newOwners) if (created.has(outputId)) ownersOf.set(outputId, [...(ownersOf.get(outputId) ?? []), address]);
  for (const r of page.redeemed) {
    const owners = created.has(r.id) ? (ownersOf.get(r.id) ?? []) : page.storedOwners.get(r.id);
    if (owners === undefined) throw new Error(`the owners of the redeemed output ${r.id} were not read`);
    for (const address of owners) {
      count(address, r, r.redeemerId);
      move(address, r, { received: 0n, sent: r.amount, balance: -r.amount, utxos: -1 });
    }
    addSupply(r.assetId, null, -r.amount);
    addSupply(r.assetId, r.redeemerChainId, r.amount);
  }
  const byKey = <T>(entries: Map<string, T>): T[] => [...entries.keys()].sort(compare).map((k) => entries.get(k)!);
  return { money: byKey(money), ledger: byKey(ledger), supply: byKey(supply) };
}

/**
 * Writes the page's changes to the running totals: the ledger rows new to it counted, the money
 * moved and the supplies, in one statement (a data-modifying CTE runs whether or not it is read).
 */
export async function writeRunningTotals(q: SqlQueries, page: PageChanges): Promise<void> {
  const { money, ledger, supply } = summed(page);
  if (money.length === 0 && ledger.length === 0 && supply.length === 0) return;
  // The ledger's NOT EXISTS sees the table as it was before the statement (a CTE's inserts are
  // not visible to the rest of it): over all chains, a transaction counts once per address and asset.
  await q.query(
    `WITH counted AS (
       INSERT INTO address_asset_transactions (address, asset_id, transaction_id, chain_id)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
       ON CONFLICT DO NOTHING RETURNING address, asset_id, transaction_id, chain_id),
     supply AS (
       INSERT INTO asset_totals AS s (asset_id, supply)
       SELECT u.asset_id, sum(u.change) FROM unnest($12::text[], $13::text[], $14::numeric[]) AS u(asset_id, chain_id, change)
        WHERE u.chain_id IS NULL OR u.chain_id = (SELECT id FROM chains WHERE alias = 'C')
        GROUP BY 1 ORDER BY 1
       ON CONFLICT (asset_id) DO UPDATE SET supply = s.supply + EXCLUDED.supply RETURNING 1),
     changes (address, chain_id, asset_id, received, sent, balance, utxos, transactions) AS (
       SELECT m.* FROM unnest($5::text[], $6::text[], $7::text[], $8::numeric[], $9::numeric[], $10::numeric[], $11::bigint[], $15::bigint[]) AS m
       UNION ALL
       SELECT address, chain_id, asset_id, 0, 0, 0, 0, count(*) FROM counted GROUP BY 1, 2, 3
       UNION ALL
       SELECT c.address, '', c.asset_id, 0, 0, 0, 0, count(DISTINCT c.transaction_id) FROM counted c
        WHERE NOT EXISTS (SELECT 1 FROM address_asset_transactions l WHERE l.address = c.address AND l.asset_id = c.asset_id AND l.transaction_id = c.transaction_id)
        GROUP BY 1, 3)
     INSERT INTO address_asset_totals AS t (address, chain_id, asset_id, received, sent, balance, utxos, transactions)
     SELECT address, chain_id, asset_id, sum(received), sum(sent), sum(balance), sum(utxos), sum(transactions)
       FROM changes GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
     ON CONFLICT (address, chain_id, asset_id) DO UPDATE SET received = t.received + EXCLUDED.received, sent = t.sent + EXCLUDED.sent,
       balance = t.balance + EXCLUDED.balance, utxos = t.utxos + EXCLUDED.utxos, transactions = t.transactions + EXCLUDED.transactions`,
    [
      ...[0, 1, 2, 3].map((column) => arrayLiteral(ledger.map((row) => row[column]!))),
      arrayLiteral(money.map((m) => m.address)),
      arrayLiteral(money.map((m) => m.chainId)),
      arrayLiteral(money.map((m) => m.assetId)),
      arrayLiteral(money.map((m) => m.received.toString())),
      arrayLiteral(money.map((m) => m.sent.toString())),
      arrayLiteral(money.map((m) => m.balance.toString())),
      arrayLiteral(money.map((m) => m.utxos)),
      arrayLiteral(supply.map((c) => c.assetId)),
      arrayLiteral(supply.map((c) => c.chainId)),
      arrayLiteral(supply.map((c) => c.change.toString())),
      arrayLiteral(money.map((m) => m.transactions)),
    ],
  );
}
