/**
 * A real headless browser for the explorer's page tests: Debian's `chromium` driven by
 * playwright-core (one browser per test file, closed in `after`), and a loopback HTTP server
 * serving the pages under a base path, as the explorer and the node mount them.
 */
import fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser, type Page } from "playwright-core";
import type { ExplorerPages } from "../../src/services/explorer/web";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/lib/chromium/chromium", "/usr/bin/google-chrome"];

/** The browser executable: $CHROMIUM_PATH, else the first of Debian's usual paths that exists. */
export function chromiumExecutable(): string {
  const fromEnvironment = process.env.CHROMIUM_PATH;
  const candidates = fromEnvironment === undefined || fromEnvironment === "" ? CANDIDATES : [fromEnvironment];
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (found === undefined) {
    throw new Error(`no Chromium found at ${candidates.join(", ")}: install Debian's package (apt-get install chromium; .ci/run does it when absent) or set CHROMIUM_PATH to the executable`);
  }
  return found;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumExecutable(), args: ["--no-sandbox"] });
}

/** Runs `use` on a fresh page of its own browser context (no cookies or cache shared), closed afterwards. */
export async function withPage<T>(browser: Browser, options: { javaScriptEnabled: boolean }, use: (page: Page) => Promise<T>): Promise<T> {
  const session = await browser.newContext(options);
  try {
    return await use(await session.newPage());
  } finally {
    await session.close();
  }
}

/** Types `text` in the layout's search box and submits it with Enter, as a person does. */
export async function searchFromBox(page: Page, text: string): Promise<void> {
  const box = page.getByRole("searchbox", { name: "Search" });
  await box.fill(text);
  await box.press("Enter");
}

export interface PagesServer {
  /** `http://127.0.0.1:PORT` followed by the base path, without a trailing slash. */
  readonly url: string;
  close(): Promise<void>;
}

/** Serves `pages` on a free loopback port under `basePath` ("" or "/explorer"); other paths answer 404. */
export function servePages(pages: ExplorerPages, basePath = ""): Promise<PagesServer> {
  return serve((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) {
      res.writeHead(404).end();
      return;
    }
    const path = url.pathname.slice(basePath.length) || "/";
    pages.handle(req, res, path, url.searchParams).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  }, basePath);
}

/** Serves a request listener (e.g. the explorer's router) on a free loopback port; `url` ends with `basePath`. */
export async function serve(listener: http.RequestListener, basePath = ""): Promise<PagesServer> {
  const server = http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    close: () => new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error === undefined ? resolve() : reject(error)));
    }),
  };
}
