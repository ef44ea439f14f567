/**
 * The pages' routes: each URL under the base path is one question to the reader and one
 * renderer, so every page has a URL to share and reads without JavaScript. Unknown IDs get a 404
 * page, input that cannot be an ID a 400 page saying what was expected; a search naming exactly
 * one record redirects to it; a reader that fails gives a 503 page. A URL whose percent-encoding
 * is malformed (in the path or the query) is input too: a 400 page saying what is wrong with it.
 */
import type * as http from "node:http";
import { decodeCall } from "./abi";
import { isCb58, isEvmAddress, parseBech32Address } from "../../../encoding";
import type { ExplorerContext } from "../context";
import type { AssetRecord } from "../records";
import type { RenderContext } from "./components";
import { layout, type PageContent } from "./layout";
import { createLinks, type Links } from "./links";
import { renderAddress, renderContractAddress } from "./pages/address";
import { assetList, renderAsset } from "./pages/asset";
import { renderCBlock, renderCTransaction } from "./pages/c-block";
import { CHART_SCRIPT, renderChart } from "./pages/chart";
import { renderBadInput, renderNotFound } from "./pages/errors";
import { renderHome } from "./pages/home";
import { exactMatch, renderSearch } from "./pages/search";
import { renderTransaction, transactionList } from "./pages/transaction";
import { INTERVAL_SIZES, type IntervalSize, type PagesReader } from "./reader";
import { STYLE_SHEET } from "./style";
import { html } from "./html";
import { checkQueryText, decodePathSegments, MalformedUrlError } from "../url-text";

export interface ExplorerPages {
  /** Answers a GET for `path` (below the base path, starting with "/") with `query`. */
  handle(req: http.IncomingMessage, res: http.ServerResponse, path: string, query: URLSearchParams): Promise<void>;
}

const LATEST = 10;
const DEFAULT_PAGE_SIZE = 25;
/** How far back the chart looks for each interval size, in intervals. */
const CHART_INTERVALS = 60;
const INTERVAL_MS: Record<IntervalSize, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000, month: 2_592_000_000, year: 31_536_000_000 };

function isBech32Of(text: string, hrp: string): boolean {
  try {
    parseBech32Address(text, hrp);
    return true;
  } catch {
    return false;
  }
}

/**
 * Only our own style sheet and chart script may load: even if some text escaped the escaping,
 * the browser would run no inline or foreign script.
 */
const SECURITY_HEADERS = {
  "Content-Security-Policy": "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
};

type Outcome = { status: number; page: PageContent } | { redirect: string };

export interface PagesOptions {
  reader: PagesReader;
  context: ExplorerContext;
  basePath: string;
  /** Rows of a history or list page (default 25). */
  pageSize?: number;
}

/** What every page reads with: the database's reader, the network, the links and the page size. */
interface PagesContext {
  reader: PagesReader;
  context: ExplorerContext;
  links: Links;
  pageSize: number;
}

/** A render context holding the records of `assetIds` (and the native asset), read once. */
async function renderContext(pages: PagesContext, assetIds: Iterable<string>): Promise<RenderContext> {
  const { reader, context, links } = pages;
  const assets = new Map<string, AssetRecord>();
  for (const id of new Set([context.nativeAssetId, ...assetIds])) {
    const asset = isCb58(id, 32) ? await reader.asset(id) : undefined;
    if (asset !== undefined) assets.set(id, asset);
  }
  return { links, context, assets };
}

const ok = (page: PageContent): Outcome => ({ status: 200, page });
const notFound = (r: RenderContext, what: string, id: string): Outcome => ({ status: 404, page: { title: "Not found", heading: `Unknown ${what}`, body: renderNotFound(r, what, id) } });
const badInput = (r: RenderContext, problem: string, input: string): Outcome => ({ status: 400, page: { title: "Not understood", heading: "This is not something the explorer can look up", body: renderBadInput(r, problem, input) } });

