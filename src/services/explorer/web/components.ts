/**
 * The small pieces the pages share: links to records, amounts in their asset's unit, tables
 * and key-value lists. Each takes records and returns `Html`, escaping through `html`.
 */
import { NATIVE_ASSET_BALANCE_ADDRESS, NATIVE_ASSET_CALL_ADDRESS } from "../../../encoding";
import type { ExplorerContext } from "../context";
import type { AssetRecord } from "../records";
import { chainName, formatAmount, formatTime, shortId } from "./format";
import { html, type Html, type HtmlValue } from "./html";
import type { Links } from "./links";

/** The assets a page mentions, by ID, so amounts show in their denomination and symbol. */
export type AssetBook = ReadonlyMap<string, AssetRecord>;

/** What every page's renderer receives besides its records. */
export interface RenderContext {
  links: Links;
  context: ExplorerContext;
  assets: AssetBook;
}

export function transactionLink(r: RenderContext, id: string, full = false): Html {
  return html`<a class="id" href="${r.links.transaction(id)}" title="${id}">${full ? id : shortId(id)}</a>`;
}

/** An exchange/platform address (bech32, with or without its chain prefix) linked to its page. */
export function addressLink(r: RenderContext, address: string, chainId?: string): Html {
  const bare = address.replace(/^[A-Za-z]-/, "");
  const alias = chainId === undefined ? undefined : chainName(r.context, chainId);
  const shown = alias !== undefined && alias.length === 1 ? `${alias}-${bare}` : bare;
  return html`<a class="id address" href="${r.links.address(bare)}" title="${shown}">${shown}</a>`;
}

/** The contract chain's precompiles, named where they appear. */
const KNOWN_C_ADDRESSES: Record<string, string> = {
  [NATIVE_ASSET_BALANCE_ADDRESS]: "nativeAssetBalance precompile",
  [NATIVE_ASSET_CALL_ADDRESS]: "nativeAssetCall precompile",
};

/** A contract-chain address (0x…) linked to its page of transactions; a precompile is named. */
export function cAddressLink(r: RenderContext, address: string | null | undefined): Html {
  if (address === null || address === undefined || address === "") return html`<span class="muted">none</span>`;
  const known = KNOWN_C_ADDRESSES[address.toLowerCase()];
  return html`<a class="id address" href="${r.links.address(address)}" title="${address}">${address}</a>${known === undefined ? "" : html` <span class="muted">(${known})</span>`}`;
}

export function assetName(r: RenderContext, assetId: string): string {
  const asset = r.assets.get(assetId);
  if (asset === undefined) return shortId(assetId);
  return asset.symbol !== "" ? asset.symbol : asset.name !== "" ? asset.name : shortId(assetId);
}

export function assetLink(r: RenderContext, assetId: string): Html {
  return html`<a class="asset" href="${r.links.asset(assetId)}" title="${assetId}">${assetName(r, assetId)}</a>`;
}

/** An amount of an asset in its denomination, linked to the asset. */
export function amountOf(r: RenderContext, units: string, assetId: string): Html {
  const asset = r.assets.get(assetId);
  const unit = asset === undefined ? undefined : { denomination: asset.denomination, symbol: "" };
  const amount = formatAmount(units, unit);
  return html`<span class="amount" title="${units} in the smallest unit">${amount}</span> ${assetLink(r, assetId)}`;
}

export function chainBadge(r: RenderContext, chainId: string): Html {
  const name = chainName(r.context, chainId);
  return html`<span class="chain chain-${name.length === 1 ? name : "other"}" title="${chainId}">${name}</span>`;
}

export function time(value: string | number): Html {
  const shown = formatTime(value);
  return html`<time datetime="${typeof value === "number" ? new Date(value * 1000).toISOString() : value}">${shown}</time>`;
}

/** A list of name/value rows (a record's fields). Rows with an undefined value are left out. */
export function facts(rows: readonly (readonly [string, HtmlValue])[]): Html {
  return html`<dl class="facts">${rows.filter(([, value]) => value !== undefined).map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`)}</dl>`;
}

/** A table with a header row; `empty` is shown instead when there are no rows. */
export function table(headers: readonly string[], rows: readonly (readonly HtmlValue[])[], empty: string): Html {
  if (rows.length === 0) return html`<p class="empty">${empty}</p>`;
  return html`<table><thead><tr>${headers.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>${rows.map((row) => html`<tr>${row.map((cell) => html`<td>${cell}</td>`)}</tr>`)}</tbody></table>`;
}

export function section(title: string, body: Html, id?: string): Html {
  return html`<section${id === undefined ? "" : html` id="${id}"`}><h2>${title}</h2>${body}</section>`;
}
