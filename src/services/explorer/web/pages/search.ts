/**
 * Search results, best score first, each linked to its page. When the query names exactly one
 * record (its full ID, hash or address), the pages send the browser straight there instead.
 */
import type { SearchAnswer, SearchResult } from "../../records";
import { table, type RenderContext } from "../components";
import { shortId } from "../format";
import { html, type Html } from "../html";

const TYPE_NAMES: Record<SearchResult["type"], string> = {
  transaction: "Transaction",
  asset: "Asset",
  address: "Address",
  output: "Output",
  cBlock: "Contract-chain block",
  cTransaction: "Contract-chain transaction",
};

interface Target {
  href: string;
  /** The identifier the result is known by (what an exact query equals). */
  key: string;
  label: string;
}

function field(data: unknown, name: string): string | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const value = (data as Record<string, unknown>)[name];
  return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
}

/** Where a search result leads; undefined when its data lacks the identifier its type needs. */
export function targetOf(r: RenderContext, result: SearchResult): Target | undefined {
  const data = result.data;
  switch (result.type) {
    case "transaction": {
      const id = field(data, "id");
      return id === undefined ? undefined : { href: r.links.transaction(id), key: id, label: `${id} (${field(data, "type") ?? "transaction"})` };
    }
    case "asset": {
      const id = field(data, "id");
      return id === undefined ? undefined : { href: r.links.asset(id), key: id, label: `${field(data, "symbol") ?? ""} ${field(data, "name") ?? ""} ${id}`.trim() };
    }
    case "address": {
      const address = field(data, "address");
      return address === undefined ? undefined : { href: r.links.address(address), key: address, label: address };
    }
    case "output": {
      const id = field(data, "id");
      const tx = field(data, "transactionID");
      return id === undefined || tx === undefined ? undefined : { href: `${r.links.transaction(tx)}#outputs`, key: id, label: `${id} (output ${field(data, "outputIndex") ?? "?"} of ${shortId(tx)})` };
    }
    case "cBlock": {
      const hash = field(data, "hash");
      const number = field(data, "number") ?? field((data as { header?: unknown } | null)?.header, "number");
      return number === undefined ? undefined : { href: r.links.cBlock(BigInt(number).toString()), key: hash ?? number, label: `block ${BigInt(number).toString()} ${hash ?? ""}`.trim() };
    }
    case "cTransaction": {
      const hash = field(data, "hash");
      return hash === undefined ? undefined : { href: r.links.cTransaction(hash), key: hash, label: hash };
    }
  }
}

/** The page to go to directly: the one result whose identifier is the query itself. */
export function exactMatch(r: RenderContext, query: string, answer: SearchAnswer): string | undefined {
  const wanted = query.trim().toLowerCase().replace(/^[xpc]-/, "");
  const exact = answer.results.map((result) => targetOf(r, result)).filter((t): t is Target => t !== undefined && t.key.toLowerCase() === wanted);
  return exact.length === 1 ? exact[0]!.href : undefined;
}

export function renderSearch(r: RenderContext, query: string, answer: SearchAnswer): Html {
  const rows = answer.results.flatMap((result) => {
    const target = targetOf(r, result);
    return target === undefined ? [] : [[TYPE_NAMES[result.type], html`<a class="id" href="${target.href}">${target.label}</a>`, result.score]];
  });
  return html`<p>${answer.count} result${answer.count === 1 ? "" : "s"} for <q>${query}</q>.</p>
${table(["Kind", "Result", "Score"], rows, "Nothing matches. Search by a transaction ID, an address (X-…, P-… or without the chain prefix), an asset ID, symbol or name, a contract-chain block number or hash, or a transaction hash.")}`;
}