async function home(pages: PagesContext): Promise<Outcome> {
  const { reader, context, links } = pages;
  const [x, p, cAtomic, c] = await Promise.all([
    reader.latestTransactions({ chainId: context.chains.X, limit: LATEST }),
    reader.latestTransactions({ chainId: context.chains.P, limit: LATEST }),
    reader.latestTransactions({ chainId: context.chains.C, limit: LATEST }),
    reader.latestCBlocks(LATEST),
  ]);
  const txs = [...x.items, ...p.items, ...cAtomic.items];
  const r = await renderContext(pages, txs.flatMap((tx) => Object.keys(tx.outputTotals)));
  return ok({ title: "Latest", heading: "Latest on every chain", body: renderHome(r, { x: x.items, p: p.items, cAtomic: cAtomic.items, cBlocks: c.blocks, cTransactions: c.transactions }), json: links.api("") });
}

async function search(pages: PagesContext, query: string): Promise<Outcome> {
  const { reader, context, links } = pages;
  const q = query.trim();
  if (q === "") return { redirect: links.home() };
  if (/^\d+$/.test(q)) return { redirect: links.cBlock(BigInt(q)) };
  // An address written out in full goes straight to its page (with or without its chain prefix).
  if (isEvmAddress(q) || (/^[XPC]-/.test(q) && isBech32Of(q.slice(2), context.hrp))) return { redirect: links.address(q.replace(/^[XPC]-/, "")) };
  const answer = await reader.search(q);
  const r = await renderContext(pages, []);
  const target = exactMatch(r, q, answer);
  if (target !== undefined) return { redirect: target };
  return ok({ title: `Search: ${q}`, heading: "Search results", body: renderSearch(r, q, answer), query: q, json: `${links.api("/search")}?query=${encodeURIComponent(q)}` });
}

async function transaction(pages: PagesContext, id: string): Promise<Outcome> {
  const { reader, links } = pages;
  if (!isCb58(id, 32)) return badInput(await renderContext(pages, []), "A transaction ID is 32 bytes written in cb58 (about 50 letters and digits, e.g. 2Lxz…); this is not one.", id);
  const tx = await reader.transaction(id);
  if (tx === undefined) return notFound(await renderContext(pages, []), "transaction", id);
  const assetIds = [...tx.outputs.map((o) => o.assetID), ...tx.inputs.flatMap((i) => ("assetID" in i.output ? [i.output.assetID] : [])), ...Object.keys(tx.inputTotals)];
  const r = await renderContext(pages, assetIds);
  return ok({ title: `Transaction ${id}`, heading: html`Transaction <span class="id">${id}</span>`, body: renderTransaction(r, tx), json: links.api(`/transactions/${encodeURIComponent(id)}`) });
}

async function chainTransactions(pages: PagesContext, alias: string, cursor: string | undefined): Promise<Outcome> {
  const { reader, context, links, pageSize: PAGE_SIZE } = pages;
  const chainId = alias === "X" || alias === "P" || alias === "C" ? context.chains[alias] : undefined;
  if (chainId === undefined) return badInput(await renderContext(pages, []), "The chains are X (exchange), P (platform) and C (contract).", alias);
  const page = await reader.latestTransactions({ chainId, limit: PAGE_SIZE, ...(cursor === undefined ? {} : { cursor }) });
  const r = await renderContext(pages, page.items.flatMap((tx) => Object.keys(tx.outputTotals)));
  const next = page.cursor === undefined ? html`` : html`<p class="paging"><a rel="next" href="${links.transactions(alias, page.cursor)}">Older transactions →</a></p>`;
  return ok({ title: `${alias} transactions`, heading: `Transactions of the ${alias} chain`, body: html`${transactionList(r, page.items, "No transactions.")}${next}`, json: `${links.api("/transactions")}?chainID=${chainId}&sort=timestamp-desc` });
}

