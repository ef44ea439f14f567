/**
 * Many rows in one statement: each column is sent as ONE array parameter and the rows are
 * rebuilt by `unnest`, so a page of thousands of rows is a handful of parameters to bind instead
 * of one per value (PostgreSQL also caps a statement at 65535 of those). Arrays need the element
 * type, so every column the ingester writes has its type here, as the schema declares it.
 */
import type { SqlQueries, SqlRow, SqlValue } from "../../sql/database";

const COLUMN_TYPES: Record<string, Record<string, string>> = {
  explorer_containers: { index_name: "text", container_index: "bigint", container_id: "text", bytes: "text", accepted_at: "bigint" },
  transactions: {
    id: "text",
    chain_id: "text",
    type: "text",
    memo: "text",
    tx_fee: "numeric",
    genesis: "boolean",
    accepted_at: "bigint",
    block_id: "text",
    source_chain_id: "text",
    destination_chain_id: "text",
    bytes: "text",
  },
  outputs: {
    id: "text",
    transaction_id: "text",
    output_index: "integer",
    chain_id: "text",
    created_on_chain_id: "text",
    asset_id: "text",
    output_type: "bigint",
    amount: "numeric",
    locktime: "bigint",
    threshold: "integer",
    group_id: "integer",
    payload: "text",
    stake: "boolean",
    accepted_at: "bigint",
    sole_owner: "text",
  },
  output_addresses: { output_id: "text", address: "text", position: "integer" },
  transaction_inputs: { transaction_id: "text", position: "integer", output_id: "text" },
  input_credentials: { transaction_id: "text", input_position: "integer", position: "integer", address: "text", public_key: "text", signature: "text" },
  assets: { id: "text", chain_id: "text", name: "text", symbol: "text", alias: "text", denomination: "integer", variable_cap: "integer", nft: "integer", accepted_at: "bigint", transaction_id: "text" },
  addresses: { address: "text", public_key: "text" },
  address_transactions: { address: "text", transaction_id: "text", chain_id: "text", accepted_at: "bigint", sequence: "bigint" },
  transaction_documents: { id: "text", complete: "boolean", doc: "text" },
  address_chain: { address: "text", chain_id: "text", first_seen_at: "bigint" },
  p_blocks: { id: "text", height: "bigint", parent_id: "text", type: "text", accepted_at: "bigint", bytes: "text" },
  c_blocks: {
    number: "bigint",
    hash: "text",
    parent_hash: "text",
    sha3_uncles: "text",
    miner: "text",
    state_root: "text",
    transactions_root: "text",
    receipts_root: "text",
    logs_bloom: "text",
    difficulty: "numeric",
    gas_limit: "numeric",
    gas_used: "numeric",
    timestamp: "bigint",
    extra_data: "text",
    mix_hash: "text",
    nonce: "text",
    ext_data_hash: "text",
    base_fee_per_gas: "numeric",
    ext_data_gas_used: "numeric",
    block_gas_cost: "numeric",
    transaction_count: "integer",
    accepted_at: "bigint",
  },
  c_transactions: {
    hash: "text",
    block_number: "bigint",
    transaction_index: "integer",
    type: "integer",
    nonce: "numeric",
    gas_price: "numeric",
    max_fee_per_gas: "numeric",
    max_priority_fee_per_gas: "numeric",
    gas_limit: "numeric",
    value: "numeric",
    input: "text",
    from_addr: "text",
    to_addr: "text",
    v: "text",
    r: "text",
    s: "text",
    created_at: "bigint",
    status: "integer",
    gas_used: "numeric",
    cumulative_gas_used: "numeric",
    effective_gas_price: "numeric",
    contract_address: "text",
    logs_bloom: "text",
  },
  c_logs: { transaction_hash: "text", log_index: "integer", block_number: "bigint", address: "text", topics: "text", data: "text" },
};

/** An array literal of any values as one parameter: every text element quoted, null as NULL. */
export function arrayLiteral(values: readonly SqlValue[]): string {
  return `{${values.map(element).join(",")}}`;
}

/**
 * One element: a number as it is (no array syntax in it), text quoted; the escaping pass only for
 * the rare text holding a quote or backslash (two `indexOf`s: the page's long hex texts are
 * scanned faster so than by a regular expression).
 */
function element(value: SqlValue): string {
  if (value === null) return "NULL";
  if (typeof value === "number") return String(value);
  return value.indexOf('"') === -1 && value.indexOf("\\") === -1 ? `"${value}"` : `"${value.replace(/[\\"]/g, "\\$&")}"`;
}

/** A statement and its parameters, built before it is sent. */
export interface SqlStatement {
  text: string;
  params: SqlValue[];
}

/** The insert of the rows (ignoring those already there, or as `onConflict` says), answering the rows `returning` names; undefined for no rows. */
export function insertStatement(table: string, columns: readonly string[], rows: readonly SqlValue[][], onConflict = "ON CONFLICT DO NOTHING", returning = ""): SqlStatement | undefined {
  if (rows.length === 0) return undefined;
  const types = COLUMN_TYPES[table];
  if (types === undefined) throw new Error(`no column types for the table ${table}`);
  const arrays = columns.map((column, i) => {
    const type = types[column];
    if (type === undefined) throw new Error(`no type for ${table}.${column}`);
    return { param: arrayLiteral(rows.map((row) => row[i] ?? null)), cast: `$${i + 1}::${type}[]` };
  });
  return {
    text: `INSERT INTO ${table} (${columns.join(", ")}) SELECT * FROM unnest(${arrays.map((a) => a.cast).join(", ")}) ${onConflict} ${returning}`,
    params: arrays.map((a) => a.param),
  };
}

/** Runs a statement built before (none: no rows, none answered). */
export async function run(q: SqlQueries, statement: SqlStatement | undefined): Promise<SqlRow[]> {
  return statement === undefined ? [] : q.query(statement.text, statement.params);
}

/** Inserts the rows (ignoring those already there, or as `onConflict` says); answers the rows `returning` names. */
export async function insertRows(q: SqlQueries, table: string, columns: readonly string[], rows: readonly SqlValue[][], onConflict = "ON CONFLICT DO NOTHING", returning = ""): Promise<SqlRow[]> {
  return run(q, insertStatement(table, columns, rows, onConflict, returning));
}
