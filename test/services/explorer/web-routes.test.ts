/**
 * The pages over HTTP (a real loopback server, the stand-in reader of web-records.ts): each page
 * has its URL under the base path, a search naming one record redirects to it, unknown IDs get
 * a 404 page and malformed input a 400 page that says what was expected.
 */
import { expect } from "chai";
import { PAGE_PATHS, createPages } from "../../../src/services/explorer/web";
import { servePages, type PagesServer } from "../../helpers/browser";
import { ALICE, C_HASH, GOLD_ID, TRANSFER_ID, context, id, recordsReader } from "./web-records";

async function get(url: string): Promise<{ status: number; body: string; location: string | null; type: string | null }> {
  const response = await fetch(url, { redirect: "manual" });
  return { status: response.status, body: await response.text(), location: response.headers.get("location"), type: response.headers.get("content-type") };
}

describe("explorer pages: routes", () => {
  let server: PagesServer;
  let standalone: PagesServer;
  before(async () => {
    server = await servePages(createPages({ reader: recordsReader(), context, basePath: "/explorer" }), "/explorer");
    standalone = await servePages(createPages({ reader: recordsReader(), context, basePath: "/" }), "");
  });
  after(async () => {
    await server.close();
    await standalone.close();
  });

  it("serves the home page with the latest of each chain", async () => {
    const page = await get(`${server.url}/`);
    expect(page.status).to.equal(200);
    expect(page.type).to.equal("text/html; charset=utf-8");
    for (const heading of ["Exchange chain (X): latest transactions", "Platform chain (P): latest transactions", "Contract chain (C): latest blocks"]) expect(page.body).to.include(heading);
    expect(page.body).to.include(`/explorer/tx/${TRANSFER_ID}`);
  });

  it("builds every link from the base path, under /explorer and standalone", async () => {
    const mounted = [...(await get(`${server.url}/tx/${TRANSFER_ID}`)).body.matchAll(/(?:href|src|action)="([^"]+)"/g)].map((m) => m[1]!);
    expect(mounted.filter((link) => !link.startsWith("/explorer/"))).to.deep.equal([]);
    const alone = [...(await get(`${standalone.url}/tx/${TRANSFER_ID}`)).body.matchAll(/(?:href|src|action)="([^"]+)"/g)].map((m) => m[1]!);
    expect(alone.filter((link) => link.startsWith("/explorer"))).to.deep.equal([]);
    expect(alone).to.include(`/address/${ALICE}`);
  });

  it("forbids inline and foreign scripts with its content security policy", async () => {
    const response = await fetch(`${server.url}/tx/${TRANSFER_ID}`);
    expect(response.headers.get("content-security-policy")).to.include("script-src 'self'");
    expect(response.headers.get("x-content-type-options")).to.equal("nosniff");
  });

  it("serves its style sheet and chart script", async () => {
    expect((await get(`${server.url}/static/explorer.css`)).type).to.equal("text/css; charset=utf-8");
    expect((await get(`${server.url}/static/chart.js`)).type).to.equal("text/javascript; charset=utf-8");
  });

  it("redirects a search that names exactly one record to its page", async () => {
    const page = await get(`${server.url}/search?q=${TRANSFER_ID}`);
    expect(page.status).to.equal(302);
    expect(page.location).to.equal(`/explorer/tx/${TRANSFER_ID}`);
  });

  it("redirects a search for an address with its chain prefix to the address", async () => {
    const page = await get(`${server.url}/search?q=X-${ALICE}`);
    expect(page.location).to.equal(`/explorer/address/${ALICE}`);
  });

  it("redirects a search for a number to that contract-chain block", async () => {
    expect((await get(`${server.url}/search?q=5`)).location).to.equal("/explorer/cblock/5");
  });

  it("lists the results of a search that matches several records, keeping the query in the box", async () => {
    const page = await get(`${server.url}/search?q=${encodeURIComponent("GOLD")}`);
    expect(page.status).to.equal(200);
    expect(page.body).to.include(`/explorer/asset/${GOLD_ID}`);
    expect(page.body).to.include('value="GOLD"');
  });

  it("answers an unknown transaction ID with a friendly 404 page", async () => {
    const unknown = id(0xee);
    const page = await get(`${server.url}/tx/${unknown}`);
    expect(page.status).to.equal(404);
    expect(page.body).to.include(`No transaction <code class="id">${unknown}</code> is known to this explorer.`);
  });

  it("explains a malformed address with a 400 page", async () => {
    const page = await get(`${server.url}/address/X-local1notanaddress`);
    expect(page.status).to.equal(400);
    expect(page.body).to.include("An address is X-, P- or C- followed by a bech32 address of this network (local1…)");
  });

  it("explains an ID that is not cb58 with a 400 page", async () => {
    const page = await get(`${server.url}/tx/hello`);
    expect(page.status).to.equal(400);
    expect(page.body).to.include("A transaction ID is 32 bytes written in cb58");
  });

  it("shows a contract-chain block and a contract-chain transaction by their URLs", async () => {
    expect((await get(`${server.url}/cblock/5`)).body).to.include(`/explorer/ctx/${C_HASH}`);
    expect((await get(`${server.url}/ctx/${C_HASH}`)).body).to.include("Deposit");
    expect((await get(`${server.url}/cblock/6`)).status).to.equal(404);
  });

  it("lists the assets with their supply in their denomination", async () => {
    const page = await get(`${server.url}/assets`);
    expect(page.body).to.include(`<a href="/explorer/asset/${GOLD_ID}">GOLD</a>`);
    expect(page.body).to.include("1\u2009000\u2009000.00");
  });

  it("lists one chain's transactions and refuses a chain that is not X, P or C", async () => {
    expect((await get(`${server.url}/txs/X`)).body).to.include(`/explorer/tx/${TRANSFER_ID}`);
    expect((await get(`${server.url}/txs/Q`)).status).to.equal(400);
  });

  it("answers an unknown path with a 404 page inside the layout", async () => {
    const page = await get(`${server.url}/nothing/here/at/all`);
    expect(page.status).to.equal(404);
    expect(page.body).to.include("There is no page at");
  });

  it("refuses an unknown chart interval with a 400 page naming the sizes", async () => {
    const page = await get(`${server.url}/chart?interval=fortnight`);
    expect(page.status).to.equal(400);
    expect(page.body).to.include("minute, hour, day, week, month, year");
  });

  it("charts one asset's activity with its volume in that asset, linked from the asset's page", async () => {
    const assetPage = await get(`${server.url}/asset/${GOLD_ID}`);
    expect(assetPage.body).to.include(`href="/explorer/chart?interval=minute&amp;asset=${GOLD_ID}"`);
    const chart = await get(`${server.url}/chart?interval=minute&asset=${GOLD_ID}`);
    expect(chart.body).to.include("<th>Volume (GOLD)</th>");
    expect(chart.body).to.include(`<a href="/explorer/chart?interval=hour&amp;asset=${GOLD_ID}">hour</a>`);
    expect((await get(`${server.url}/chart?asset=GOLD`)).status).to.equal(400);
  });

  it("answers 503 with the database's message when the reader fails", async () => {
    const failing = await servePages(createPages({ reader: recordsReader({ transaction: async () => Promise.reject(new Error("connection refused")) }), context, basePath: "/" }), "");
    try {
      const page = await get(`${failing.url}/tx/${TRANSFER_ID}`);
      expect(page.status).to.equal(503);
      expect(page.body).to.include("Its database did not answer: connection refused");
    } finally {
      await failing.close();
    }
  });
});

describe("explorer pages: the paths they answer", () => {
  it("leave the JSON API and the status to the router and answer every other path", () => {
    expect(["/v2", "/v2/transactions", "/x", "/X/assets", "/status"].filter((p) => PAGE_PATHS.test(p))).to.deep.equal([]);
    expect(["/", "/tx/abc", "/search", "/static/explorer.css", "/v2x", "/xyz"].every((p) => PAGE_PATHS.test(p))).to.equal(true);
  });
});
