/**
 * The pages in a real headless Chromium, on hand-written records (the stand-in reader of
 * web-records.ts): a person searches, follows links, reads amounts; the chart's script shows a
 * bar's numbers; and with JavaScript disabled every page still reads the same.
 */
import { expect } from "chai";
import type { Browser, Page } from "playwright-core";
import { createPages } from "../../../src/services/explorer/web";
import { launchBrowser, searchFromBox, servePages, withPage, type PagesServer } from "../../helpers/browser";
import { ALICE, GOLD_ID, TRANSFER_ID, context, recordsReader } from "./web-records";

describe("explorer pages: in a browser", function () {
  this.timeout(60_000);
  let browser: Browser;
  let server: PagesServer;
  before(async () => {
    browser = await launchBrowser();
    server = await servePages(createPages({ reader: recordsReader(), context, basePath: "/explorer" }), "/explorer");
  });
  after(async () => {
    await server.close();
    await browser.close();
  });

  const visit = <T>(javaScriptEnabled: boolean, use: (page: Page) => Promise<T>) => withPage(browser, { javaScriptEnabled }, use);

  it("takes a transaction ID typed in the search box to the transaction, then to its address and asset", async () => {
    await visit(true, async (page) => {
      await page.goto(`${server.url}/`);
      await page.getByRole("searchbox", { name: "Search" }).fill(TRANSFER_ID);
      await page.getByRole("button", { name: "Search" }).click();
      await page.waitForURL(`**/explorer/tx/${TRANSFER_ID}`);
      expect(await page.locator("q.memo").textContent()).to.equal("thanks for the <script>alert('gold')</script>");
      await page.locator("#outputs").getByRole("link", { name: `X-${ALICE}` }).click();
      await page.waitForURL(`**/explorer/address/${ALICE}`);
      expect(await page.locator("#balances tbody tr td").first().textContent()).to.equal("999\u2009975.00 GOLD");
      await page.locator("#balances").getByRole("link", { name: "GOLD" }).first().click();
      await page.waitForURL(`**/explorer/asset/${GOLD_ID}`);
      expect(await page.locator("h1").textContent()).to.equal("Demo <b>Gold</b> GOLD");
    });
  });

  it("reads the same without JavaScript: the search form and the links need no script", async () => {
    await visit(false, async (page) => {
      await page.goto(`${server.url}/`);
      await searchFromBox(page, `X-${ALICE}`);
      await page.waitForURL(`**/explorer/address/${ALICE}`);
      expect(await page.locator("#balances tbody tr td").first().textContent()).to.equal("999\u2009975.00 GOLD");
    });
  });

  it("draws the activity chart on the server, and its script shows the numbers of the bar under the pointer", async () => {
    await visit(true, async (page) => {
      await page.goto(`${server.url}/chart?interval=hour`);
      expect(await page.locator("svg rect.bar").count()).to.equal(3);
      await page.locator("svg rect.bar").first().hover();
      expect(await page.locator("output.readout").textContent()).to.equal("2026-11-24 00:00:00 UTC: 2 transactions, 2 receiving addresses (summed per minute), 4 outputs, 1 assets, volume 200");
    });
  });

  it("explains a malformed ID on a page inside the layout, with its search box", async () => {
    await visit(false, async (page) => {
      const response = await page.goto(`${server.url}/tx/${GOLD_ID.slice(0, -1)}x`);
      expect(response?.status()).to.equal(400);
      expect(await page.getByRole("searchbox", { name: "Search" }).count()).to.equal(1);
    });
  });
});
