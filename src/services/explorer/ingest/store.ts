/**
 * Writes a batch of decoded containers of one index in ONE SQL transaction: the raw containers,
 * the decoded rows, their documents, per-minute aggregates and running totals (documents.ts,
 * minute-aggregates.ts, running-totals.ts) and the index's progress. A batch is all or nothing, so a restart resumes at
 * `explorer_progress.next_index` and nothing is stored twice; every insert also ignores rows
 * already there (primary keys), so a batch retried after an outage is harmless.
 *
 * Outputs and the inputs spending them may arrive in either order (an import read before the
 * export it spends, on another index): each batch links, both ways, the outputs it stores to
 * the inputs already stored and its inputs to the outputs already stored.
 */
import type { SqlQueries, SqlRow, SqlValue } from "../../sql/database";
import type { ExplorerIndexName } from "./node-source";
import type { CBlockRow, DecodedContainer, TransactionRow } from "./rows";
import { arrayLiteral, insertRows, run } from "./bulk-insert";
import { addressTransactionsStatement, type PreparedBatch, type PreparedTransactions, prepareBatch, prepareTransactions } from "./page-statements";
import { StatementPipeline } from "./pipeline";
import { INGESTER_DOCUMENTS_SETTING, markDocumented, readStoredOutputs, spentElsewhere, writeDocuments } from "./documents";
import { INGESTER_AGGREGATES_SETTING, writeMinuteAggregates } from "./minute-aggregates";
import { closedTransactions, INGESTER_TOTALS_SETTING, ownersOfStoredOutputs, type RedeemedOutput, writeRunningTotals } from "./running-totals";

const amount = (value: bigint | null): string | null => (value === null ? null : value.toString());

/** Stores rows of transactions (of any chain) and links spent outputs both ways. */
export async function storeTransactions(q: SqlQueries, txs: readonly TransactionRow[]): Promise<void> {
  const pipeline = new StatementPipeline(q);
  await takeOverDerivedRows(pipeline.unanswered);
  const prepared = prepareTransactions(txs);
  await sendSharedRows(pipeline, prepared, await sendOwnRows(pipeline, prepared));
  await pipeline.drain();
}

/** What the page's own inserts answered: the rows that were new (a page stored again finds its rows there). */
interface OwnRows {
  newTransactions: ReadonlySet<string>;
  newOutputIds: ReadonlySet<string>;
  newOwners: readonly (readonly [outputId: string, address: string])[];
  /** The highest ingestion sequence this page's transactions got (null: none new). */
  lastSequence: string | null;
}

/** Says, for this SQL transaction, that the ingester writes the minute aggregates, the running totals and the documents itself. */
async function takeOverDerivedRows(q: SqlQueries): Promise<void> {
  const settings = [INGESTER_AGGREGATES_SETTING, INGESTER_TOTALS_SETTING, INGESTER_DOCUMENTS_SETTING];
  await q.query(`SELECT ${settings.map((name) => `set_config('${name}', 'on', true)`).join(", ")}`);
}

/**
 * The rows that are the page's alone (its transactions, outputs, owners, inputs, credentials and
 * address history, all new keys): no other page's SQL transaction writes or waits on them, so
 * they are stored while the page before is still being committed (storeBatch's `after`).
 */
async function sendOwnRows(q: StatementPipeline, prepared: PreparedTransactions): Promise<OwnRows> {
  if (prepared.txs.length === 0) return { newTransactions: new Set(), newOutputIds: new Set(), newOwners: [], lastSequence: null };
  // The three inserts sent before the first answer is awaited.
  const [inserted, newOutputs, ownerRows] = await Promise.all([run(q, prepared.transactions), run(q, prepared.outputsInsert), run(q, prepared.owners)]);
  for (const statement of [prepared.inputs, prepared.credentials]) await run(q.unanswered, statement);
  const sequences = new Map(inserted.map((r) => [String(r.id), String(r.sequence)]));
  await run(q.unanswered, addressTransactionsStatement(prepared.addressTransactions, sequences));
  let last: bigint | null = null;
  for (const text of sequences.values()) {
    const sequence = BigInt(text);
    if (last === null || sequence > last) last = sequence;
  }
  return {
    newTransactions: new Set(sequences.keys()),
    newOutputIds: new Set(newOutputs.map((r) => String(r.id))),
    newOwners: ownerRows.map((r) => [String(r.output_id), String(r.address)] as const),
    lastSequence: last === null ? null : last.toString(),
  };
}

/**
 * The rows other pages write too, once the page before is committed: the links of spent outputs
 * and what was stored before (read), the assets' and addresses' first sightings, the minute
 * aggregates, the running totals and the documents. The statements whose answer the page needs
 * are awaited, the others sent (they run while the next are built); `drain` waits for them.
 */
