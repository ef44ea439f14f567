import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DataDirectoryError, openDataDirectory } from "../../src/storage";
import { refusalOf } from "../helpers/refusal";

const LOCAL = { networkId: 12345, evmChainId: 43112 };

/** A data directory that held a chain: its manifest and some records, closed. */
async function usedDirectory(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-damaged-"));
  const data = await openDataDirectory(dir, LOCAL);
  for (let i = 0; i < 200; i++) data.store.put(`record/${i}`, new Uint8Array(512).fill(i));
  await data.store.commit();
  await data.close();
  return dir;
}

/**
 * Every data file of the directory's database with its size: what a refusal must leave as it
 * was. LevelDB's own lock and info log (LOCK, LOG, LOG.old) are left out: opening writes them.
 */
function databaseFiles(dir: string): Record<string, number> {
  const folder = path.join(dir, "db");
  const names = fs.readdirSync(folder).filter((name) => !/^(LOCK|LOG|LOG\.old)$/.test(name));
  return Object.fromEntries(names.sort().map((name) => [name, fs.statSync(path.join(folder, name)).size]));
}

describe("hostile input: a damaged data directory is refused, never started empty", () => {
  const made: string[] = [];
  after(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it("a database without its CURRENT file is refused with what to do, and its files stay", async () => {
    const dir = await usedDirectory();
    made.push(dir);
    fs.rmSync(path.join(dir, "db", "CURRENT"));
    const before = databaseFiles(dir);
    const error = await refusalOf(openDataDirectory(dir, LOCAL), DataDirectoryError);
    expect(error.message).to.include(path.resolve(dir)).and.to.include("nothing in it was changed").and.to.include("another --db-dir");
    expect(databaseFiles(dir)).to.deep.equal(before);
  });

  it("a database whose MANIFEST file is lost is refused, and its files stay", async () => {
    const dir = await usedDirectory();
    made.push(dir);
    const manifest = fs.readdirSync(path.join(dir, "db")).find((name) => name.startsWith("MANIFEST-"))!;
    fs.rmSync(path.join(dir, "db", manifest));
    const before = databaseFiles(dir);
    await refusalOf(openDataDirectory(dir, LOCAL), DataDirectoryError);
    expect(databaseFiles(dir)).to.deep.equal(before);
  });

  it("an intact directory opens again with what it held", async () => {
    const dir = await usedDirectory();
    made.push(dir);
    const data = await openDataDirectory(dir, LOCAL);
    try {
      expect(data.fresh).to.equal(false);
      expect(await data.store.get("record/7")).to.deep.equal(new Uint8Array(512).fill(7));
    } finally {
      await data.close();
    }
  });

  it("a directory opened by another process is refused as locked, not as damaged", async () => {
    const dir = await usedDirectory();
    made.push(dir);
    const first = await openDataDirectory(dir, LOCAL);
    try {
      const error = await refusalOf(openDataDirectory(dir, LOCAL), Error);
      expect(error).not.to.be.instanceOf(DataDirectoryError);
      expect(error.message).to.match(/already held/);
    } finally {
      await first.close();
    }
  });

  it("the data directory is readable by its owner only (0700)", async () => {
    const dir = await usedDirectory();
    made.push(dir);
    fs.chmodSync(dir, 0o755);
    await (await openDataDirectory(dir, LOCAL)).close();
    expect(fs.statSync(dir).mode & 0o777).to.equal(0o700);
  });
});
