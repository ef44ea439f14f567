/**
 * The transactions' documents (schema-reads.ts `transaction_documents`) written by the ingester
 * from the rows it has in hand, instead of by the database at commit. Why: the database built
 * each document with `explorer_transaction_json`, a function call per transaction with a
 * subquery per output, input and credential, and that was most of the server's CPU per
 * ingested container. Here they cost one query per page (the spent outputs stored before the
 * page, shared with the running totals) and string building.
 *
 * A document is the text `explorer_transaction_json(id)::text` answers at the page's commit,
 * byte for byte (the reader passes it on as it is): PostgreSQL's `json_build_object` writes
 * `{"k" : v, …}`, `json_agg` `[a, b]`, `json_object_agg` `{ "k" : v }`, numbers bare, amounts as
 * text. The database still documents any transaction inserted without one (another writer).
 */
import type { SqlQueries } from "../../sql/database";
import { arrayLiteral, insertRows } from "./bulk-insert";
import type { OutputRow, TransactionRow } from "./rows";
import type { TotalledOutput } from "./running-totals";

/**
 * Set (transaction-local) by the ingester's SQL transactions: the documents' triggers stand aside
 * (schema-ingest-documents.ts), as it writes every document of the transactions it adds.
 */
export const INGESTER_DOCUMENTS_SETTING = "explorer.ingester_documents";

/**
 * Moves `documented_sequence` past a page's transactions, as the trigger standing aside for the
 * ingester did at commit, so that another writer's commit looks only at transactions after them.
 */
export async function markDocumented(q: SqlQueries, lastSequence: string | null): Promise<void> {
  if (lastSequence === null) return;
  await q.query("UPDATE explorer_documents_state SET documented_sequence = greatest(documented_sequence, $1) WHERE id = 1", [lastSequence]);
}

/** A spent or created output as the document shows it: every value already JSON text. */
interface OutputJson {
  assetId: string;
  amount: bigint | null;
  text: (redeemer: string | null) => string;
}

const str = (value: string | null): string => (value === null ? "null" : JSON.stringify(value));
const num = (value: bigint | number | string | null): string => (value === null ? "null" : String(value));

/** `explorer_iso_time`: Unix ms as RFC 3339 with milliseconds, UTC. */
function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

function object(members: readonly (readonly [string, string])[]): string {
  return `{${members.map(([key, value]) => `${JSON.stringify(key)} : ${value}`).join(", ")}}`;
}

function list(items: readonly string[]): string {
  return items.length === 0 ? "[]" : `[${items.join(", ")}]`;
}

/**
 * The output's object, written once around its redeeming transaction's ID (the one member that
 * changes): an output is written in its transaction's document and again in its spender's.
 */
function outputJson(o: { id: string; transactionId: string; outputIndex: string; assetId: string; outputType: string | null; amount: string | null; locktime: string | null; threshold: string | null; addresses: readonly string[]; acceptedAt: number; chainId: string; groupId: string | null; payload: string | null; stake: string | null }): OutputJson["text"] {
  const before = object([
    ["id", str(o.id)],
    ["transactionID", str(o.transactionId)],
    ["outputIndex", num(o.outputIndex)],
    ["assetID", str(o.assetId)],
    ["outputType", num(o.outputType)],
    ["amount", str(o.amount)],
    ["locktime", num(o.locktime)],
    ["threshold", num(o.threshold)],
    ["addresses", list(o.addresses.map((a) => JSON.stringify(a)))],
    ["timestamp", str(isoTime(o.acceptedAt))],
  ]);
  const after = object([
    ["chainID", str(o.chainId)],
    ["groupID", num(o.groupId)],
    ["payload", str(o.payload)],
    ["stake", num(o.stake)],
  ]);
  const head = `${before.slice(0, -1)}, ${JSON.stringify("redeemingTransactionID")} : `;
  const tail = `, ${after.slice(1)}`;
  return (redeemer) => head + str(redeemer ?? "") + tail;
}

/** A created output's JSON, with its transaction (only outputs of transactions a page inserts are documented from the page). */
export interface CreatedOutputJson extends OutputJson {
  transactionId: string;
}