async function sendSharedRows(q: StatementPipeline, prepared: PreparedTransactions, own: OwnRows): Promise<void> {
  const { txs, outputs } = prepared;
  if (txs.length === 0) return;
  const { newTransactions, newOutputIds, newOwners } = own;
  // Sent in this order, each answer awaited only once everything that does not need it is sent,
  // so the server has statements to run while the minute aggregates, the totals and the documents
  // are summed and written here (they waited for the links' answer with the server idle):
  // - the outputs spent here that the page does not create, as they stand before its links (for
  //   the documents and the totals), and those that gained owners here although stored before;
  const reading = readStoredOutputs(q, [...new Set([...spentElsewhere(txs, newTransactions), ...ownersOfStoredOutputs(newOutputIds, newOwners)])]);
  // - the links (their second statement sees the inputs stored before this page, and this page's
  //   own, which the first has linked already: it links only outputs not linked yet);
  const linking = linkSpends(q, prepared.spends, outputs.filter((o) => newOutputIds.has(o.id) && o.chainId !== o.createdOnChainId));
  // (both are met below, or by the pipeline's first failure)
  reading.catch(() => undefined);
  linking.catch(() => undefined);
  // - the rows no answer is needed from, then the minute aggregates.
  for (const statement of [prepared.assets, prepared.addresses, prepared.addressChains]) await run(q.unanswered, statement);
  await writeMinuteAggregates(q, q.unanswered, txs, newTransactions, newOutputIds, newOwners);
  const stored = await reading;
  const redeemed = await linking;
  const storedOwners = new Map([...stored].map(([id, s]) => [id, s.owners] as const));
  // An output linked here that is neither new nor read above (stored before, spent by an input stored before).
  const unread = redeemed.filter((r) => !newOutputIds.has(r.id) && !storedOwners.has(r.id)).map((r) => r.id);
  if (unread.length > 0) for (const [id, s] of await readStoredOutputs(q, unread)) storedOwners.set(id, s.owners);
  await writeRunningTotals(q.unanswered, {
    txs,
    newOutputs: newOutputIds,
    newOwners,
    redeemed,
    storedOwners,
    storedOutputs: new Map([...stored].map(([id, s]) => [id, { ...s.totalled, redeemerId: s.redeemer }] as const)),
    closed: closedTransactions(txs, newTransactions, redeemed),
  });
  await writeDocuments(q.unanswered, txs, newTransactions, new Map(redeemed.map((r) => [r.id, r.redeemerId])), stored, prepared.createdOutputs);
  await markDocumented(q.unanswered, own.lastSequence);
}

/**
 * Two statements, each led by an index: this page's inputs to the outputs they spend (sent as
 * arrays: the page knows them), and `exported` to inputs stored before them. The second sees what
 * the first linked. Both answer the outputs they linked, for the totals and the documents.
 *
 * `exported` are the outputs this page inserted into another chain's UTXO set: only those can
 * have been spent by an input stored before them. An output held by its creator's chain is spent
 * on that chain, whose index is read in order, so after it (or in its page, which the first
 * statement links); and an output stored before was linked when its spender was stored. Probing
 * every output of the page (an index probe each, none found) was a tenth of a page's SQL.
 */
async function linkSpends(q: SqlQueries, spends: readonly SqlValue[] | undefined, exported: readonly { id: string }[]): Promise<RedeemedOutput[]> {
  const linked: SqlRow[] = [];
  const returning = "RETURNING o.id, o.redeeming_transaction_id, o.asset_id, o.amount::text AS amount, o.chain_id, o.transaction_id";
  if (spends !== undefined) {
    linked.push(
      ...(await q.query(
        `UPDATE outputs o SET redeeming_transaction_id = s.transaction_id, redeemed_at = s.accepted_at
           FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[]) AS s(output_id, transaction_id, accepted_at, chain_id)
          WHERE o.id = s.output_id AND o.redeeming_transaction_id IS NULL
          ${returning}, s.chain_id AS redeemer_chain_id`,
        spends,
      )),
    );
  }
  if (exported.length > 0) {
    linked.push(
      ...(await q.query(
        `UPDATE outputs o SET redeeming_transaction_id = ti.transaction_id, redeemed_at = t.accepted_at
           FROM transaction_inputs ti JOIN transactions t ON t.id = ti.transaction_id
          WHERE ti.output_id = ANY($1::text[]) AND o.id = ti.output_id AND o.redeeming_transaction_id IS NULL
          ${returning}, t.chain_id AS redeemer_chain_id`,
        [arrayLiteral(exported.map((o) => o.id))],
      )),
    );
  }
  return linked.map((r) => ({
    id: String(r.id),
    redeemerId: String(r.redeeming_transaction_id),
    redeemerChainId: String(r.redeemer_chain_id),
    assetId: String(r.asset_id),
    amount: BigInt(String(r.amount)),
    chainId: String(r.chain_id),
    transactionId: String(r.transaction_id),
  }));
}

