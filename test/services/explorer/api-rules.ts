/**
 * The explorer API's rules, run on each database kind (PGlite in memory and a real PostgreSQL
 * server) with the same assertions: one seeded database per kind, read-only, served on
 * 127.0.0.1:0; the clock pinned a month after the fixtures.
 */
import type { SqlDatabase } from "../../../src/services/sql/database";
import { seededDatabase, serveApi, type DatabaseKind, type ServedApi } from "./api-helpers";
import { generalRules } from "./api-rules-general";
import { exchangeRules } from "./api-rules-exchange";
import { DAY, T0 } from "./fixture-rows";

/** The pinned clock of the API tests: 2024-01-31, after every fixture row. */
export const FIXTURE_NOW = T0 + 30 * DAY;

export function describeExplorerApi(kindOf: () => Promise<DatabaseKind>): void {
  let kind: DatabaseKind;
  let db: SqlDatabase;
  let served: ServedApi;
  before(async function () {
    this.timeout(120_000);
    kind = await kindOf();
    db = await seededDatabase(kind);
    served = await serveApi(db, () => FIXTURE_NOW);
  });
  after(async () => {
    await served?.close();
    await db?.close();
    await kind?.close();
  });
  exchangeRules(() => served);
  generalRules(() => served);
}
