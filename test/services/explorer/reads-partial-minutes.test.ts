/**
 * The partial minutes of an aggregates window (reader/aggregates.ts): a piece of a minute longer
 * than three quarters of it is read as the minute's kept row less the rows outside the window, a
 * shorter one from its rows. Minutes holding many transactions at different seconds, with owners
 * receiving both inside and outside a window's piece or only outside it, and an asset whose
 * outputs of a minute all lie outside; each window must answer what the per-request sums over the
 * rows answer (aggregates-oracle.ts). The transactions' list of unspent outputs is read too.
 */
import { expect } from "chai";
import { migrateExplorer } from "../../../src/services/explorer/schema";
import { createExplorerReader, type AggregatesParams } from "../../../src/services/explorer/reader";
import type { SqlDatabase } from "../../../src/services/sql/database";
import { openPgliteDatabase } from "../../../src/services/sql/pglite-database";
import { summedAggregates, summedTxfeeAggregates } from "./aggregates-oracle";
import { ALICE, BOB, CAROL, cb58Of, DAY, FIXTURE_CONTEXT, type FixtureOutput, type FixtureTransaction, insertTransaction, MINUTE, NATIVE, type Person, T0, TOKEN } from "./fixture-rows";

const START = T0 + 10 * DAY;
/** Owners beyond the fixture's people (only ever receiving: their other fields are never read). */
const OWNERS: Person[] = [ALICE, BOB, CAROL, ...Array.from({ length: 9 }, (_, i) => ({ ...ALICE, name: `owner-${i}`, address: `local1owner${i}` }))];

/** Receives once, in the first seconds of minute 1. */
const ONLY_ONCE: Person = { ...ALICE, name: "only-once", address: "local1onlyonce" };

/** A deterministic pseudo-random sequence. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
}

/** Four minutes of 14 transactions each at spread seconds (the token's outputs of minute 1 only in its first 2 seconds), and one more. */
function busyMinutes(): FixtureTransaction[] {
  const random = seeded(28);
  const transactions: FixtureTransaction[] = [];
  for (let minute = 0; minute < 4; minute++) {
    for (let n = 0; n < 14; n++) {
      const at = START + minute * MINUTE + Math.floor((n * MINUTE) / 14) + Math.floor(random() * 2_000);
      const id = cb58Of(`partial:${minute}:${n}`);
      const chain = random() < 0.25 ? "P" : "X";
      const outputs = Array.from({ length: minute === 1 && n === 0 ? 2 : 1 + Math.floor(random() * 3) }, (_, index): FixtureOutput => {
        const tokenAllowed = minute !== 1 || at - START - MINUTE < 2_000;
        const owners = [OWNERS[Math.floor(random() * OWNERS.length)]!];
        if (random() < 0.2) owners.push(OWNERS.find((o) => !owners.includes(o))!);
        // Minute 1 opens paying one who receives again later in it, and one who does not.
        if (minute === 1 && n === 0) owners.splice(0, owners.length, index === 0 ? ALICE : ONLY_ONCE);
        if (minute === 1 && n === 7 && index === 0) owners.splice(0, owners.length, ALICE);
        return { id: cb58Of(`partial-utxo:${minute}:${n}:${index}`), transactionId: id, index, chain, asset: tokenAllowed && random() < 0.4 ? TOKEN : NATIVE, amount: BigInt(1 + Math.floor(random() * 1e6)), owners, outputType: 7, at };
      });
      transactions.push({ id, chain, type: "base", at, fee: BigInt(1_000 + n), memo: "", genesis: false, inputs: [], outputs });
    }
  }
  // Minute 5 holds one transaction, in its first second.
  const lone = cb58Of("partial:lone");
  transactions.push({ id: lone, chain: "X", type: "base", at: START + 5 * MINUTE + 1_000, fee: 999n, memo: "", genesis: false, inputs: [],
    outputs: [{ id: cb58Of("partial-utxo:lone"), transactionId: lone, index: 0, chain: "X", asset: NATIVE, amount: 5n, owners: [BOB], outputType: 7, at: START + 5 * MINUTE + 1_000 }] });
  return transactions;
}

const TRANSACTIONS = busyMinutes();

async function seeded28(): Promise<SqlDatabase> {
  const db = await openPgliteDatabase(undefined);
  await migrateExplorer(db);
  for (const [alias, id] of Object.entries(FIXTURE_CONTEXT.chains)) {
    await db.query("INSERT INTO chains (id, alias, vm, network_id) VALUES ($1, $2, $3, $4)", [id, alias, { X: "avm", P: "pvm", C: "evm" }[alias]!, FIXTURE_CONTEXT.networkId]);
  }
  for (const t of TRANSACTIONS) await db.transaction((q) => insertTransaction(q, t));
  return db;
}

const at = (minute: number, ms: number) => START + minute * MINUTE + ms;

