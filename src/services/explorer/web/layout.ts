/**
 * The frame of every page: title, the header with the search box and the navigation, the
 * footer naming the network. Plain HTML and one style sheet; nothing here needs JavaScript.
 */
import type { ExplorerContext } from "../context";
import { html, type Html } from "./html";
import type { Links } from "./links";

export interface PageContent {
  /** The document title (the site name is appended). */
  title: string;
  /** What the page is about, shown as its heading. */
  heading: Html | string;
  body: Html;
  /** The same record as JSON from the API, when there is one. */
  json?: string;
  /** Extra markup for the document head (the chart's script). */
  head?: Html;
  /** The value the search box shows (the search page keeps the query). */
  query?: string;
}

export function layout(links: Links, context: ExplorerContext, page: PageContent): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · nativekit explorer</title>
<link rel="stylesheet" href="${links.styleSheet()}">
${page.head}
</head>
<body>
<header class="site">
  <a class="brand" href="${links.home()}">nativekit explorer</a>
  <nav>
    <a href="${links.home()}">Latest</a>
    <a href="${links.assets()}">Assets</a>
    <a href="${links.aggregates()}">Activity</a>
  </nav>
  <form class="search" role="search" method="get" action="${links.search("").split("?")[0]}">
    <input type="search" name="q" value="${page.query ?? ""}" placeholder="Transaction, address, asset, block number or hash" aria-label="Search" required>
    <button type="submit">Search</button>
  </form>
</header>
<main>
<h1>${page.heading}</h1>
${page.body}
</main>
<footer>
  network ${context.networkId} (${context.hrp})${page.json === undefined ? "" : html` · <a href="${page.json}">this page as JSON</a>`}
</footer>
</body>
</html>
`;
}
