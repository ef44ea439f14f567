/**
 * Every URL the pages link to, built from the base path the pages are mounted under (`/` when
 * the explorer runs on its own, `/explorer` inside the node), so one page works under both.
 * Path segments are percent-encoded: an ID from a URL never changes the shape of a link.
 */
export interface Links {
  /** The base path without a trailing slash ("" standalone). */
  readonly base: string;
  home(): string;
  search(query: string): string;
  transaction(id: string): string;
  /** A transactions list of one chain (by alias), optionally from a cursor. */
  transactions(chain: string, cursor?: string): string;
  address(address: string, cursor?: string): string;
  asset(id: string): string;
  assets(): string;
  cBlock(height: string | number | bigint): string;
  cTransaction(hash: string): string;
  /** The activity chart, of one asset when `assetId` is given. */
  aggregates(intervalSize?: string, assetId?: string): string;
  /** The explorer's JSON API for the same thing (`/v2/...` under the same base). */
  api(path: string): string;
  styleSheet(): string;
  chartScript(): string;
}

/** `basePath` as given to the pages ("/", "/explorer", "/explorer/"), normalised to "" or "/explorer". */
export function normaliseBasePath(basePath: string): string {
  const trimmed = basePath.replace(/\/+$/, "");
  if (trimmed !== "" && !trimmed.startsWith("/")) throw new Error(`basePath must start with "/", got "${basePath}"`);
  return trimmed;
}

export function createLinks(basePath: string): Links {
  const base = normaliseBasePath(basePath);
  const segment = encodeURIComponent;
  const withQuery = (path: string, query: Record<string, string | undefined>) => {
    const parameters = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== "") parameters.set(name, value);
    const text = parameters.toString();
    return text === "" ? path : `${path}?${text}`;
  };
  return {
    base,
    home: () => `${base}/`,
    search: (query) => withQuery(`${base}/search`, { q: query }),
    transaction: (id) => `${base}/tx/${segment(id)}`,
    transactions: (chain, cursor) => withQuery(`${base}/txs/${segment(chain)}`, { cursor }),
    address: (address, cursor) => withQuery(`${base}/address/${segment(address)}`, { cursor }),
    asset: (id) => `${base}/asset/${segment(id)}`,
    assets: () => `${base}/assets`,
    cBlock: (height) => `${base}/cblock/${segment(String(height))}`,
    cTransaction: (hash) => `${base}/ctx/${segment(hash)}`,
    aggregates: (intervalSize, assetId) => withQuery(`${base}/chart`, { interval: intervalSize, asset: assetId }),
    api: (path) => `${base}/v2${path}`,
    styleSheet: () => `${base}/static/explorer.css`,
    chartScript: () => `${base}/static/chart.js`,
  };
}
