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
import { arrayLiteral, insertRows } from "./bulk-insert";
import { StatementPipeline } from "./pipeline";
import { readStoredOutputs, spentElsewhere, writeDocuments } from "./documents";
import { takeOverMinuteAggregates, writeMinuteAggregates } from "./minute-aggregates";
import { closedTransactions, ownersOfStoredOutputs, type RedeemedOutput, takeOverRunningTotals, writeRunningTotals } from "./running-totals";

const amount = (value: bigint | null): string | null => (value === null ? null : value.toString());

/** Stores rows of transactions (of any chain) and links spent outputs both ways. */
export async function storeTransactions(q: SqlQueries, txs: readonly TransactionRow[]): Promise<void> {
  const pipeline = new StatementPipeline(q);
  await sendTransactions(pipeline, txs);
  await pipeline.drain();
}

/**
 * storeTransactions on a page's pipeline: the statements whose answer the page needs are
 * awaited, the others sent (they run while the next are built); `drain` waits for them.
 */
async function sendTransactions(q: StatementPipeline, txs: readonly TransactionRow[]): Promise<void> {
  if (txs.length === 0) return;
  await takeOverMinuteAggregates(q.unanswered);
  await takeOverRunningTotals(q.unanswered);
  // The three inserts sent before the first answer is awaited.
  const insertingTransactions = insertRows(
    q,
    "transactions",
    ["id", "chain_id", "type", "memo", "tx_fee", "genesis", "accepted_at", "block_id", "source_chain_id", "destination_chain_id", "bytes"],
    txs.map((t) => [t.id, t.chainId, t.type, t.memo, amount(t.txFee), t.genesis ? "true" : "false", t.acceptedAt, t.blockId, t.sourceChainId, t.destinationChainId, t.bytes]),
    "ON CONFLICT DO NOTHING",
    "RETURNING id, sequence::text AS sequence",
  );
  const outputs = txs.flatMap((t) => t.outputs.map((o) => ({ ...o, acceptedAt: t.acceptedAt })));
  const insertingOutputs = insertRows(
    q,
    "outputs",
    ["id", "transaction_id", "output_index", "chain_id", "created_on_chain_id", "asset_id", "output_type", "amount", "locktime", "threshold", "group_id", "payload", "stake", "accepted_at"],
    outputs.map((o) => [o.id, o.transactionId, o.outputIndex, o.chainId, o.createdOnChainId, o.assetId, o.outputType, amount(o.amount), amount(o.locktime), o.threshold, o.groupId, o.payload, o.stake ? "true" : "false", o.acceptedAt]),
    "ON CONFLICT DO NOTHING",
    "RETURNING id",
  );
  const insertingOwners = insertRows(q, "output_addresses", ["output_id", "address", "position"], outputs.flatMap((o) => o.addresses.map((a, i) => [o.id, a, i])), "ON CONFLICT DO NOTHING", "RETURNING output_id, address");
  const [inserted, newOutputs, ownerRows] = await Promise.all([insertingTransactions, insertingOutputs, insertingOwners]);
  const newOwners = ownerRows.map((r) => [String(r.output_id), String(r.address)] as const);
  const newTransactions = new Set(inserted.map((r) => String(r.id)));
  const newOutputIds = new Set(newOutputs.map((r) => String(r.id)));
  await writeMinuteAggregates(q, txs, newTransactions, newOutputIds, newOwners);
  // The outputs spent here that the page does not create, as they stand before its links (for
  // the documents and the totals); and those that gained owners here although stored before.
  const stored = await readStoredOutputs(q, [...new Set([...spentElsewhere(txs, newTransactions), ...ownersOfStoredOutputs(newOutputIds, newOwners)])]);
  await insertRows(q.unanswered, "transaction_inputs", ["transaction_id", "position", "output_id"], txs.flatMap((t) => t.inputs.map((i) => [t.id, i.position, i.outputId])));
  await insertRows(
    q.unanswered,
    "input_credentials",
    ["transaction_id", "input_position", "position", "address", "public_key", "signature"],
    txs.flatMap((t) => t.credentials.map((c) => [t.id, c.inputPosition, c.position, c.address, c.publicKey, c.signature])),
  );
  await insertRows(
    q.unanswered,
    "assets",
    ["id", "chain_id", "name", "symbol", "alias", "denomination", "variable_cap", "nft", "accepted_at", "transaction_id"],
    txs.flatMap((t) => t.assets.map((a) => [a.id, a.chainId, a.name, a.symbol, a.alias, a.denomination, a.variableCap, a.nft, t.acceptedAt, t.id])),
  );
  await storeAddresses(q.unanswered, txs, new Map(inserted.map((r) => [String(r.id), String(r.sequence)])));
  const redeemed = await linkSpends(q, txs, outputs.filter((o) => newOutputIds.has(o.id) && o.chainId !== o.createdOnChainId));
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
  await writeDocuments(q.unanswered, txs, newTransactions, new Map(redeemed.map((r) => [r.id, r.redeemerId])), stored);
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
async function linkSpends(q: SqlQueries, txs: readonly TransactionRow[], exported: readonly { id: string }[]): Promise<RedeemedOutput[]> {
  const linked: SqlRow[] = [];
  const spends = txs.flatMap((t) => t.inputs.map((i) => [i.outputId, t.id, t.acceptedAt, t.chainId] as const));
  const returning = "RETURNING o.id, o.redeeming_transaction_id, o.asset_id, o.amount::text AS amount, o.chain_id, o.transaction_id";
  if (spends.length > 0) {
    linked.push(
      ...(await q.query(
        `UPDATE outputs o SET redeeming_transaction_id = s.transaction_id, redeemed_at = s.accepted_at
           FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[]) AS s(output_id, transaction_id, accepted_at, chain_id)
          WHERE o.id = s.output_id AND o.redeeming_transaction_id IS NULL
          ${returning}, s.chain_id AS redeemer_chain_id`,
        [0, 1, 2, 3].map((column) => arrayLiteral(spends.map((s) => s[column]))),
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

/** Addresses seen as output owners or as signers, the chains they are on, the transactions touching them. */
async function storeAddresses(q: SqlQueries, txs: readonly TransactionRow[], sequences: ReadonlyMap<string, string>): Promise<void> {
  const publicKeys = new Map<string, string | null>();
  const chains = new Map<string, SqlValue[]>();
  const touched = new Map<string, SqlValue[]>();
  const see = (address: string, chainId: string, tx: TransactionRow, publicKey: string | null) => {
    if (publicKey !== null || !publicKeys.has(address)) publicKeys.set(address, publicKey ?? publicKeys.get(address) ?? null);
    const chainKey = `${address} ${chainId}`;
    const known = chains.get(chainKey);
    if (known === undefined || (known[2] as number) > tx.acceptedAt) chains.set(chainKey, [address, chainId, tx.acceptedAt]);
    touched.set(`${address} ${tx.id}`, [address, tx.id, tx.chainId, tx.acceptedAt]);
  };
  for (const tx of txs) {
    for (const output of tx.outputs) for (const address of output.addresses) see(address, output.chainId, tx, null);
    for (const credential of tx.credentials) see(credential.address, tx.chainId, tx, credential.publicKey);
  }
  await insertRows(
    q,
    "addresses",
    ["address", "public_key"],
    [...publicKeys].map(([address, key]) => [address, key]),
    // Only a change writes a row version (an unchanged one would be a dead row per page and address).
    "ON CONFLICT (address) DO UPDATE SET public_key = EXCLUDED.public_key WHERE addresses.public_key IS NULL AND EXCLUDED.public_key IS NOT NULL",
  );
  await insertRows(
    q,
    "address_chain",
    ["address", "chain_id", "first_seen_at"],
    [...chains.values()],
    "ON CONFLICT (address, chain_id) DO UPDATE SET first_seen_at = EXCLUDED.first_seen_at WHERE EXCLUDED.first_seen_at < address_chain.first_seen_at",
  );
  // The transaction's ingestion sequence, so an address's history is read in order from an index:
  // as the page's insert answered it, else (a transaction stored before) read by the row trigger.
  await insertRows(
    q,
    "address_transactions",
    ["address", "transaction_id", "chain_id", "accepted_at", "sequence"],
    [...touched.values()].map((r) => [...r, sequences.get(String(r[1])) ?? null]),
  );
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

/** Stores one page of an index and moves its progress past it: one SQL transaction. */
export async function storeBatch(sql: SqlQueries, indexName: ExplorerIndexName, batch: readonly DecodedContainer[], extraTransactions: readonly TransactionRow[] = []): Promise<void> {
  if (batch.length === 0) return;
  const pipeline = new StatementPipeline(sql);
  const q = pipeline.unanswered;
  await insertRows(q, "explorer_containers", ["index_name", "container_index", "container_id", "bytes", "accepted_at"], batch.map((c) => [indexName, amount(c.index), c.id, c.bytes, c.acceptedAt]));
  const pBlocks = batch.flatMap((c) => (c.pBlock === undefined ? [] : [c.pBlock]));
  await insertRows(q, "p_blocks", ["id", "height", "parent_id", "type", "accepted_at", "bytes"], pBlocks.map((b) => [b.id, amount(b.height), b.parentId, b.type, b.acceptedAt, b.bytes]));
  await storeContractBlocks(q, batch.flatMap((c) => (c.cBlock === undefined ? [] : [c.cBlock])));
  // Transactions this page needs first (genesis transactions it spends, atomic ones it imports).
  await sendTransactions(pipeline, [...extraTransactions, ...batch.flatMap((c) => c.transactions)]);
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
