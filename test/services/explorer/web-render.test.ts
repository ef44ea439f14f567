/**
 * The explorer's page renderers on hand-written records: text from the chain is escaped, amounts
 * follow the asset's denomination, memos read as text, known nativekit logs and calls are
 * decoded, and every link stays under the base path.
 */
import { expect } from "chai";
import { Interface } from "ethers";
import { decodeCall, decodeLog } from "../../../src/services/explorer/web/abi";
import type { RenderContext } from "../../../src/services/explorer/web/components";
import { decodeMemo, formatAmount, formatUnits } from "../../../src/services/explorer/web/format";
import { escapeHtml, html } from "../../../src/services/explorer/web/html";
import { createLinks } from "../../../src/services/explorer/web/links";
import { renderAsset } from "../../../src/services/explorer/web/pages/asset";
import { renderCTransaction } from "../../../src/services/explorer/web/pages/c-block";
import { barChart, niceCeiling } from "../../../src/services/explorer/web/pages/chart";
import { renderTransaction } from "../../../src/services/explorer/web/pages/transaction";
import { ALICE, ALICE_C, GOLD_ID, WRAPPER_ABI, WRAPPER_C, aggregate, context, gold, native, transfer, wrapTx } from "./web-records";

const THIN = "\u2009";

function renderContext(basePath = "/"): RenderContext {
  return { links: createLinks(basePath), context, assets: new Map([[native.id, native], [gold.id, gold]]) };
}

/** The text a person reads: tags removed, entities decoded. */
function visibleText(markup: string): string {
  return markup.replace(/<[^>]*>/g, " ").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&").replace(/[ \t\r\n]+/g, " ");
}

