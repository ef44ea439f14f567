/** An asset: its names, supply in its denomination, how it can change, and who holds it. */
import type { AssetRecord } from "../../records";
import { addressLink, chainBadge, facts, section, table, time, transactionLink, type RenderContext } from "../components";
import { formatAmount } from "../format";
import type { Holder } from "../reader";
import { html, type Html } from "../html";

export function renderAsset(r: RenderContext, asset: AssetRecord, holders: readonly Holder[]): Html {
  const unit = { denomination: asset.denomination, symbol: asset.symbol };
  return html`
${facts([
  ["ID", html`<code class="id">${asset.id}</code>`],
  ["Name", asset.name],
  ["Symbol", asset.symbol],
  ["Alias", asset.alias === "" ? undefined : asset.alias],
  ["Current supply", html`<span class="amount">${formatAmount(asset.currentSupply, unit)}</span> <span class="muted">(${asset.currentSupply} in the smallest unit)</span>`],
  ["Denomination", `${asset.denomination} decimal${asset.denomination === 1 ? "" : "s"}`],
  ["Supply", asset.variableCap === 1 ? "variable (can be minted)" : "fixed"],
  ["Kind", asset.nft === 1 ? "non-fungible (NFT)" : "fungible"],
  ["Chain", chainBadge(r, asset.chainID)],
  ["Activity", html`<a href="${r.links.aggregates("minute", asset.id)}">${asset.symbol || "this asset"} over time</a>`],
  ["Created", html`${time(asset.timestamp)}${asset.id === r.context.nativeAssetId ? " (genesis)" : html` by ${transactionLink(r, asset.id)}`}`],
])}
${section(`Holders (${holders.length})`, table(["Address", "Balance", "Share"], holders.map((h) => [addressLink(r, h.address), html`<span class="amount">${formatAmount(h.balance, unit)}</span>`, share(h.balance, asset.currentSupply)]), "Nobody holds this asset."), "holders")}`;
}

function share(balance: string, supply: string): string {
  const total = BigInt(supply);
  if (total === 0n) return "";
  const basisPoints = (BigInt(balance) * 10_000n) / total;
  return `${(Number(basisPoints) / 100).toFixed(2)} %`;
}

export function assetList(r: RenderContext, assets: readonly AssetRecord[]): Html {
  return table(
    ["Asset", "Name", "Supply", "Chain", "Created"],
    assets.map((a) => [html`<a href="${r.links.asset(a.id)}">${a.symbol === "" ? a.id : a.symbol}</a>`, a.name, formatAmount(a.currentSupply, { denomination: a.denomination, symbol: "" }), chainBadge(r, a.chainID), time(a.timestamp)]),
    "No assets yet.",
  );
}
