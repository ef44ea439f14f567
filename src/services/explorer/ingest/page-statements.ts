/**
 * The statements of a page that its SQL transaction's answers do not change, built from the
 * decoded page alone: the inserts of its containers, blocks, transactions, outputs, owners,
 * inputs, credentials, assets and addresses, the links of its inputs, and the JSON of the
 * outputs it creates (for the documents). Why: building them (arrays of thousands of quoted
 * values, the outputs' JSON) was a third of the ingest thread's work per page, done while the
 * server waited for the page's next statement; the ingester builds them for the page after the
 * one being stored (ingester.ts), so they are built while the server runs that page's SQL.
 *
 * Nothing here reads the database: the statements are sent in the page's SQL transaction as
 * store.ts sends them, in the same order, so a page stored from prepared statements is stored
 * exactly as one prepared in its transaction.
 */
import type { SqlValue } from "../../sql/database";
import { arrayLiteral, insertStatement, type SqlStatement } from "./bulk-insert";
import { type CreatedOutputJson, createdOutputsJson } from "./documents";
import type { ExplorerIndexName } from "./node-source";
import type { DecodedContainer, OutputRow, TransactionRow } from "./rows";

const amount = (value: bigint | null): string | null => (value === null ? null : value.toString());

/** The output's owner when it has exactly one, else NULL: its owners are then read from `output_addresses` (schema-outputs-owner.ts). */
function soleOwner(addresses: readonly string[]): string | null {
  const first = addresses[0];
  if (first === undefined) return null;
  for (const address of addresses) if (address !== first) return null;
  return first;
}

/** An output with its transaction's acceptance time (`outputs.accepted_at`). */
export type PageOutput = OutputRow & { acceptedAt: number };

/** What store.ts sends for a set of transactions, but the statements built from its answers. */
export interface PreparedTransactions {
  txs: readonly TransactionRow[];
  outputs: readonly PageOutput[];
  /** Answering `id, sequence`. */
  transactions: SqlStatement | undefined;
  /** Answering `id`. */
  outputsInsert: SqlStatement | undefined;
  /** Answering `output_id, address`. */
  owners: SqlStatement | undefined;
  inputs: SqlStatement | undefined;
  credentials: SqlStatement | undefined;
  assets: SqlStatement | undefined;
  addresses: SqlStatement | undefined;
  addressChains: SqlStatement | undefined;
  /** The address_transactions insert but its sequence column, and each row's transaction (addressTransactionsStatement). */
  addressTransactions: { statement: SqlStatement; transactionIds: string[] } | undefined;
  /** The parameters of the link of the page's inputs to the outputs they spend (output, spender, time, spender's chain), none without inputs. */
  spends: SqlValue[] | undefined;
  createdOutputs: ReadonlyMap<string, CreatedOutputJson>;
}

/** What store.ts sends for a page of an index: its containers and blocks, and its transactions. */
export interface PreparedBatch {
  indexName: ExplorerIndexName;
  batch: readonly DecodedContainer[];
  blocks: (SqlStatement | undefined)[];
  transactions: PreparedTransactions;
}

export function prepareBatch(indexName: ExplorerIndexName, batch: readonly DecodedContainer[], extraTransactions: readonly TransactionRow[] = []): PreparedBatch {
  const pBlocks = batch.flatMap((c) => (c.pBlock === undefined ? [] : [c.pBlock]));
  return {
    indexName,
    batch,
    blocks: [
      insertStatement("explorer_containers", ["index_name", "container_index", "container_id", "bytes", "accepted_at"], batch.map((c) => [indexName, amount(c.index), c.id, c.bytes, c.acceptedAt])),
      insertStatement("p_blocks", ["id", "height", "parent_id", "type", "accepted_at", "bytes"], pBlocks.map((b) => [b.id, amount(b.height), b.parentId, b.type, b.acceptedAt, b.bytes])),
    ],
    // Transactions this page needs first (genesis transactions it spends, atomic ones it imports).
    transactions: prepareTransactions([...extraTransactions, ...batch.flatMap((c) => c.transactions)]),
  };
}

