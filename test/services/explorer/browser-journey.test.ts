/**
 * The journey of `npm run demo` as a person sees it in the explorer: a real `nativekit node
 * --index-enabled` (child process), the demo's steps run against it (scripts/demo.ts), the
 * explorer following the node into its database, and headless Chromium clicking through the
 * pages: search a transaction, follow its owner to the balance the node reports, the asset, the
 * wrap transaction with its decoded logs, its block — and the same pages without JavaScript.
 */
import { expect } from "chai";
import { JsonRpcProvider } from "ethers";
import type { Browser, Page } from "playwright-core";
import { runJourney } from "../../../scripts/demo";
import { createNodeClient, type NodeClient } from "../../../src/clients";
import { privateKeyToAddresses } from "../../../src/encoding";
import { formatAssetAmount } from "../../../src/flows/amounts";
import { LOCAL_TEST_KEY } from "../../../src/network/constants";
import { createExplorerReader, type ExplorerReader } from "../../../src/services/explorer/reader";
import { openExplorerService, type ExplorerService } from "../../../src/services/explorer/service";
import { checkExplorerAgainstNode } from "../../../src/services/explorer/ingest/correctness";
import { createExplorerSite } from "../../../src/services/explorer/site";
import { launchBrowser, searchFromBox, serve, withPage, type PagesServer } from "../../helpers/browser";
import { startedCliNode, type CliNode } from "../../helpers/cli-node";
import { alive } from "../../helpers/processes";

/** The transaction IDs the demo printed under each step, by the step's number ("1", "2-3", …). */
function stepTransactions(lines: readonly string[]): Map<string, string[]> {
  const steps = new Map<string, string[]>();
  let step = "";
  for (const line of lines) {
    const title = /^(\d+(?:-\d+)?)\. /.exec(line);
    if (title !== null) step = title[1]!;
    const ids = /^ {2}tx (.+)$/m.exec(line);
    if (ids !== null) steps.set(step, ids[1]!.split(", "));
  }
  return steps;
}

/** What a person reads: spaces of any width as one space. */
function readable(text: string | null): string {
  return (text ?? "").replace(/\s+/g, " ").trim();
}

/** The value shown next to `name` in the facts list under `scope` ("Type" → "import"). */
async function fact(page: Page, name: string, scope = "main"): Promise<string> {
  return readable(await page.locator(`${scope} dl.facts > dt:text-is("${name}") + dd`).first().textContent());
}

