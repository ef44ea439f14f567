/**
 * Activity over time: the aggregates of each interval as an SVG bar chart drawn on the server
 * (it reads without JavaScript; each bar carries its numbers as a tooltip), the interval sizes as
 * links, and the same numbers as a table. The chart script only adds a readout of the bar under
 * the pointer.
 */
import type { AggregateRecord, AggregatesAnswer } from "../../records";
import { assetLink, table, time, type RenderContext } from "../components";
import { formatAmount, formatTime } from "../format";
import { html, type Html } from "../html";
import { INTERVAL_SIZES, type IntervalSize } from "../reader";

const WIDTH = 720;
const HEIGHT = 220;
const MARGIN = { top: 12, right: 12, bottom: 28, left: 44 };

/** A round ceiling for the axis: 1, 2, 5 × 10^n at or above `value`. */
export function niceCeiling(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

export function barChart(intervals: readonly AggregateRecord[]): Html {
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const top = niceCeiling(Math.max(0, ...intervals.map((i) => i.transactionCount)));
  const slot = intervals.length === 0 ? plotWidth : plotWidth / intervals.length;
  const barWidth = Math.max(1, slot * 0.8);
  const y = (count: number) => MARGIN.top + plotHeight - (count / top) * plotHeight;
  const bars = intervals.map((interval, i) => {
    const x = MARGIN.left + i * slot + (slot - barWidth) / 2;
    const label = `${formatTime(interval.startTime)}: ${interval.transactionCount} transactions, ${interval.addressCount} receiving addresses (summed per minute), ${interval.outputCount} outputs, ${interval.assetCount} assets, volume ${interval.transactionVolume}`;
    const yTop = y(interval.transactionCount);
    return html`<rect class="bar" x="${x.toFixed(1)}" y="${yTop.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(MARGIN.top + plotHeight - yTop).toFixed(1)}" data-label="${label}"><title>${label}</title></rect>`;
  });
  const first = intervals[0];
  const last = intervals[intervals.length - 1];
  return html`<figure class="chart">
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="Transactions per interval" xmlns="http://www.w3.org/2000/svg">
<line class="axis" x1="${MARGIN.left}" y1="${MARGIN.top + plotHeight}" x2="${WIDTH - MARGIN.right}" y2="${MARGIN.top + plotHeight}"/>
<line class="axis" x1="${MARGIN.left}" y1="${MARGIN.top}" x2="${MARGIN.left}" y2="${MARGIN.top + plotHeight}"/>
<text class="tick" x="${MARGIN.left - 6}" y="${MARGIN.top + 4}" text-anchor="end">${top}</text>
<text class="tick" x="${MARGIN.left - 6}" y="${MARGIN.top + plotHeight}" text-anchor="end">0</text>
${first === undefined ? "" : html`<text class="tick" x="${MARGIN.left}" y="${HEIGHT - 8}">${formatTime(first.startTime)}</text>`}
${last === undefined ? "" : html`<text class="tick" x="${WIDTH - MARGIN.right}" y="${HEIGHT - 8}" text-anchor="end">${formatTime(last.endTime)}</text>`}
${bars}
</svg>
<figcaption>Transactions per interval. <output class="readout" aria-live="polite"></output></figcaption>
</figure>`;
}

/** `assetId`: the asset the numbers are of (counts of its outputs, its volume); undefined for all assets, with the native asset's volume. */
export function renderChart(r: RenderContext, intervalSize: IntervalSize, answer: AggregatesAnswer, assetId: string | undefined): Html {
  const intervals = answer.intervals ?? [];
  const totals = answer.aggregates;
  const volumeAsset = r.assets.get(assetId ?? r.context.nativeAssetId);
  const unit = volumeAsset === undefined ? undefined : { denomination: volumeAsset.denomination, symbol: "" };
  return html`
${assetId === undefined ? "" : html`<p>Of ${assetLink(r, assetId)} only. <a href="${r.links.aggregates(intervalSize)}">All assets</a></p>`}
<p class="intervals">Per ${INTERVAL_SIZES.map((size) => (size === intervalSize ? html`<strong>${size}</strong> ` : html`<a href="${r.links.aggregates(size, assetId)}">${size}</a> `))}</p>
<p>From ${time(answer.startTime)} to ${time(answer.endTime)}: ${totals.transactionCount} transactions, ${totals.addressCount} receiving addresses (summed per minute), ${totals.outputCount} outputs, ${totals.assetCount} assets.</p>
${barChart(intervals)}
${table(
  ["From", "Transactions", "Receiving addresses (summed per minute)", "Outputs", "Assets", `Volume (${volumeAsset?.symbol ?? "native asset"})`],
  intervals.filter((i) => i.transactionCount > 0).map((i) => [time(i.startTime), i.transactionCount, i.addressCount, i.outputCount, i.assetCount, html`<span class="amount">${formatAmount(i.transactionVolume, unit)}</span>`]),
  "No activity in this period.",
)}`;
}

/** The chart's only script: shows the numbers of the bar under the pointer (or focused) below the chart. */
export const CHART_SCRIPT = `"use strict";
document.querySelectorAll("figure.chart").forEach(function (figure) {
  var readout = figure.querySelector(".readout");
  figure.querySelectorAll("rect.bar").forEach(function (bar) {
    bar.addEventListener("mouseenter", function () {
      figure.querySelectorAll("rect.bar.active").forEach(function (b) { b.classList.remove("active"); });
      bar.classList.add("active");
      readout.textContent = bar.getAttribute("data-label");
    });
  });
});
`;
