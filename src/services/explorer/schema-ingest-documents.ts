/**
 * A migration of the explorer (schema.ts; append-only like every migration): the documents'
 * triggers stand aside in the ingester's SQL transactions, as the totals' and the minutes' do.
 *
 * The ingester writes every document of the transactions it adds itself (ingest/documents.ts,
 * migration 6), yet each page's insert into `transactions` still set `due` on the one row of
 * `explorer_documents_state`. That row lock was held to the page's commit, where the deferred
 * trigger probed each of the page's transactions for the document it already had. So a page's
 * SQL transaction could not store its own rows while the page before was being committed: they
 * waited on that row. In a SQL transaction that sets `explorer.ingester_documents` to `on`
 * (transaction-local), the trigger that sets `due` and the five that drop outdated documents do
 * not fire; the ingester moves `documented_sequence` past its transactions itself, last in its
 * page. Any other writer's rows are documented at its commit, and outdate documents, as before.
 *
 * Statements are separated by `;` at the end of a line (sql/migrations.ts).
 */
const STANDS_ASIDE = "WHEN (current_setting('explorer.ingester_documents', true) IS DISTINCT FROM 'on')";

/** The triggers that drop the documents a change outdates (schema-reads.ts): name, event, table. */
const OUTDATING_TRIGGERS: readonly (readonly [name: string, event: "INSERT" | "UPDATE", table: string])[] = [
  ["explorer_documents_outputs_added", "INSERT", "outputs"],
  ["explorer_documents_outputs_changed", "UPDATE", "outputs"],
  ["explorer_documents_owners_added", "INSERT", "output_addresses"],
  ["explorer_documents_inputs_added", "INSERT", "transaction_inputs"],
  ["explorer_documents_credentials_added", "INSERT", "input_credentials"],
];

export const INGESTER_DOCUMENTS_MIGRATION = [
  "-- The documents' triggers stand aside for the ingester (schema-ingest-documents.ts).\n   DROP TRIGGER explorer_documents_due ON transactions",
  `CREATE TRIGGER explorer_documents_due AFTER INSERT ON transactions
     FOR EACH STATEMENT ${STANDS_ASIDE} EXECUTE FUNCTION explorer_documents_due()`,
  ...OUTDATING_TRIGGERS.flatMap(([name, event, table]) => [
    `DROP TRIGGER ${name} ON ${table}`,
    `CREATE TRIGGER ${name} AFTER ${event} ON ${table} REFERENCING NEW TABLE AS changed
     FOR EACH STATEMENT ${STANDS_ASIDE} EXECUTE FUNCTION explorer_documents_outdated()`,
  ]),
].join(";\n   ");