describe("explorer pages: the journey of npm run demo, in a browser", function () {
  this.timeout(240_000);
  const ewoq = privateKeyToAddresses(LOCAL_TEST_KEY, "local");
  let node: CliNode;
  let client: NodeClient;
  let explorer: ExplorerService;
  let reader: ExplorerReader;
  let server: PagesServer;
  let browser: Browser;
  let assetID: string;
  let steps: Map<string, string[]>;

  before(async () => {
    node = await startedCliNode(["--index-enabled"]);
    client = createNodeClient({ url: node.url });
    const provider = new JsonRpcProvider(`${node.url}/ext/bc/C/rpc`, undefined, { staticNetwork: true, cacheTimeout: -1, pollingInterval: 50 });
    const lines: string[] = [];
    // The explorer opens its database while the journey runs, and follows the node as it goes.
    const opening = openExplorerService({ nodeUrl: node.url, pollIntervalMs: 100 });
    try {
      assetID = (await runJourney(client, provider, (line) => lines.push(line))).assetID;
    } finally {
      provider.destroy();
      explorer = await opening;
    }
    steps = stepTransactions(lines);
    await explorer.ingester.waitUntilCaughtUp(60_000);
    reader = createExplorerReader(explorer.database, explorer.context);
    // The whole site under /explorer, as `nativekit node --explorer` serves it.
    server = await serve(createExplorerSite(explorer, { basePath: "/explorer" }).handle, "/explorer");
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await explorer?.close();
    if (node !== undefined) {
      await node.stop();
      expect(alive(node.pid)).to.equal(false);
    }
  });

  const visit = <T>(javaScriptEnabled: boolean, use: (page: Page) => Promise<T>) => withPage(browser, { javaScriptEnabled }, use);

  it("after the demo's journey, holds every balance and UTXO set the node has, and every contract-chain block as the node serves it", async () => {
    const report = await checkExplorerAgainstNode(explorer.database, explorer.node, explorer.context);
    expect(report.mismatches).to.deep.equal([]);
    expect(report.unseenImports).to.deep.equal([]);
    expect(report.checked.balances).to.be.greaterThan(0);
    expect(report.checked.cBlocks).to.be.greaterThan(3);
  });

  const lastImport = () => steps.get("7-8")![1]!;
  const wrapHash = () => steps.get("4")![0]!;

  it("shares the router with the service: /status still answers JSON beside the pages", async () => {
    const response = await fetch(`${server.url}/status`);
    expect(response.headers.get("content-type")).to.equal("application/json; charset=utf-8");
    expect((await fetch(`${server.url}/`)).headers.get("content-type")).to.equal("text/html; charset=utf-8");
  });

  it("shows the journey's transactions on the home page", async () => {
    await visit(true, async (page) => {
      await page.goto(`${server.url}/`);
      expect(await page.locator(`#x-transactions a[href$="/tx/${lastImport()}"]`).count()).to.equal(1);
      expect(await page.locator("#c-blocks tbody tr").count()).to.be.greaterThan(0);
    });
  });

  it("takes a transaction ID typed in the search box to that transaction's page", async () => {
    await visit(true, async (page) => {
      await page.goto(`${server.url}/`);
      await page.getByRole("searchbox", { name: "Search" }).fill(lastImport());
      await page.getByRole("button", { name: "Search" }).click();
      await page.waitForURL(`**/explorer/tx/${lastImport()}`);
      expect(readable(await page.locator("h1").textContent())).to.equal(`Transaction ${lastImport()}`);
      expect(await fact(page, "Type")).to.equal("import");
      expect(readable(await page.locator("#outputs").textContent())).to.include("100 000.00 GOLD");
    });
  });

  it("follows the transaction's owner to the address and shows the balance the node reports", async () => {
    const { balance } = await client.xvm.getBalance({ address: ewoq.exchange, assetID });
    await visit(true, async (page) => {
      await page.goto(`${server.url}/tx/${lastImport()}`);
      await page.locator("#outputs").getByRole("link", { name: ewoq.exchange }).first().click();
      await page.waitForURL(`**/explorer/address/${ewoq.exchange.slice(2)}`);
      const row = page.locator("#balances-X tbody tr", { hasText: "GOLD" });
      expect(readable(await row.locator("td").first().textContent())).to.equal(formatAssetAmount(balance, 2, "GOLD"));
    });
  });

  it("follows the amount's asset to GOLD: its name, denomination and its whole fixed supply, in GOLD", async () => {
    // The demo creates 1 000 000.00 GOLD and only moves it between chains: whatever sits in
    // contract-chain balances still counts.
    const record = (await reader.asset(assetID))!;
    expect(record.currentSupply).to.equal((1_000_000n * 100n).toString());
    await visit(true, async (page) => {
      await page.goto(`${server.url}/tx/${lastImport()}`);
      await page.locator("#outputs").getByRole("link", { name: "GOLD" }).first().click();
      await page.waitForURL(`**/explorer/asset/${assetID}`);
      expect(readable(await page.locator("h1").textContent())).to.equal("Demo Gold GOLD");
      expect(await fact(page, "Denomination")).to.equal("2 decimals");
      expect(await fact(page, "Current supply")).to.equal(`${formatAssetAmount(BigInt(record.currentSupply), 2, "GOLD")} (${record.currentSupply} in the smallest unit)`);
    });
  });

  it("finds the wrap transaction by its hash and shows the nativeAssetCall and the wrapper's events decoded", async () => {
    await visit(true, async (page) => {
      await page.goto(`${server.url}/`);
      await searchFromBox(page, wrapHash());
      await page.waitForURL(`**/explorer/ctx/${wrapHash()}`);
      expect(readable(await page.locator("#call .event").first().textContent())).to.equal("nativeAssetCall");
      expect(await fact(page, "amount", "#call")).to.equal("400 000.00 GOLD");
      const events = await page.locator("#logs .event").allTextContents();
      expect(events).to.include.members(["Deposit", "Transfer"]);
    });
  });

  it("goes from the contract-chain transaction to its block, which lists it under the node's block hash", async () => {
    await visit(true, async (page) => {
      await page.goto(`${server.url}/ctx/${wrapHash()}`);
      const block = await fact(page, "Block");
      await page.locator("dl.facts").getByRole("link", { name: block, exact: true }).click();
      await page.waitForURL(`**/explorer/cblock/${block}`);
      expect(await page.locator(`#transactions a[href$="/ctx/${wrapHash()}"]`).count()).to.equal(1);
      const onNode = await node.call<{ hash: string }>("/ext/bc/C/rpc", "eth_getBlockByNumber", [`0x${BigInt(block).toString(16)}`, false]);
      expect(await fact(page, "Hash")).to.equal(onNode.hash);
    });
  });

  it("reads the same without JavaScript: search, transaction, address and block pages", async () => {
    await visit(false, async (page) => {
      await page.goto(`${server.url}/`);
      await searchFromBox(page, lastImport());
      await page.waitForURL(`**/explorer/tx/${lastImport()}`);
      await page.locator("#outputs").getByRole("link", { name: ewoq.exchange }).first().click();
      await page.waitForURL(`**/explorer/address/**`);
      expect(await page.locator("#balances-X tbody tr", { hasText: "GOLD" }).count()).to.equal(1);
      await page.goto(`${server.url}/ctx/${wrapHash()}`);
      expect(await page.locator("#logs .event").count()).to.be.greaterThan(0);
    });
  });
});
