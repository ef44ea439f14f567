/**
 * Screenshots of the explorer's main pages after the journey of `npm run demo`, for the README:
 * an embedded node with indexing, the demo's steps, the explorer following the node, and
 * headless Chromium (Debian's `chromium`, or $CHROMIUM_PATH) photographing the pages.
 *
 *   npx hardhat run scripts/explorer-screenshots.ts      # writes docs/screenshots/explorer-*.png
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { JsonRpcProvider } from "ethers";
import { runJourney } from "./demo";
import { createNodeClient } from "../src/clients";
import { privateKeyToAddresses } from "../src/encoding";
import { LOCAL_TEST_KEY } from "../src/network/constants";
import { startHttpNode } from "../src/node/http-server";
import { NodeChains } from "../src/node/node-chains";
import { createExplorerReader } from "../src/services/explorer/reader";
import { openExplorerService } from "../src/services/explorer/service";
import { createExplorerHttpHandler } from "../src/services/explorer/http";
import { mountExplorerPages } from "../src/services/explorer/web";
import { launchBrowser, serve } from "../test/helpers/browser";

const OUT = path.join(__dirname, "..", "docs", "screenshots");

async function main(): Promise<void> {
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  const network = await NodeChains.create({ management: { indexEnabled: true } });
  const node = await startHttpNode({ port: 0, routes: network.routes });
  const provider = new JsonRpcProvider(`${node.url}/ext/bc/C/rpc`, undefined, { staticNetwork: true, cacheTimeout: -1, pollingInterval: 50 });
  const lines: string[] = [];
  try {
    // The explorer opens its database while the journey runs, and follows the node as it goes.
    const opening = openExplorerService({ nodeUrl: node.url, pollIntervalMs: 100 });
    const { assetID } = await runJourney(createNodeClient({ url: node.url }), provider, (line) => lines.push(line)).catch(async (error: unknown) => {
      await (await opening).close();
      throw error;
    });
    console.log(`journey done (${elapsed()})`);
    const explorer = await opening;
    try {
      await explorer.ingester.waitUntilCaughtUp(120_000);
      console.log(`explorer caught up (${elapsed()})`);
      const router = createExplorerHttpHandler(explorer, { basePath: "/explorer" });
      mountExplorerPages(router, { reader: createExplorerReader(explorer.database, explorer.context), context: explorer.context });
      const server = await serve(router.handle, "/explorer");
      const browser = await launchBrowser();
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        const ids = lines.flatMap((line) => /^ {2}tx (.+)$/m.exec(line)?.[1]?.split(", ") ?? []);
        const wrapHash = ids.find((id) => id.startsWith("0x"))!;
        const lastImport = ids[ids.length - 1]!;
        const blockOfWrap = (await provider.getTransactionReceipt(wrapHash))!.blockNumber;
        const shots: [string, string][] = [
          ["explorer-home.png", "/"],
          ["explorer-transaction.png", `/tx/${lastImport}`],
          ["explorer-address.png", `/address/${privateKeyToAddresses(LOCAL_TEST_KEY, "local").exchange.slice(2)}`],
          ["explorer-asset.png", `/asset/${assetID}`],
          ["explorer-c-block.png", `/cblock/${blockOfWrap}`],
          ["explorer-c-transaction.png", `/ctx/${wrapHash}`],
          ["explorer-activity.png", "/chart?interval=minute"],
        ];
        await fs.mkdir(OUT, { recursive: true });
        for (const [file, pagePath] of shots) {
          await page.goto(`${server.url}${pagePath}`);
          await page.screenshot({ path: path.join(OUT, file), fullPage: true });
          if (process.env.EXPLORER_DUMP_HTML !== undefined) await fs.writeFile(path.join(process.env.EXPLORER_DUMP_HTML, file.replace(".png", ".html")), await page.content());
          console.log(`${path.relative(process.cwd(), path.join(OUT, file))}: ${server.url}${pagePath}`);
        }
      } finally {
        await browser.close();
        await server.close();
      }
    } finally {
      await explorer.close();
    }
  } finally {
    provider.destroy();
    await node.close();
  }
  console.log(`done (${elapsed()})`);
}

main().catch((error: unknown) => {
  console.error(`explorer screenshots failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exitCode = 1;
});
