/**
 * Exchange- and platform-chain addresses: per asset, the balance (unspent outputs it owns), what
 * it received and sent, its unspent output count and the number of transactions that created or
 * spent its outputs — read from the running totals the ingester keeps per chain and over all
 * chains (ingest/totals.ts); only a lookup over two chains of three is summed from the outputs
 * (the totals of a subset cannot be added: one transaction may touch both). An address is known once it owned an output,
 * signed an input or was linked to a chain (receive-only addresses included). Lists answer one
 * record per address and chain (the reference's shape), ordered by address, then chain.
 */
import type { SqlQueries, SqlRow } from "../../sql/database";
import type { AddressAssetRecord, AddressRecord } from "../records";
import { JsonText } from "../json-text";
import { afterCursor, encodeCursor } from "./cursor";
import type { AddressesParams, Page } from "./parameters";
import { SqlParams, int, nullableText, text } from "./sql";

interface AddressKey {
  address: string;
  /** "" when the record is about all chains. */
  chainId: string;
}

/** How the asset statistics are read: per chain (list records), over one chain or all (a lookup), or over several chains. */
type Scope = "per-chain" | "one-or-all" | "several";

/** Asset statistics of these addresses from the running totals, keyed by address and the record's chain. */
async function assetTotalsOf(db: SqlQueries, addresses: readonly string[], chainIds: readonly string[], scope: "per-chain" | "one-or-all"): Promise<Map<string, Record<string, AddressAssetRecord>>> {
  const params = new SqlParams();
  const chains = scope === "one-or-all" ? (chainIds.length === 1 ? chainIds[0]! : "") : undefined;
  const chainFilter = chains === undefined ? `chain_id = ANY(${params.bindList(chainIds)})` : `chain_id = ${params.bind(chains)}`;
  const rows = await db.query(
    `SELECT address, ${scope === "per-chain" ? "chain_id" : "''"} AS chain_id, asset_id, received::text AS received, sent::text AS sent, balance::text AS balance, utxos, transactions
     FROM address_asset_totals WHERE address = ANY(${params.bindList(addresses)}) AND ${chainFilter} ORDER BY 1, 2, 3`,
    params.values,
  );
  return recordsByKey(rows);
}

function recordsByKey(rows: readonly SqlRow[]): Map<string, Record<string, AddressAssetRecord>> {
  const byKey = new Map<string, Record<string, AddressAssetRecord>>();
  for (const row of rows) {
    const key = `${text(row, "address")} ${text(row, "chain_id")}`;
    const assets = byKey.get(key) ?? {};
    const id = text(row, "asset_id");
    assets[id] = {
      id,
      transactionCount: int(row, "transactions"),
      utxoCount: int(row, "utxos"),
      balance: text(row, "balance"),
      totalReceived: text(row, "received"),
      totalSent: text(row, "sent"),
    };
    byKey.set(key, assets);
  }
  return byKey;
}

