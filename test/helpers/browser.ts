/**
 * A real headless browser for the explorer's page tests, driven by playwright-core (one browser
 * per test file, closed in `after`), and a loopback HTTP server serving the pages under a base
 * path, as the explorer and the node mount them.
 *
 * The browser, the first found: the executable CHROMIUM_PATH names; the Chromium build of the
 * npm registry's @sparticuz/chromium (a devDependency: brotli-compressed in the package,
 * unpacked into a directory of the user's own under the system's temporary directory on first
 * use, for Linux on x64); Debian's
 * `chromium` package. None found fails the test with a message naming CHROMIUM_PATH.
 */
import fs from "node:fs";
import * as http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { chromium, type Browser, type Page } from "playwright-core";
import type { ExplorerPages } from "../../src/services/explorer/web";

const DEBIAN_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/lib/chromium/chromium", "/usr/bin/google-chrome"];

/** An ES module import that TypeScript's CommonJS output keeps as import() (the package is ESM only). */
const importModule = new Function("specifier", "return import(specifier)") as (specifier: string) => Promise<unknown>;

/**
 * The npm registry's Chromium, unpacked (once) and its path returned; undefined where it has no
 * build. @sparticuz/chromium unpacks into the system's temporary directory (os.tmpdir(), so
 * TMPDIR) and reuses any `chromium` it finds there; on a machine shared by several users, one
 * user's unpacked copy is not executable by another's tests. So it unpacks into a directory of
 * this user's own under the temporary directory, named by the user's ID.
 */
async function npmChromium(): Promise<string | undefined> {
  if (process.platform !== "linux" || process.arch !== "x64") return undefined;
  const ownDirectory = path.join(os.tmpdir(), `nativekit-chromium-${os.userInfo().uid}`);
  fs.mkdirSync(ownDirectory, { recursive: true, mode: 0o700 });
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = ownDirectory;
  try {
    const { default: packaged } = (await importModule("@sparticuz/chromium")) as { default: { executablePath(): Promise<string> } };
    return await packaged.executablePath();
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}

/** The browser executable (see the file's comment for the order). */
export async function chromiumExecutable(): Promise<string> {
  const fromEnvironment = process.env.CHROMIUM_PATH;
  if (fromEnvironment !== undefined && fromEnvironment !== "") {
    if (!fs.existsSync(fromEnvironment)) throw new Error(`CHROMIUM_PATH is ${fromEnvironment}, which does not exist`);
    return fromEnvironment;
  }
  const fromNpm = await npmChromium();
  if (fromNpm !== undefined) return fromNpm;
  const found = DEBIAN_CANDIDATES.find((candidate) => fs.existsSync(candidate));
  if (found === undefined) {
    throw new Error(
      `no Chromium for ${process.platform}-${process.arch}: @sparticuz/chromium (npm install brings it) has a build for Linux on x64 only, ` +
        `and none of ${DEBIAN_CANDIDATES.join(", ")} exists. Set CHROMIUM_PATH to a Chromium or Chrome executable.`,
    );
  }
  return found;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumExecutable(), args: ["--no-sandbox"] });
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