export function prepareTransactions(txs: readonly TransactionRow[]): PreparedTransactions {
  const outputs = txs.flatMap((t) => t.outputs.map((o) => ({ ...o, acceptedAt: t.acceptedAt })));
  const spends = txs.flatMap((t) => t.inputs.map((i) => [i.outputId, t.id, t.acceptedAt, t.chainId] as const));
  return {
    txs,
    outputs,
    transactions: insertStatement(
      "transactions",
      ["id", "chain_id", "type", "memo", "tx_fee", "genesis", "accepted_at", "block_id", "source_chain_id", "destination_chain_id", "bytes"],
      txs.map((t) => [t.id, t.chainId, t.type, t.memo, amount(t.txFee), t.genesis ? "true" : "false", t.acceptedAt, t.blockId, t.sourceChainId, t.destinationChainId, t.bytes]),
      "ON CONFLICT DO NOTHING",
      "RETURNING id, sequence::text AS sequence",
    ),
    outputsInsert: insertStatement(
      "outputs",
      ["id", "transaction_id", "output_index", "chain_id", "created_on_chain_id", "asset_id", "output_type", "amount", "locktime", "threshold", "group_id", "payload", "stake", "accepted_at", "sole_owner"],
      outputs.map((o) => [o.id, o.transactionId, o.outputIndex, o.chainId, o.createdOnChainId, o.assetId, o.outputType, amount(o.amount), amount(o.locktime), o.threshold, o.groupId, o.payload, o.stake ? "true" : "false", o.acceptedAt, soleOwner(o.addresses)]),
      "ON CONFLICT DO NOTHING",
      "RETURNING id",
    ),
    owners: insertStatement("output_addresses", ["output_id", "address", "position"], outputs.flatMap((o) => o.addresses.map((a, i) => [o.id, a, i])), "ON CONFLICT DO NOTHING", "RETURNING output_id, address"),
    inputs: insertStatement("transaction_inputs", ["transaction_id", "position", "output_id"], txs.flatMap((t) => t.inputs.map((i) => [t.id, i.position, i.outputId]))),
    credentials: insertStatement(
      "input_credentials",
      ["transaction_id", "input_position", "position", "address", "public_key", "signature"],
      txs.flatMap((t) => t.credentials.map((c) => [t.id, c.inputPosition, c.position, c.address, c.publicKey, c.signature])),
    ),
    assets: insertStatement(
      "assets",
      ["id", "chain_id", "name", "symbol", "alias", "denomination", "variable_cap", "nft", "accepted_at", "transaction_id"],
      txs.flatMap((t) => t.assets.map((a) => [a.id, a.chainId, a.name, a.symbol, a.alias, a.denomination, a.variableCap, a.nft, t.acceptedAt, t.id])),
    ),
    ...addressStatements(txs),
    spends: spends.length === 0 ? undefined : [0, 1, 2, 3].map((column) => arrayLiteral(spends.map((s) => s[column]!))),
    createdOutputs: createdOutputsJson(txs),
  };
}

/** Addresses seen as output owners or as signers, the chains they are on, the transactions touching them. */
function addressStatements(txs: readonly TransactionRow[]): Pick<PreparedTransactions, "addresses" | "addressChains" | "addressTransactions"> {
  const publicKeys = new Map<string, string | null>();
  const chains = new Map<string, SqlValue[]>();
  const touched = new Map<string, SqlValue[]>();
  const transactionIds: string[] = [];
  const see = (address: string, chainId: string, tx: TransactionRow, publicKey: string | null) => {
    if (publicKey !== null || !publicKeys.has(address)) publicKeys.set(address, publicKey ?? publicKeys.get(address) ?? null);
    const chainKey = `${address} ${chainId}`;
    const known = chains.get(chainKey);
    if (known === undefined || (known[2] as number) > tx.acceptedAt) chains.set(chainKey, [address, chainId, tx.acceptedAt]);
    const touchedKey = `${address} ${tx.id}`;
    if (!touched.has(touchedKey)) transactionIds.push(tx.id);
    touched.set(touchedKey, [address, tx.id, tx.chainId, tx.acceptedAt, null]);
  };
  for (const tx of txs) {
    for (const output of tx.outputs) for (const address of output.addresses) see(address, output.chainId, tx, null);
    for (const credential of tx.credentials) see(credential.address, tx.chainId, tx, credential.publicKey);
  }
  const transactionsTouched = insertStatement("address_transactions", ["address", "transaction_id", "chain_id", "accepted_at", "sequence"], [...touched.values()]);
  return {
    addresses: insertStatement(
      "addresses",
      ["address", "public_key"],
      [...publicKeys].map(([address, key]) => [address, key]),
      // Only a change writes a row version (an unchanged one would be a dead row per page and address).
      "ON CONFLICT (address) DO UPDATE SET public_key = EXCLUDED.public_key WHERE addresses.public_key IS NULL AND EXCLUDED.public_key IS NOT NULL",
    ),
    addressChains: insertStatement(
      "address_chain",
      ["address", "chain_id", "first_seen_at"],
      [...chains.values()],
      "ON CONFLICT (address, chain_id) DO UPDATE SET first_seen_at = EXCLUDED.first_seen_at WHERE EXCLUDED.first_seen_at < address_chain.first_seen_at",
    ),
    addressTransactions: transactionsTouched === undefined ? undefined : { statement: transactionsTouched, transactionIds },
  };
}

/**
 * The address_transactions insert with each row's transaction's ingestion sequence, so an
 * address's history is read in order from an index: as the page's insert answered it, else (a
 * transaction stored before) read by the row trigger.
 */
export function addressTransactionsStatement(prepared: PreparedTransactions["addressTransactions"], sequences: ReadonlyMap<string, string>): SqlStatement | undefined {
  if (prepared === undefined) return undefined;
  const params = [...prepared.statement.params];
  params[4] = arrayLiteral(prepared.transactionIds.map((id) => sequences.get(id) ?? null));
  return { text: prepared.statement.text, params };
}