/** The JSON of every output the transactions create, by output ID: built from the page alone, before its SQL transaction. */
export function createdOutputsJson(txs: readonly TransactionRow[]): Map<string, CreatedOutputJson> {
  const created = new Map<string, CreatedOutputJson>();
  for (const t of txs) for (const o of t.outputs) created.set(o.id, { ...createdOutput(o, t.acceptedAt), transactionId: t.id });
  return created;
}

function createdOutput(o: OutputRow, acceptedAt: number): OutputJson {
  const text = outputJson({
    id: o.id,
    transactionId: o.transactionId,
    outputIndex: String(o.outputIndex),
    assetId: o.assetId,
    outputType: String(o.outputType),
    amount: o.amount.toString(),
    locktime: o.locktime.toString(),
    threshold: String(o.threshold),
    addresses: o.addresses,
    acceptedAt,
    chainId: o.chainId,
    groupId: String(o.groupId),
    payload: o.payload,
    stake: o.stake ? "true" : "false",
  });
  return { assetId: o.assetId, amount: o.amount, text };
}

const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/** An output stored before the page, as the documents and the running totals need it. */
export interface StoredOutput {
  output: OutputJson;
  /** Its redeeming transaction as it stood when read. */
  redeemer: string | null;
  owners: string[];
  totalled: TotalledOutput;
}

/**
 * The stored outputs of `ids` (the outputs the page's inputs spend that the page does not
 * create), read before the page links its spends: their redeemers as they stood then.
 */
export async function readStoredOutputs(q: SqlQueries, ids: readonly string[]): Promise<Map<string, StoredOutput>> {
  const found = new Map<string, StoredOutput>();
  if (ids.length === 0) return found;
  const rows = await q.query(
    `SELECT o.id, o.transaction_id, o.output_index::text AS output_index, o.asset_id, o.output_type::text AS output_type, o.amount::text AS amount,
            o.locktime::text AS locktime, o.threshold::text AS threshold, o.accepted_at::text AS accepted_at, o.redeeming_transaction_id,
            o.chain_id, o.group_id::text AS group_id, o.payload, o.stake::text AS stake,
            (SELECT string_agg(oa.address, ',' ORDER BY oa.position) FROM output_addresses oa WHERE oa.output_id = o.id) AS addresses
       FROM outputs o WHERE o.id = ANY($1::text[])`,
    [arrayLiteral([...ids])],
  );
  for (const r of rows) {
    const amount = textOrNull(r.amount);
    const addresses = textOrNull(r.addresses);
    const owners = addresses === null ? [] : addresses.split(",");
    const text = outputJson({
      id: String(r.id),
      transactionId: String(r.transaction_id),
      outputIndex: String(r.output_index),
      assetId: String(r.asset_id),
      outputType: textOrNull(r.output_type),
      amount,
      locktime: textOrNull(r.locktime),
      threshold: textOrNull(r.threshold),
      addresses: owners,
      acceptedAt: Number(r.accepted_at),
      chainId: String(r.chain_id),
      groupId: textOrNull(r.group_id),
      payload: textOrNull(r.payload),
      stake: textOrNull(r.stake),
    });
    const value = amount === null ? null : BigInt(amount);
    found.set(String(r.id), {
      output: { assetId: String(r.asset_id), amount: value, text },
      redeemer: textOrNull(r.redeeming_transaction_id),
      owners,
      totalled: { assetId: String(r.asset_id), amount: value ?? 0n, chainId: String(r.chain_id), transactionId: String(r.transaction_id) },
    });
  }
  return found;
}

/** The outputs the page's inputs spend that its documented transactions do not create (those read as stored). */
export function spentElsewhere(txs: readonly TransactionRow[], inserted: ReadonlySet<string>): string[] {
  const created = new Set(txs.filter((t) => inserted.has(t.id)).flatMap((t) => t.outputs.map((o) => o.id)));
  return [...new Set(txs.flatMap((t) => t.inputs.map((i) => i.outputId)).filter((id) => !created.has(id)))];
}

