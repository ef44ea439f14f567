import { PGlite } from "@electric-sql/pglite";
import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPgliteTemplate, openPgliteDatabase, type PgliteTemplate } from "../../../src/services/sql/pglite-database";

const tables = async (db: { query(text: string): Promise<Array<Record<string, unknown>>> }) =>
  (await db.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")).map((r) => r.tablename);

describe("PGlite: in-memory databases started from a template instead of initdb", function () {
  this.timeout(120_000);
  let template: PgliteTemplate;
  before(async () => {
    template = await createPgliteTemplate();
  });

  it("opens an empty database that takes writes", async () => {
    const db = await openPgliteDatabase(undefined, { template });
    try {
      expect(await tables(db)).to.deep.equal([]);
      await db.query("CREATE TABLE t (x integer)");
      await db.transaction(async (tx) => tx.query("INSERT INTO t VALUES ($1)", [7]));
      expect(await db.query("SELECT x FROM t")).to.deep.equal([{ x: 7 }]);
      expect(db.description).to.equal("embedded PostgreSQL (PGlite) in memory");
    } finally {
      await db.close();
    }
  });

  it("gives every database opened from one template storage of its own", async () => {
    const a = await openPgliteDatabase(undefined, { template });
    const b = await openPgliteDatabase(undefined, { template });
    try {
      await a.query("CREATE TABLE only_in_a (x integer)");
      expect(await tables(a)).to.deep.equal(["only_in_a"]);
      expect(await tables(b)).to.deep.equal([]);
    } finally {
      await a.close();
      await b.close();
    }
    const c = await openPgliteDatabase(undefined, { template });
    try {
      expect(await tables(c)).to.deep.equal([]);
    } finally {
      await c.close();
    }
  });

  it("starts from the template's data, and ignores the template for a database in a directory", async () => {
    const source = await PGlite.create({});
    await source.query("CREATE TABLE marker (x integer)");
    const marked: PgliteTemplate = { dataDir: await source.dumpDataDir("none") };
    await source.close();
    const memory = await openPgliteDatabase(undefined, { template: marked });
    try {
      expect(await tables(memory)).to.deep.equal(["marker"]);
    } finally {
      await memory.close();
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pglite-template-"));
    const onDisk = await openPgliteDatabase(dir, { template: marked });
    try {
      expect(await tables(onDisk)).to.deep.equal([]);
    } finally {
      await onDisk.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
