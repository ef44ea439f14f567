/**
 * Contract-chain blocks: one with its header and transactions (`/ctxdata`), and the `/cblocks`
 * summary — blocks newest first and, separately limited, transactions newest first, both within
 * the exclusive block range (the seed's two `limit` parameters).
 */
import type { SqlQueries, SqlRow } from "../../sql/database";
import type { CBlockRecord, CBlockSummary, CBlocksAnswer, CTransactionSummary } from "../records";
import { C_TRANSACTION_COLUMNS, cTransactionRecords } from "./c-transactions";
import type { CBlocksParams } from "./parameters";
import { SqlParams, int, isoTime, nullableText, text } from "./sql";

const BLOCK_COLUMNS = `number::text AS number, hash, parent_hash, sha3_uncles, miner, state_root, transactions_root, receipts_root,
  logs_bloom, difficulty::text AS difficulty, gas_limit::text AS gas_limit, gas_used::text AS gas_used, timestamp::text AS timestamp,
  extra_data, mix_hash, nonce, ext_data_hash, base_fee_per_gas::text AS base_fee_per_gas,
  ext_data_gas_used::text AS ext_data_gas_used, block_gas_cost::text AS block_gas_cost, transaction_count, accepted_at::text AS accepted_at`;

/** The block at this height, or the latest; undefined when not indexed. */
export async function readCBlock(db: SqlQueries, height: number | "latest"): Promise<CBlockRecord | undefined> {
  const rows =
    height === "latest"
      ? await db.query(`SELECT ${BLOCK_COLUMNS} FROM c_blocks ORDER BY c_blocks.number DESC LIMIT 1`)
      : await db.query(`SELECT ${BLOCK_COLUMNS} FROM c_blocks WHERE number = $1`, [height]);
  const row = rows[0];
  if (row === undefined) return undefined;
  const transactions = await db.query(
    `SELECT ${C_TRANSACTION_COLUMNS} FROM c_transactions c JOIN c_blocks b ON b.number = c.block_number WHERE c.block_number = $1 ORDER BY c.transaction_index`,
    [text(row, "number")],
  );
  return {
    hash: text(row, "hash"),
    header: {
      parentHash: text(row, "parent_hash"),
      sha3Uncles: text(row, "sha3_uncles"),
      miner: text(row, "miner"),
      stateRoot: text(row, "state_root"),
      transactionsRoot: text(row, "transactions_root"),
      receiptsRoot: text(row, "receipts_root"),
      logsBloom: text(row, "logs_bloom"),
      difficulty: text(row, "difficulty"),
      number: text(row, "number"),
      gasLimit: text(row, "gas_limit"),
      gasUsed: text(row, "gas_used"),
      timestamp: text(row, "timestamp"),
      extraData: text(row, "extra_data"),
      mixHash: text(row, "mix_hash"),
      nonce: text(row, "nonce"),
      extDataHash: text(row, "ext_data_hash"),
      baseFeePerGas: nullableText(row, "base_fee_per_gas"),
      extDataGasUsed: nullableText(row, "ext_data_gas_used"),
      blockGasCost: nullableText(row, "block_gas_cost"),
      hash: text(row, "hash"),
    },
    transactions: await cTransactionRecords(db, transactions),
  };
}

export function cBlockSummary(row: SqlRow): CBlockSummary {
  return {
    hash: text(row, "hash"),
    miner: text(row, "miner"),
    difficulty: text(row, "difficulty"),
    number: text(row, "number"),
    gasLimit: text(row, "gas_limit"),
    gasUsed: text(row, "gas_used"),
    timestamp: isoTime(Number(row.timestamp) * 1000),
    baseFeePerGas: nullableText(row, "base_fee_per_gas"),
    extDataGasUsed: nullableText(row, "ext_data_gas_used"),
    blockGasCost: nullableText(row, "block_gas_cost"),
    evmTx: int(row, "transaction_count"),
  };
}

function cTransactionSummary(row: SqlRow): CTransactionSummary {
  const dynamicFee = row.max_fee_per_gas !== null && row.max_fee_per_gas !== undefined;
  return {
    type: int(row, "type"),
    block: text(row, "block_number"),
    index: int(row, "transaction_index"),
    hash: text(row, "hash"),
    nonce: text(row, "nonce"),
    ...(dynamicFee ? { maxFeePerGas: text(row, "max_fee_per_gas"), maxPriorityFeePerGas: text(row, "max_priority_fee_per_gas") } : { gasPrice: text(row, "gas_price") }),
    gas: text(row, "gas_limit"),
    value: text(row, "value"),
    from: text(row, "from_addr"),
    to: text(row, "to_addr"),
    timestamp: isoTime(row.created_at),
    status: int(row, "status"),
    gasUsed: text(row, "gas_used"),
  };
}

/** A block-number range, exclusive at both ends, as SQL on `column`. */
function rangeSql(params: SqlParams, column: string, p: CBlocksParams): string[] {
  const where: string[] = [];
  if (p.blockStart !== undefined) where.push(`${column} > ${params.bind(p.blockStart)}`);
  if (p.blockEnd !== undefined) where.push(`${column} < ${params.bind(p.blockEnd)}`);
  return where;
}

export async function listCBlocks(db: SqlQueries, p: CBlocksParams): Promise<CBlocksAnswer> {
  let blocks: SqlRow[] = [];
  if (p.blockLimit > 0) {
    const params = new SqlParams();
    const where = rangeSql(params, "number", p);
    blocks = await db.query(
      `SELECT ${BLOCK_COLUMNS} FROM c_blocks ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY c_blocks.number DESC LIMIT ${params.bind(p.blockLimit)}`,
      params.values,
    );
  }
  let transactions: SqlRow[] = [];
  if (p.transactionLimit > 0) {
    const params = new SqlParams();
    const where = rangeSql(params, "c.block_number", p);
    if (p.addresses.length > 0) {
      const addresses = params.bindList(p.addresses);
      where.push(`(c.from_addr = ANY(${addresses}) OR c.to_addr = ANY(${addresses}))`);
    }
    if (p.transactionId !== undefined) {
      // Start at this index within the newest block of the range, then go down.
      const top = `(SELECT max(c2.block_number) FROM c_transactions c2 WHERE ${["true", ...rangeSql(params, "c2.block_number", p)].join(" AND ")})`;
      where.push(`(c.block_number, c.transaction_index) <= (${top}, ${params.bind(p.transactionId)}::integer)`);
    }
    transactions = await db.query(
      `SELECT ${C_TRANSACTION_COLUMNS} FROM c_transactions c JOIN c_blocks b ON b.number = c.block_number
       ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY c.block_number DESC, c.transaction_index DESC LIMIT ${params.bind(p.transactionLimit)}`,
      params.values,
    );
  }
  return {
    blockCount: blocks.length,
    transactionCount: transactions.length,
    blocks: blocks.map(cBlockSummary),
    transactions: transactions.map(cTransactionSummary),
  };
}

/** The summary of the block with this hash or number, for search. */
export async function findCBlock(db: SqlQueries, by: { hash: string } | { number: number }): Promise<CBlockSummary | undefined> {
  const rows = "hash" in by ? await db.query(`SELECT ${BLOCK_COLUMNS} FROM c_blocks WHERE hash = $1`, [by.hash]) : await db.query(`SELECT ${BLOCK_COLUMNS} FROM c_blocks WHERE number = $1`, [by.number]);
  return rows[0] === undefined ? undefined : cBlockSummary(rows[0]);
}
