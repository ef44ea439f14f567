/**
 * The pages over the explorer's real reader, on PGlite holding the reader tests' table fixtures
 * (fixture-rows.ts): per-chain balances and holders in each asset's denomination, history pages
 * that follow the reader's cursor, memos stored as hex read as text, logs no known ABI applies
 * to shown raw, and a search naming one transaction redirecting to it.
 */
import { expect } from "chai";
import { createExplorerReader } from "../../../src/services/explorer/reader";
import { createExplorerPages } from "../../../src/services/explorer/web";
import type { SqlDatabase } from "../../../src/services/sql/database";
import { servePages, type PagesServer } from "../../helpers/browser";
import { pgliteKind, seededDatabase } from "./api-helpers";
import { BOB, CAROL, DAVE, FIXTURE_CONTEXT, FIXTURE_C_BLOCKS, NAMED, TOKEN } from "./fixture-rows";

const THIN = "\u2009";

async function page(url: string): Promise<{ status: number; body: string; location: string | null }> {
  const response = await fetch(url, { redirect: "manual" });
  return { status: response.status, body: await response.text(), location: response.headers.get("location") };
}

/** The visible text of a piece of markup, one space between words. */
function text(markup: string): string {
  return markup.replace(/<[^>]*>/g, " ").replace(/&amp;/g, "&").replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/[ \t\r\n]+/g, " ").trim();
}

/** The markup of the element with this id (up to the end of its section). */
function sectionOf(body: string, id: string): string {
  const start = body.indexOf(`id="${id}"`);
  expect(start, `no element #${id}`).to.be.greaterThan(-1);
  return body.slice(start, body.indexOf("</section>", start));
}

describe("explorer pages: over the reader, on PGlite with the table fixtures", function () {
  this.timeout(60_000);
  let db: SqlDatabase;
  let server: PagesServer;
  before(async () => {
    db = await seededDatabase(pgliteKind());
    const reader = createExplorerReader(db, FIXTURE_CONTEXT);
    server = await servePages(createExplorerPages({ reader, context: FIXTURE_CONTEXT, basePath: "/explorer", pageSize: 10 }), "/explorer");
  });
  after(async () => {
    await server.close();
    await db.close();
  });

  it("shows an address's balance of each asset on the exchange chain, in the asset's denomination", async () => {
    const balances = text(sectionOf((await page(`${server.url}/address/${BOB.address}`)).body, "balances-X"));
    expect(balances).to.include(`5${THIN}000.00 TTK`);
    expect(balances).to.include("4.989001 NAT");
  });

  it("lists an asset's holders with their balances, largest first, and its supply", async () => {
    const body = (await page(`${server.url}/asset/${TOKEN}`)).body;
    const holders = text(sectionOf(body, "holders"));
    expect(holders).to.match(new RegExp(`${BOB.address} 5${THIN}000.00 TTK 55.55 % .*4${THIN}000.00 TTK 44.44 %`));
    expect(text(body)).to.include(`Current supply 9${THIN}000.00 TTK`);
  });

  it("pages an address's history with the reader's cursor: every transaction once, newest first", async () => {
    const seen: string[] = [];
    let next: string | undefined = `${server.url}/address/${DAVE.address}`;
    let pages = 0;
    while (next !== undefined) {
      const body: string = (await page(next)).body;
      seen.push(...[...sectionOf(body, "history").matchAll(/href="\/explorer\/tx\/([^"]+)"/g)].map((m) => m[1]!));
      const older: string | undefined = /<a rel="next" href="([^"]+)"/.exec(body)?.[1];
      next = older === undefined ? undefined : `${server.url.replace(/\/explorer$/, "")}${older.replace(/&amp;/g, "&")}`;
      pages++;
    }
    expect(pages).to.equal(3);
    expect(seen).to.have.length(25);
    expect(new Set(seen).size).to.equal(25);
    expect(seen[seen.length - 1]).to.equal(NAMED.shared.id);
  });

  it("reads a memo stored as hex as its text", async () => {
    expect(text((await page(`${server.url}/tx/${NAMED.pay1.id}`)).body)).to.include("Memo hello");
  });

  it("shows a log no known ABI applies to with its raw topics and data", async () => {
    const block = FIXTURE_C_BLOCKS[2]!;
    const tx = block.transactions[0]!;
    const body = (await page(`${server.url}/ctx/${tx.hash}`)).body;
    expect(text(sectionOf(body, "logs"))).to.include("not a known nativekit event");
    expect(sectionOf(body, "logs")).to.include(tx.logs[0]!.topics[0]!);
    expect(sectionOf(body, "logs")).to.include(tx.logs[0]!.data);
  });

  it("lists a contract-chain block's transactions", async () => {
    const block = FIXTURE_C_BLOCKS[4]!;
    const links = [...sectionOf((await page(`${server.url}/cblock/4`)).body, "transactions").matchAll(/href="\/explorer\/ctx\/([^"]+)"/g)].map((m) => m[1]);
    expect(links).to.deep.equal(block.transactions.map((t) => t.hash));
  });

  it("lists the contract-chain transactions from or to a 0x address", async () => {
    const involved = FIXTURE_C_BLOCKS.flatMap((b) => b.transactions).filter((t) => t.from === CAROL.evm || t.to === CAROL.evm);
    const links = [...sectionOf((await page(`${server.url}/address/${CAROL.evm}`)).body, "history").matchAll(/href="\/explorer\/ctx\/([^"]+)"/g)].map((m) => m[1]);
    expect([...links].sort()).to.deep.equal(involved.map((t) => t.hash).sort());
  });

  it("links a block to the next one only while a next one is indexed", async () => {
    const latest = FIXTURE_C_BLOCKS.length - 1;
    expect((await page(`${server.url}/cblock/${latest - 1}`)).body).to.include(`<a rel="next" href="/explorer/cblock/${latest}">`);
    const last = (await page(`${server.url}/cblock/${latest}`)).body;
    expect(last).not.to.include('rel="next"');
    expect(text(last)).to.include("the latest block");
  });

  it("redirects a search for a whole transaction ID to the transaction", async () => {
    const answer = await page(`${server.url}/search?q=${NAMED.token.id}`);
    expect(answer.status).to.equal(302);
    expect(answer.location).to.equal(`/explorer/tx/${NAMED.token.id}`);
  });

  it("answers an ID the database does not hold with the 404 page", async () => {
    expect((await page(`${server.url}/asset/${NAMED.pay1.id}`)).status).to.equal(404);
  });
});