async function address(pages: PagesContext, input: string, cursor: string | undefined): Promise<Outcome> {
  const { reader, context, links, pageSize: PAGE_SIZE } = pages;
  if (isEvmAddress(input)) {
    const r = await renderContext(pages, []);
    const txs = await reader.cTransactionsOf(input.toLowerCase(), PAGE_SIZE);
    return ok({ title: `Address ${input}`, heading: "Contract-chain address", body: renderContractAddress(r, input, txs), json: `${links.api("/ctransactions")}?address=${input}` });
  }
  const bare = input.replace(/^[XPCxpc]-/, "");
  try {
    parseBech32Address(bare, context.hrp);
  } catch (error) {
    return badInput(await renderContext(pages, []), `An address is X-, P- or C- followed by a bech32 address of this network (${context.hrp}1…), or a contract-chain address 0x followed by 40 hex digits: ${(error as Error).message}.`, input);
  }
  const [records, history] = await Promise.all([reader.address(bare), reader.latestTransactions({ address: bare, limit: PAGE_SIZE, ...(cursor === undefined ? {} : { cursor }) })]);
  if (records.length === 0 && history.items.length === 0) return notFound(await renderContext(pages, []), "address", input);
  const r = await renderContext(pages, [...records.flatMap((record) => Object.keys(record.assets)), ...history.items.flatMap((tx) => Object.keys(tx.outputTotals))]);
  const next = history.cursor === undefined ? undefined : links.address(bare, history.cursor);
  return ok({ title: `Address ${bare}`, heading: "Address", body: renderAddress(r, bare, records, history.items, next), json: links.api(`/addresses/${encodeURIComponent(bare)}`) });
}

async function asset(pages: PagesContext, id: string): Promise<Outcome> {
  const { reader, links, pageSize: PAGE_SIZE } = pages;
  if (!isCb58(id, 32)) return badInput(await renderContext(pages, []), "An asset ID is 32 bytes written in cb58; to find an asset by its symbol or name, use the search box.", id);
  const record = await reader.asset(id);
  if (record === undefined) return notFound(await renderContext(pages, []), "asset", id);
  const holders = await reader.holders(id, PAGE_SIZE);
  const r = await renderContext(pages, [id]);
  return ok({ title: `${record.symbol || record.name || "Asset"}`, heading: html`${record.name} <span class="muted">${record.symbol}</span>`, body: renderAsset(r, record, holders), json: links.api(`/assets/${encodeURIComponent(id)}`) });
}

async function assets(pages: PagesContext): Promise<Outcome> {
  const { reader, links, pageSize: PAGE_SIZE } = pages;
  const list = await reader.assets(PAGE_SIZE * 4);
  return ok({ title: "Assets", heading: "Assets", body: assetList(await renderContext(pages, []), list), json: links.api("/assets") });
}

async function cBlock(pages: PagesContext, input: string): Promise<Outcome> {
  const { reader, links } = pages;
  if (!/^\d{1,18}$/.test(input)) return badInput(await renderContext(pages, []), "A contract-chain block is given by its number (0, 1, 2, …); a block hash can be searched for.", input);
  const block = await reader.cBlock(BigInt(input));
  if (block === undefined) return notFound(await renderContext(pages, []), "contract-chain block", input);
  const hasNext = (await reader.cBlock(BigInt(input) + 1n)) !== undefined;
  return ok({ title: `Block ${input}`, heading: `Contract-chain block ${input}`, body: renderCBlock(await renderContext(pages, []), block, hasNext), json: links.api(`/ctxdata/${input}`) });
}

async function cTransaction(pages: PagesContext, hash: string): Promise<Outcome> {
  const { reader, links } = pages;
  if (!/^0x[0-9a-fA-F]{64}$/.test(hash)) return badInput(await renderContext(pages, []), "A contract-chain transaction hash is 0x followed by 64 hex digits.", hash);
  const tx = await reader.cTransaction(hash.toLowerCase());
  if (tx === undefined) return notFound(await renderContext(pages, []), "contract-chain transaction", hash);
  const called = decodeCall(tx.toAddr, tx.input)?.args.find((a) => a.type === "asset")?.value;
  const r = await renderContext(pages, called === undefined ? [] : [called]);
  return ok({ title: `Transaction ${hash}`, heading: html`Contract-chain transaction <span class="id">${hash}</span>`, body: renderCTransaction(r, tx), json: `${links.api("/ctransactions")}?hash=${hash}` });
}