/** `json_object_agg(asset, sum::text ORDER BY asset COLLATE "C")`, `{}` when nothing is summed. */
function totals(outputs: readonly OutputJson[]): string {
  const sums = new Map<string, bigint | null>();
  for (const o of outputs) {
    const before = sums.get(o.assetId);
    // A null amount makes no sum (SQL's sum skips nulls; all-null answers null).
    sums.set(o.assetId, o.amount === null ? (before ?? null) : (before ?? 0n) + o.amount);
  }
  if (sums.size === 0) return "{}";
  const assets = [...sums.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{ ${assets.map((a) => `${JSON.stringify(a)} : ${str(sums.get(a)?.toString() ?? null)}`).join(", ")} }`;
}

function documentOf(
  t: TransactionRow,
  spent: (outputId: string) => { output: OutputJson; redeemer: string | null } | undefined,
  createdRedeemer: (outputId: string) => string | null,
  createdJson: (o: OutputRow) => OutputJson,
): { doc: string; complete: boolean } {
  let complete = true;
  const spentOutputs: OutputJson[] = [];
  const inputs = [...t.inputs]
    .sort((a, b) => a.position - b.position)
    .map((input) => {
      const found = spent(input.outputId);
      if (found === undefined) complete = false;
      else spentOutputs.push(found.output);
      const credentials = t.credentials
        .filter((c) => c.inputPosition === input.position)
        .sort((a, b) => a.position - b.position)
        .map((c) => object([["address", str(c.address)], ["public_key", str(c.publicKey)], ["signature", str(c.signature)]]));
      return object([["output", found === undefined ? object([["id", str(input.outputId)]]) : found.output.text(found.redeemer)], ["credentials", list(credentials)]]);
    });
  const sorted = [...t.outputs].sort((a, b) => a.outputIndex - b.outputIndex);
  const created = sorted.map(createdJson);
  const doc = object([
    ["id", str(t.id)],
    ["chainID", str(t.chainId)],
    ["type", str(t.type)],
    ["inputs", list(inputs)],
    ["outputs", list(created.map((o, i) => o.text(createdRedeemer(sorted[i]!.id))))],
    ["memo", str(Buffer.from(t.memo, "hex").toString("base64"))],
    ["inputTotals", totals(spentOutputs)],
    ["outputTotals", totals(created)],
    ["reusedAddressTotals", "null"],
    ["timestamp", str(isoTime(t.acceptedAt))],
    ["txFee", num(t.txFee)],
    ["genesis", t.genesis ? "true" : "false"],
  ]);
  return { doc, complete };
}

/**
 * Writes the documents of `inserted` (the page's transactions this SQL transaction added), once
 * every row of the page is in place and its outputs linked; `redeemers` are the redeeming
 * transactions the page's links set (the outputs the page created hold no other), `stored` the
 * outputs read before the links (readStoredOutputs of spentElsewhere).
 */
export async function writeDocuments(
  q: SqlQueries,
  txs: readonly TransactionRow[],
  inserted: ReadonlySet<string>,
  redeemers: ReadonlyMap<string, string>,
  stored: ReadonlyMap<string, StoredOutput>,
  created: ReadonlyMap<string, CreatedOutputJson> = createdOutputsJson(txs),
): Promise<void> {
  const documented = txs.filter((t) => inserted.has(t.id));
  if (documented.length === 0) return;
  const spent = (id: string) => {
    const found = created.get(id);
    // Outputs of transactions stored before (a page's genesis rows again) are read as stored.
    const mine = found !== undefined && inserted.has(found.transactionId) ? found : undefined;
    if (mine !== undefined) return { output: mine, redeemer: redeemers.get(id) ?? null };
    const before = stored.get(id);
    return before === undefined ? undefined : { output: before.output, redeemer: redeemers.get(id) ?? before.redeemer };
  };
  const redeemerOf = (id: string) => redeemers.get(id) ?? null;
  const rows = documented.map((t) => {
    const { doc, complete } = documentOf(t, spent, redeemerOf, (o) => created.get(o.id) ?? createdOutput(o, t.acceptedAt));
    return [t.id, complete ? "true" : "false", doc];
  });
  await insertRows(q, "transaction_documents", ["id", "complete", "doc"], rows);
}