/** Asset statistics of these addresses over several chains, summed from their outputs. */
async function summedAssetsOf(db: SqlQueries, addresses: readonly string[], chainIds: readonly string[]): Promise<Map<string, Record<string, AddressAssetRecord>>> {
  const params = new SqlParams();
  const rows = await db.query(
    `SELECT oa.address, '' AS chain_id, o.asset_id,
       coalesce(sum(o.amount) FILTER (WHERE tx.created), 0)::text AS received,
       coalesce(sum(o.amount) FILTER (WHERE tx.created AND o.redeeming_transaction_id IS NOT NULL), 0)::text AS sent,
       coalesce(sum(o.amount) FILTER (WHERE tx.created AND o.redeeming_transaction_id IS NULL), 0)::text AS balance,
       count(*) FILTER (WHERE tx.created AND o.redeeming_transaction_id IS NULL) AS utxos,
       count(DISTINCT tx.id) AS transactions
     FROM output_addresses oa JOIN outputs o ON o.id = oa.output_id
     CROSS JOIN LATERAL (VALUES (true, o.transaction_id), (false, o.redeeming_transaction_id)) AS tx(created, id)
     WHERE oa.address = ANY(${params.bindList(addresses)}) AND o.chain_id = ANY(${params.bindList(chainIds)})
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    params.values,
  );
  return recordsByKey(rows);
}

async function addressRecords(db: SqlQueries, keys: readonly AddressKey[], chainIds: readonly string[], scope: Scope): Promise<AddressRecord[]> {
  if (keys.length === 0) return [];
  const addresses = [...new Set(keys.map((k) => k.address))];
  const params = new SqlParams();
  const publicKeys = new Map(
    (await db.query(`SELECT address, public_key FROM addresses WHERE address = ANY(${params.bindList(addresses)})`, params.values)).map((r) => [text(r, "address"), nullableText(r, "public_key")]),
  );
  const assets = scope === "several" ? await summedAssetsOf(db, addresses, chainIds) : await assetTotalsOf(db, addresses, chainIds, scope);
  return keys.map((k) => ({ chainID: k.chainId, address: k.address, publicKey: publicKeys.get(k.address) ?? null, assets: assets.get(`${k.address} ${k.chainId}`) ?? {} }));
}

/** Records of known addresses over all chains (chainID ""), in the given order. */
export function addressRecordsOverAllChains(db: SqlQueries, addresses: readonly string[]): Promise<AddressRecord[]> {
  return addressRecords(db, addresses.map((address) => ({ address, chainId: "" })), [], "one-or-all");
}

/**
 * One address: over the given chains (all when empty). The record's chainID is the chain when
 * exactly one is given, else "". Undefined when the explorer has never seen the address.
 */
export async function readAddress(db: SqlQueries, address: string, chainIds: readonly string[]): Promise<AddressRecord | undefined> {
  const known = await db.query(
    `SELECT 1 FROM addresses WHERE address = $1 UNION ALL SELECT 1 FROM address_chain WHERE address = $1
     UNION ALL SELECT 1 FROM output_addresses WHERE address = $1 LIMIT 1`,
    [address],
  );
  if (known.length === 0) return undefined;
  const chainId = chainIds.length === 1 ? chainIds[0]! : "";
  const [record] = await addressRecords(db, [{ address, chainId: "" }], chainIds, chainIds.length > 1 ? "several" : "one-or-all");
  return record === undefined ? undefined : { ...record, chainID: chainId };
}

/**
 * A page of addresses in one statement answering one row: each record as JSON built by the
 * database from the running totals of that chain, joined in the page's order, with the count of
 * keys listed (one more than the page, which only says whether another follows) and the key of
 * its last record for the cursor. One statement instead of three (keys, public keys, totals), and
 * one row of a few values instead of a row per address: on PGlite the cost of a read is mostly
 * per statement and per value answered, not per row touched.
 */
export async function listAddressesText(db: SqlQueries, p: AddressesParams): Promise<{ items: JsonText; next?: string }> {
  const params = new SqlParams();
  const where = [`ac.first_seen_at >= ${params.bind(p.startTime)}`, `ac.first_seen_at <= ${params.bind(p.endTime)}`];
  if (p.chainIds.length > 0) where.push(`ac.chain_id = ANY(${params.bindList(p.chainIds)})`);
  if (p.addresses.length > 0) where.push(`ac.address = ANY(${params.bindList(p.addresses)})`);
  if (p.query !== undefined) where.push(`starts_with(ac.address, ${params.bind(p.query)})`);
  if (p.cursor !== undefined) where.push(afterCursor((v) => params.bind(v), p.cursor, [["ac.address", "text"], ["ac.chain_id", "text"]]));
  const limit = params.bind(p.limit);
  const [row] = await db.query(
    `WITH listed AS (
       SELECT ac.address, ac.chain_id, row_number() OVER (ORDER BY ac.address, ac.chain_id) AS ord FROM address_chain ac
       WHERE ${where.join(" AND ")} ORDER BY ac.address, ac.chain_id LIMIT ${params.bind(p.limit + 1)})
     SELECT string_agg(json_build_object('chainID', k.chain_id, 'address', k.address,
         'publicKey', (SELECT a.public_key FROM addresses a WHERE a.address = k.address),
         'assets', coalesce((SELECT json_object_agg(t.asset_id, json_build_object('id', t.asset_id, 'transactionCount', t.transactions, 'utxoCount', t.utxos,
             'balance', t.balance::text, 'totalReceived', t.received::text, 'totalSent', t.sent::text) ORDER BY t.asset_id)
           FROM address_asset_totals t WHERE t.address = k.address AND t.chain_id = k.chain_id), '{}'))::text, ',' ORDER BY k.ord) AS records,
       (SELECT count(*) FROM listed) AS listed,
       (SELECT address FROM listed WHERE ord = ${limit}) AS last_address, (SELECT chain_id FROM listed WHERE ord = ${limit}) AS last_chain_id
     FROM listed k WHERE k.ord <= ${limit}`,
    params.values,
  );
  const items = new JsonText([`[${row === undefined ? "" : text(row, "records")}]`]);
  if (row === undefined || Number(row.listed ?? 0) <= p.limit) return { items };
  return { items, next: encodeCursor([text(row, "last_address"), text(row, "last_chain_id")]) };
}

/** A page of addresses as records (the web pages' reader; the API answers {@link listAddressesText}). */
export async function listAddresses(db: SqlQueries, p: AddressesParams): Promise<Page<AddressRecord>> {
  const page = await listAddressesText(db, p);
  return { ...page, items: JSON.parse(page.items.text) as AddressRecord[] };
}

/** The chains each address appeared on (every asked address is a key; [] when none). */
export async function readAddressChains(db: SqlQueries, addresses: readonly string[]): Promise<Record<string, string[]>> {
  const params = new SqlParams();
  const rows = await db.query(
    `SELECT address, chain_id FROM address_chain WHERE address = ANY(${params.bindList(addresses)}) ORDER BY address, first_seen_at, chain_id`,
    params.values,
  );
  const chains: Record<string, string[]> = Object.fromEntries(addresses.map((a) => [a, [] as string[]]));
  for (const row of rows) chains[text(row, "address")]!.push(text(row, "chain_id"));
  return chains;
}