async function chart(pages: PagesContext, interval: string | null, assetId: string | undefined): Promise<Outcome> {
  const { reader, links } = pages;
  if (assetId !== undefined && !isCb58(assetId, 32)) return badInput(await renderContext(pages, []), "An asset ID is 32 bytes written in cb58.", assetId);
  const size = (interval ?? "minute") as IntervalSize;
  if (!INTERVAL_SIZES.includes(size)) return badInput(await renderContext(pages, []), `The interval is one of ${INTERVAL_SIZES.join(", ")}.`, interval ?? "");
  const endTime = new Date();
  const startTime = new Date(Math.floor((endTime.getTime() - CHART_INTERVALS * INTERVAL_MS[size]) / INTERVAL_MS[size]) * INTERVAL_MS[size]);
  const answer = await reader.aggregates({ intervalSize: size, startTime, endTime, ...(assetId === undefined ? {} : { assetId }) });
  const json = `${links.api("/aggregates")}?intervalSize=${size}${assetId === undefined ? "" : `&assetID=${assetId}`}`;
  return ok({ title: "Activity", heading: "Activity over time", body: renderChart(await renderContext(pages, assetId === undefined ? [] : [assetId]), size, answer, assetId), head: html`<script src="${links.chartScript()}" defer></script>`, json });
}

async function route(pages: PagesContext, path: string, query: URLSearchParams): Promise<Outcome> {
  const { links } = pages;
  const parts = decodePathSegments(path);
  const [first, second] = parts;
  const cursor = query.get("cursor") ?? undefined;
  if (parts.length === 0) return home(pages);
  if (parts.length === 1 && first === "search") return search(pages, query.get("q") ?? "");
  if (parts.length === 1 && first === "assets") return assets(pages);
  if (parts.length === 1 && first === "chart") return chart(pages, query.get("interval"), query.get("asset") ?? undefined);
  if (parts.length === 2 && second !== undefined) {
    if (first === "tx") return transaction(pages, second);
    if (first === "txs") return chainTransactions(pages, second, cursor);
    if (first === "address") return address(pages, second, cursor);
    if (first === "asset") return asset(pages, second);
    if (first === "cblock") return cBlock(pages, second);
    if (first === "ctx") return cTransaction(pages, second);
  }
  return { status: 404, page: { title: "Not found", heading: "No such page", body: html`<p>There is no page at <code>${path}</code>. Try the search box, or the <a href="${links.home()}">latest transactions</a>.</p>` } };
}

/** A URL the pages cannot read: said without asking the database (its links need no record). */
function malformed(pages: PagesContext, error: MalformedUrlError, target: string): Outcome {
  const { context, links } = pages;
  return badInput({ links, context, assets: new Map() }, `The address of this page cannot be read: ${error.message}.`, target);
}

function unavailable(error: unknown): Outcome {
  const message = error instanceof Error ? error.message : String(error);
  return { status: 503, page: { title: "Unavailable", heading: "The explorer cannot answer right now", body: html`<p class="problem">Its database did not answer: ${message}</p><p>Nothing is lost; try again in a moment.</p>` } };
}

function send(res: http.ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(body), "Cache-Control": "no-store", ...SECURITY_HEADERS });
  res.end(body);
}

export function createPages(options: PagesOptions): ExplorerPages {
  const links: Links = createLinks(options.basePath);
  const pages: PagesContext = { reader: options.reader, context: options.context, links, pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE };
  const { context } = options;
  return {
    async handle(req, res, path, query) {
      if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, "text/plain; charset=utf-8", "The explorer's pages answer GET only.\n");
      if (path === "/static/explorer.css") return send(res, 200, "text/css; charset=utf-8", STYLE_SHEET);
      if (path === "/static/chart.js") return send(res, 200, "text/javascript; charset=utf-8", CHART_SCRIPT);
      let outcome: Outcome;
      try {
        checkQueryText(req.url);
        outcome = await route(pages, path, query);
      } catch (error) {
        outcome = error instanceof MalformedUrlError ? malformed(pages, error, req.url ?? path) : unavailable(error);
      }
      if ("redirect" in outcome) {
        res.writeHead(302, { Location: outcome.redirect, "Content-Length": 0 });
        res.end();
        return;
      }
      send(res, outcome.status, "text/html; charset=utf-8", layout(links, context, outcome.page).markup);
    },
  };
}
