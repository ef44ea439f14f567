/**
 * Contract-chain transactions with their receipts and logs. Amounts and quantities are decimal
 * strings like every amount of the explorer. A list is ordered newest first by block number,
 * then index (its keyset).
 */
import type { SqlQueries, SqlRow } from "../../sql/database";
import type { CLogRecord, CTransactionRecord } from "../records";
import { afterCursor, pageOf } from "./cursor";
import type { CTransactionsParams, Page } from "./parameters";
import { SqlParams, groupBy, int, isoTime, nullableText, text } from "./sql";

export const C_TRANSACTION_COLUMNS = `c.hash, c.block_number::text AS block_number, c.transaction_index, c.type, c.nonce::text AS nonce,
  c.gas_price::text AS gas_price, c.max_fee_per_gas::text AS max_fee_per_gas, c.max_priority_fee_per_gas::text AS max_priority_fee_per_gas,
  c.gas_limit::text AS gas_limit, c.value::text AS value, c.input, c.from_addr, c.to_addr, c.v, c.r, c.s, c.created_at::text AS created_at,
  c.status, c.gas_used::text AS gas_used, c.cumulative_gas_used::text AS cumulative_gas_used,
  c.effective_gas_price::text AS effective_gas_price, c.contract_address, c.logs_bloom, b.hash AS block_hash`;

export async function cTransactionRecords(db: SqlQueries, rows: readonly SqlRow[]): Promise<CTransactionRecord[]> {
  if (rows.length === 0) return [];
  const params = new SqlParams();
  const logs = await db.query(
    `SELECT transaction_hash, log_index, block_number::text AS block_number, address, topics, data FROM c_logs
     WHERE transaction_hash = ANY(${params.bindList(rows.map((r) => text(r, "hash")))}) ORDER BY block_number, log_index`,
    params.values,
  );
  const logsOf = groupBy(logs, "transaction_hash");
  return rows.map((row) => {
    const hash = text(row, "hash");
    const blockHash = text(row, "block_hash");
    const index = text(row, "transaction_index");
    return {
      type: int(row, "type"),
      block: text(row, "block_number"),
      hash,
      createdAt: isoTime(row.created_at),
      nonce: text(row, "nonce"),
      gasPrice: nullableText(row, "gas_price"),
      maxFeePerGas: nullableText(row, "max_fee_per_gas"),
      maxPriorityFeePerGas: nullableText(row, "max_priority_fee_per_gas"),
      gasLimit: text(row, "gas_limit"),
      value: text(row, "value"),
      input: text(row, "input"),
      fromAddr: text(row, "from_addr"),
      toAddr: text(row, "to_addr"),
      v: text(row, "v"),
      r: text(row, "r"),
      s: text(row, "s"),
      receipt: {
        root: "",
        status: text(row, "status"),
        cumulativeGasUsed: text(row, "cumulative_gas_used"),
        logsBloom: text(row, "logs_bloom"),
        logs: (logsOf.get(hash) ?? []).map(
          (log): CLogRecord => ({
            address: text(log, "address"),
            topics: JSON.parse(text(log, "topics")) as string[],
            data: text(log, "data"),
            blockNumber: text(log, "block_number"),
            transactionHash: hash,
            transactionIndex: index,
            blockHash,
            logIndex: text(log, "log_index"),
            removed: false,
          }),
        ),
        type: text(row, "type"),
        transactionHash: hash,
        contractAddress: text(row, "contract_address"),
        transactionIndex: index,
        gasUsed: text(row, "gas_used"),
        blockHash,
        blockNumber: text(row, "block_number"),
        effectiveGasPrice: text(row, "effective_gas_price"),
      },
    };
  });
}

export async function readCTransaction(db: SqlQueries, hash: string): Promise<CTransactionRecord | undefined> {
  const rows = await db.query(`SELECT ${C_TRANSACTION_COLUMNS} FROM c_transactions c JOIN c_blocks b ON b.number = c.block_number WHERE c.hash = $1`, [hash]);
  const [record] = await cTransactionRecords(db, rows);
  return record;
}

export async function listCTransactions(db: SqlQueries, p: CTransactionsParams): Promise<Page<CTransactionRecord>> {
  const params = new SqlParams();
  const where = [`c.created_at >= ${params.bind(p.startTime)}`, `c.created_at <= ${params.bind(p.endTime)}`];
  if (p.toAddress !== undefined) where.push(`c.to_addr = ${params.bind(p.toAddress)}`);
  if (p.fromAddress !== undefined) where.push(`c.from_addr = ${params.bind(p.fromAddress)}`);
  if (p.address !== undefined) {
    const address = params.bind(p.address);
    where.push(`(c.from_addr = ${address} OR c.to_addr = ${address})`);
  }
  if (p.hash !== undefined) where.push(`c.hash = ${params.bind(p.hash)}`);
  if (p.query !== undefined) where.push(`starts_with(c.hash, ${params.bind(p.query)})`);
  if (p.blockStart !== undefined) where.push(`c.block_number >= ${params.bind(p.blockStart)}`);
  if (p.blockEnd !== undefined) where.push(`c.block_number < ${params.bind(p.blockEnd)}`);
  if (p.cursor !== undefined) where.push(afterCursor((v) => params.bind(v), p.cursor, [["c.block_number", "bigint"], ["c.transaction_index", "integer"]], true));
  const rows = await db.query(
    `SELECT ${C_TRANSACTION_COLUMNS} FROM c_transactions c JOIN c_blocks b ON b.number = c.block_number
     WHERE ${where.join(" AND ")} ORDER BY c.block_number DESC, c.transaction_index DESC LIMIT ${params.bind(p.limit + 1)}`,
    params.values,
  );
  return pageOf(rows, p.limit, (r) => [Number(r.block_number), int(r, "transaction_index")], (shown) => cTransactionRecords(db, shown));
}