describe("explorer pages: rendering records", () => {
  describe("escaping", () => {
    it("escapes the five characters that mean something in HTML", () => {
      expect(escapeHtml(`<a href="x" title='y'>&</a>`)).to.equal("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
    });

    it("escapes interpolated text but keeps interpolated markup built by the template", () => {
      const inner = html`<b>${"<i>"}</b>`;
      expect(html`<p>${inner}${"<script>"}</p>`.markup).to.equal("<p><b>&lt;i&gt;</b>&lt;script&gt;</p>");
    });

    it("shows a memo containing a script tag as text, never as a script", () => {
      const markup = renderTransaction(renderContext(), transfer).markup;
      expect(markup).not.to.include("<script>");
      expect(markup).to.include("&lt;script&gt;alert(&#39;gold&#39;)&lt;/script&gt;");
    });

    it("shows an asset name containing markup as text", () => {
      const markup = renderAsset(renderContext(), gold, []).markup;
      expect(markup).not.to.include("<b>Gold</b>");
      expect(visibleText(markup)).to.include("Demo <b>Gold</b>");
    });
  });

  describe("amounts and memos", () => {
    it("shows units with the asset's denomination, grouped by thousands", () => {
      expect(formatUnits("123450", 2)).to.equal(`1${THIN}234.50`);
      expect(formatUnits("99997500", 2)).to.equal(`999${THIN}975.00`);
    });

    it("keeps significant decimals beyond two and drops trailing zeros past two", () => {
      expect(formatUnits("1000000", 9)).to.equal("0.001");
      expect(formatUnits("1000000000", 9)).to.equal("1.00");
    });

    it("shows a denomination 0 amount as a whole number and an unknown asset in units", () => {
      expect(formatUnits("1234567", 0)).to.equal(`1${THIN}234${THIN}567`);
      expect(formatAmount("5", undefined)).to.equal("5 units");
    });

    it("reads a printable memo as text and any other memo as hex", () => {
      expect(decodeMemo(Buffer.from("hello\nworld").toString("base64"))).to.deep.equal({ text: "hello\nworld", printable: true });
      expect(decodeMemo(Buffer.from([0, 1, 0xff]).toString("base64"))).to.deep.equal({ text: "0x0001ff", printable: false });
      expect(decodeMemo("")).to.equal(undefined);
    });
  });

  describe("transaction page", () => {
    it("shows the spent output, its signer, the new outputs' owners and amounts in GOLD", () => {
      const text = visibleText(renderTransaction(renderContext(), transfer).markup);
      expect(text).to.include("output 0 of");
      expect(text).to.include(`X-${ALICE}`);
      expect(text).to.include(`25.00 GOLD`);
      expect(text).to.include(`999${THIN}975.00 GOLD`);
      expect(text).to.include("Fee 0.001 AVAX");
    });

    it("links every address and asset it mentions under the base path", () => {
      const markup = renderTransaction(renderContext("/explorer"), transfer).markup;
      const hrefs = [...markup.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
      expect(hrefs).to.include(`/explorer/address/${ALICE}`);
      expect(hrefs).to.include(`/explorer/asset/${GOLD_ID}`);
      expect(hrefs.filter((h) => !h.startsWith("/explorer/"))).to.deep.equal([]);
    });
  });

  describe("contract-chain logs and calls", () => {
    it("decodes the wrapper's Transfer event from its topics and data", () => {
      const encoded = WRAPPER_ABI.encodeEventLog("Transfer", [ALICE_C, WRAPPER_C, 12345n]);
      const decoded = decodeLog(encoded);
      expect(decoded?.name).to.equal("Transfer");
      expect(decoded?.args.map((a) => a.value.toLowerCase())).to.deep.equal([ALICE_C, WRAPPER_C, "12345"]);
    });

    it("decodes the wrapper's Deposit event, whose fields are all in the data", () => {
      const decoded = decodeLog(WRAPPER_ABI.encodeEventLog("Deposit", [ALICE_C, 7n]));
      expect(decoded?.args.map((a) => [a.name, a.value.toLowerCase()])).to.deep.equal([["caller", ALICE_C], ["amount", "7"]]);
    });

    it("leaves an unknown event, and a known one of the wrong shape, undecoded", () => {
      const other = new Interface(["event Ping(uint256 n)"]).encodeEventLog("Ping", [1n]);
      expect(decodeLog(other)).to.equal(undefined);
      const transfer = WRAPPER_ABI.encodeEventLog("Transfer", [ALICE_C, WRAPPER_C, 1n]);
      expect(decodeLog({ topics: transfer.topics.slice(0, 2), data: transfer.data })).to.equal(undefined);
    });

    it("decodes a nativeAssetCall to the wrapper with the deposit call inside", () => {
      const decoded = decodeCall(wrapTx.toAddr, wrapTx.input);
      expect(decoded?.name).to.equal("nativeAssetCall");
      expect(decoded?.args.find((a) => a.name === "assetID")?.value).to.equal(GOLD_ID);
      expect(decoded?.inner?.name).to.equal("deposit");
    });

    it("shows the transaction's decoded call and logs with the amount in GOLD, and the raw topics too", () => {
      const markup = renderCTransaction(renderContext(), wrapTx).markup;
      const text = visibleText(markup);
      expect(text).to.include("nativeAssetCall NativeAssets precompile");
      expect(text).to.include(`40${THIN}000.00 GOLD`);
      expect(text).to.include("Deposit WrappedNativeAsset (ERC-20)");
      expect(markup).to.include(wrapTx.receipt.logs[1]!.topics[0]!);
    });
  });

  describe("activity chart", () => {
    it("draws one bar per interval, the highest reaching the top of a round scale", () => {
      const svg = barChart([aggregate("2026-11-24T00:00:00Z", "2026-11-24T01:00:00Z", 4), aggregate("2026-11-24T01:00:00Z", "2026-11-24T02:00:00Z", 2)]).markup;
      const heights = [...svg.matchAll(/<rect class="bar"[^>]* height="([\d.]+)"/g)].map((m) => Number(m[1]));
      expect(heights).to.have.length(2);
      expect(heights[0]! / heights[1]!).to.be.closeTo(2 / 1, 0.01);
      expect(niceCeiling(4)).to.equal(5);
      expect(niceCeiling(0)).to.equal(1);
    });

    it("puts each interval's numbers in its bar's tooltip, readable without a script", () => {
      const svg = barChart([aggregate("2026-11-24T00:00:00Z", "2026-11-24T01:00:00Z", 3)]).markup;
      expect(svg).to.match(/<title>2026-11-24 00:00:00 UTC: 3 transactions, 3 receiving addresses \(summed per minute\), 6 outputs, 1 assets, volume 300<\/title>/);
    });
  });
});