const WINDOWS: { name: string; params: AggregatesParams }[] = [
  { name: "both ends read as kept rows less the rows outside", params: { startTime: at(1, 3_000), endTime: at(3, 57_500), chainIds: [] } },
  { name: "a short first piece from its rows, a long last one from its kept row", params: { startTime: at(1, 31_000), endTime: at(2, 52_000), chainIds: [] } },
  { name: "inside one minute, cut near both ends", params: { startTime: at(1, 1_000), endTime: at(1, 58_999), chainIds: [] } },
  { name: "inside one minute, the token's outputs all outside", params: { startTime: at(1, 2_500), endTime: at(1, 59_999), chainIds: [], assetId: TOKEN } },
  { name: "per minute, from a minute whose outputs of the asset all lie outside", params: { startTime: at(1, 2_500), endTime: at(3, 30_000), chainIds: [], assetId: TOKEN, intervalSize: "minute" } },
  { name: "per minute, from a minute whose transactions all lie outside", params: { startTime: at(5, 1_500), endTime: at(6, 30_000), chainIds: [], intervalSize: "minute" } },
  { name: "per minute, one asset", params: { startTime: at(0, 4_000), endTime: at(3, 55_000), chainIds: [], assetId: NATIVE, intervalSize: "minute" } },
  { name: "per minute, the P chain", params: { startTime: at(0, 1_500), endTime: at(3, 59_000), chainIds: [FIXTURE_CONTEXT.chains.P], intervalSize: "minute" } },
  { name: "per hour, ending in the last minute", params: { startTime: at(0, 2_000), endTime: at(3, 50_000), chainIds: [], intervalSize: "hour" } },
];

describe("explorer aggregates: partial minutes read from their rows or from their kept rows (PGlite)", function () {
  this.timeout(120_000);
  let db: SqlDatabase;
  before(async () => {
    db = await seeded28();
  });
  after(async () => {
    await db.close();
  });

  it("the data holds what the windows are about: owners both outside and inside a piece of a minute, or only outside; the token only outside", () => {
    const outside = [...OWNERS, ONLY_ONCE].filter((o) => TRANSACTIONS.some((t) => t.at < at(1, 3_000) && t.at >= at(1, 0) && t.outputs.some((out) => out.owners.includes(o))));
    const inside = OWNERS.filter((o) => TRANSACTIONS.some((t) => t.at >= at(1, 3_000) && t.at < at(2, 0) && t.outputs.some((out) => out.owners.includes(o))));
    expect(outside.some((o) => inside.includes(o))).to.equal(true);
    expect(outside.some((o) => !inside.includes(o))).to.equal(true);
    expect(TRANSACTIONS.some((t) => t.at >= at(1, 0) && t.at < at(1, 2_500) && t.outputs.some((o) => o.asset === TOKEN))).to.equal(true);
  });

  // The fixture writes outputs as rows stored before migration 11 or by another writer: no sole
  // owner, so the owners are read from output_addresses. The ingester keeps each one-owner output's
  // owner on its row (schema-outputs-owner.ts); the windows are asked of both.
  const OWNERS_KEPT = [
    { owners: "owners read from their rows", keep: "UPDATE outputs SET sole_owner = NULL" },
    {
      owners: "one-owner outputs' owners kept on their rows",
      keep: "UPDATE outputs o SET sole_owner = (SELECT CASE WHEN count(*) = 1 THEN min(oa.address) END FROM output_addresses oa WHERE oa.output_id = o.id)",
    },
  ];
  for (const { owners, keep } of OWNERS_KEPT) {
    for (const { name, params } of WINDOWS) {
      it(`${name}, ${owners}: answers the per-request sums`, async () => {
        await db.query(keep);
        const reader = createExplorerReader(db, FIXTURE_CONTEXT);
        const kept = await reader.aggregates(params);
        expect(kept).to.deep.equal(await summedAggregates(db, FIXTURE_CONTEXT, params));
        expect(await reader.txfeeAggregates(params)).to.deep.equal(await summedTxfeeAggregates(db, params));
      });
    }
  }

  it("the data holds outputs of two owners, which keep no sole owner, beside one-owner outputs that do", async () => {
    await db.query(OWNERS_KEPT[1]!.keep);
    const [row] = await db.query("SELECT count(*) FILTER (WHERE sole_owner IS NULL)::int AS shared, count(sole_owner)::int AS sole FROM outputs");
    expect(row!.shared).to.be.greaterThan(5);
    expect(row!.sole).to.be.greaterThan(50);
  });

  it("a minute whose outputs of the asset all lie outside the window counts no asset", async () => {
    const answer = await createExplorerReader(db, FIXTURE_CONTEXT).aggregates(WINDOWS[3]!.params);
    expect(answer.aggregates.assetCount).to.equal(0);
    expect(answer.aggregates.outputCount).to.equal(0);
  });

  it("a page of transactions none of whose outputs is redeemed is their records", async () => {
    const reader = createExplorerReader(db, FIXTURE_CONTEXT);
    const page = await reader.transactions({ startTime: 0, endTime: START + DAY, limit: 20, chainIds: [], addresses: [], sort: "timestamp-desc" });
    expect(page.items.map((t) => t.id)).to.deep.equal([...TRANSACTIONS].sort((a, b) => b.at - a.at).slice(0, 20).map((t) => t.id));
    const built = await db.query("SELECT explorer_transaction_json(id)::text AS record FROM unnest($1::text[]) WITH ORDINALITY AS given(id, ord) ORDER BY ord", [`{${page.items.map((t) => t.id).join(",")}}`]);
    expect(page.items).to.deep.equal(built.map((row) => JSON.parse(String(row.record))));
    expect(page.items.every((t) => t.outputs.every((o) => o.redeemingTransactionID === ""))).to.equal(true);
  });
});