async function storeContractBlocks(q: SqlQueries, blocks: readonly CBlockRow[]): Promise<void> {
  if (blocks.length === 0) return;
  await insertRows(
    q,
    "c_blocks",
    ["number", "hash", "parent_hash", "sha3_uncles", "miner", "state_root", "transactions_root", "receipts_root", "logs_bloom", "difficulty", "gas_limit", "gas_used", "timestamp", "extra_data", "mix_hash", "nonce", "ext_data_hash", "base_fee_per_gas", "ext_data_gas_used", "block_gas_cost", "transaction_count", "accepted_at"],
    blocks.map((b) => [amount(b.number), b.hash, b.parentHash, b.sha3Uncles, b.miner, b.stateRoot, b.transactionsRoot, b.receiptsRoot, b.logsBloom, amount(b.difficulty), amount(b.gasLimit), amount(b.gasUsed), amount(b.timestamp), b.extraData, b.mixHash, b.nonce, b.extDataHash, amount(b.baseFeePerGas), amount(b.extDataGasUsed), amount(b.blockGasCost), b.transactions.length, b.acceptedAt]),
  );
  const txs = blocks.flatMap((b) => b.transactions.map((t) => ({ ...t, block: b })));
  await insertRows(
    q,
    "c_transactions",
    ["hash", "block_number", "transaction_index", "type", "nonce", "gas_price", "max_fee_per_gas", "max_priority_fee_per_gas", "gas_limit", "value", "input", "from_addr", "to_addr", "v", "r", "s", "created_at", "status", "gas_used", "cumulative_gas_used", "effective_gas_price", "contract_address", "logs_bloom"],
    txs.map((t) => [t.hash, amount(t.block.number), t.transactionIndex, t.type, amount(t.nonce), amount(t.gasPrice), amount(t.maxFeePerGas), amount(t.maxPriorityFeePerGas), amount(t.gasLimit), amount(t.value), t.input, t.fromAddr, t.toAddr, t.v, t.r, t.s, t.block.acceptedAt, t.status, amount(t.gasUsed), amount(t.cumulativeGasUsed), amount(t.effectiveGasPrice), t.contractAddress, t.logsBloom]),
  );
  await insertRows(
    q,
    "c_logs",
    ["transaction_hash", "log_index", "block_number", "address", "topics", "data"],
    txs.flatMap((t) => t.logs.map((l) => [t.hash, l.logIndex, amount(t.block.number), l.address, JSON.stringify(l.topics), l.data])),
  );
}

/**
 * How a page's SQL transaction is ordered after the page before it (the ingester's pipeline of
 * pages). While it waits for that commit it holds locks only on the keys it inserted, of tables
 * (containers, blocks, transactions, outputs, owners, inputs, credentials, address history) that
 * no statement sent after a page's wait writes: what the page before still has to do, or any
 * other index's page past its own wait, never waits on it, so the wait cannot close a cycle of
 * waits the server cannot see. Two pages of different indexes may still wait on each other for a
 * key both insert (a transaction one imports and the other holds), as they did before.
 */
export interface PageOrder {
  /**
   * Settles once the page before is committed (rejects when it failed: this page then fails
   * too). Awaited after this page's own rows are stored and before anything other pages write.
   */
  after?: Promise<unknown>;
  /** Called once this page's own rows are stored: the next page's SQL transaction may start. */
  ownRowsStored?: () => void;
}

/**
 * Stores one page of an index and moves its progress past it: one SQL transaction. `prepared`
 * is the page's statements built before (prepareBatch of the same page), else built here.
 */
export async function storeBatch(
  sql: SqlQueries,
  indexName: ExplorerIndexName,
  batch: readonly DecodedContainer[],
  extraTransactions: readonly TransactionRow[] = [],
  prepared: PreparedBatch = prepareBatch(indexName, batch, extraTransactions),
  order: PageOrder = {},
): Promise<void> {
  if (batch.length === 0) return;
  if (prepared.batch !== batch || prepared.indexName !== indexName) throw new Error("the statements prepared are of another page");
  const pipeline = new StatementPipeline(sql);
  const q = pipeline.unanswered;
  await takeOverDerivedRows(q);
  for (const statement of prepared.blocks) await run(q, statement);
  await storeContractBlocks(q, batch.flatMap((c) => (c.cBlock === undefined ? [] : [c.cBlock])));
  const own = await sendOwnRows(pipeline, prepared.transactions);
  // Every statement of this page's own rows answered (its transactions have their sequences).
  await pipeline.drain();
  order.ownRowsStored?.();
  await order.after;
  await sendSharedRows(pipeline, prepared.transactions, own);
  const next = batch[batch.length - 1]!.index + 1n;
  await q.query(
    `INSERT INTO explorer_progress (index_name, next_index, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (index_name) DO UPDATE SET next_index = GREATEST(explorer_progress.next_index, EXCLUDED.next_index), updated_at = EXCLUDED.updated_at`,
    [indexName, next.toString(), Date.now()],
  );
  await pipeline.drain();
}

/** The next container to read per index (0 for an index not started). */
export async function readProgress(q: SqlQueries): Promise<Map<string, bigint>> {
  const rows = await q.query("SELECT index_name, next_index::text AS next_index FROM explorer_progress");
  return new Map(rows.map((r) => [String(r.index_name), BigInt(String(r.next_index))]));
}
