/**
 * The reader used directly (as the web pages use it), over PGlite with the table fixtures:
 * what the API tests do not show — keyset pages staying whole while rows arrive, an address over
 * all chains, foreign cursors.
 */
import { expect } from "chai";
import { createExplorerReader, CursorError, type ExplorerReader, type TransactionsParams } from "../../../src/services/explorer/reader";
import type { SqlDatabase } from "../../../src/services/sql/database";
import { pgliteKind, seededDatabase } from "./api-helpers";
import { balanceOf } from "./fixture-oracle";
import { ALICE, BOB, CAROL, DAVE, DAY, TOKEN, FIXTURE_CONTEXT, FIXTURE_TRANSACTIONS, NATIVE, T0, cb58Of, insertTransaction, type FixtureTransaction } from "./fixture-rows";

const ALL: TransactionsParams = { startTime: 0, endTime: T0 + 30 * DAY, limit: 5000, chainIds: [], addresses: [], sort: "timestamp-asc" };

function arrival(name: string, at: number): FixtureTransaction {
  const id = cb58Of(`tx:${name}`);
  return { id, chain: "X", type: "base", at, fee: 0n, memo: "", genesis: false, inputs: [], outputs: [{ id: cb58Of(`utxo:${name}:0`), transactionId: id, index: 0, chain: "X", asset: NATIVE, amount: 1n, owners: [DAVE], outputType: 7, at }] };
}

describe("explorer reader (PGlite, table fixtures)", () => {
  let db: SqlDatabase;
  let reader: ExplorerReader;
  before(async function () {
    this.timeout(60_000);
    db = await seededDatabase(pgliteKind());
    reader = createExplorerReader(db, FIXTURE_CONTEXT);
  });
  after(async () => db?.close());

  it("a walk with next sees every transaction once while new ones arrive between pages", async () => {
    const seen: string[] = [];
    const arrived: string[] = [];
    const timeOf = new Map(FIXTURE_TRANSACTIONS.map((t) => [t.id, t.at]));
    let cursor: string | undefined;
    let page = 0;
    do {
      const answer = await reader.transactions({ ...ALL, limit: 4, cursor });
      seen.push(...answer.items.map((t) => t.id));
      cursor = answer.next;
      // Arrivals at the same time as the last item seen and later: both must come after it.
      const extra = arrival(`arrival-${page++}`, timeOf.get(seen[seen.length - 1]!)!);
      timeOf.set(extra.id, extra.at);
      await insertTransaction(db, extra);
      arrived.push(extra.id);
    } while (cursor !== undefined);
    expect(new Set(seen).size).to.equal(seen.length);
    for (const t of FIXTURE_TRANSACTIONS) expect(seen).to.include(t.id);
    // Every arrival but the one after the last page was walked over too.
    expect(arrived.slice(0, -1).every((id) => seen.includes(id))).to.equal(true);
  });

  it("an address over all chains has chainID \"\" and sums every chain", async () => {
    const record = await reader.address(ALICE.address);
    expect(record!.chainID).to.equal("");
    expect(record!.assets[NATIVE]!.balance).to.equal(balanceOf(ALICE, NATIVE).toString());
  });

  it("the addresses list as JSON text walks, page by page, the record the lookup answers for each address and chain", async () => {
    const walked: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = await reader.addressesText({ ...ALL, limit: 2, cursor });
      walked.push(...(JSON.parse(page.items.text) as unknown[]));
      cursor = page.next;
    } while (cursor !== undefined);
    const keys = await db.query("SELECT address, chain_id FROM address_chain ORDER BY address, chain_id");
    expect(walked.length).to.equal(keys.length).and.to.be.greaterThan(2);
    const looked = await Promise.all(keys.map((k) => reader.address(String(k.address), [String(k.chain_id)])));
    expect(walked).to.deep.equal(looked);
  });

  it("an asset's holders come largest balance first, with their unspent sums", async () => {
    const holders = await reader.assetHolders(TOKEN, 10);
    const expected = [BOB, CAROL].map((p) => ({ address: p.address, balance: balanceOf(p, TOKEN).toString() })).sort((a, b) => Number(BigInt(b.balance) - BigInt(a.balance)));
    expect(holders).to.deep.equal(expected);
    expect(await reader.assetHolders(TOKEN, 1)).to.deep.equal(expected.slice(0, 1));
  });

  it("a cursor of another list is refused with a CursorError", async () => {
    const assets = await reader.assets({ startTime: 0, endTime: ALL.endTime, limit: 1, chainIds: [] });
    expect(assets.next).to.be.a("string");
    let error: unknown;
    await reader.transactions({ ...ALL, cursor: assets.next }).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(CursorError);
  });

  it("list values with quotes, backslashes, commas and braces stay whole values", async () => {
    const odd = ['a"b', "c\\d", "e,f", "{g}", "' OR 1=1 --"];
    expect(await reader.addressChains([...odd, ALICE.address])).to.deep.equal({ ...Object.fromEntries(odd.map((v) => [v, []])), [ALICE.address]: [FIXTURE_CONTEXT.chains.X, FIXTURE_CONTEXT.chains.P] });
  });

  it("an unknown ID answers undefined rather than throwing", async () => {
    expect(await reader.transaction(cb58Of("tx:none"))).to.equal(undefined);
    expect(await reader.cBlock(1234)).to.equal(undefined);
    expect(await reader.cTransaction(`0x${"ee".repeat(32)}`)).to.equal(undefined);
  });
});
