/**
 * A transaction of the exchange or platform chain (or a contract-chain atomic transaction): what
 * it spent (each input with the output it consumed and the credentials that signed it), what it
 * created, the memo, the fee, and the totals per asset.
 */
import type { InputRecord, OutputRecord, TransactionRecord } from "../../records";
import { addressLink, amountOf, chainBadge, facts, section, table, time, transactionLink, type RenderContext } from "../components";
import { chainTitle, decodeMemo, formatAmount, shortId } from "../format";
import { html, type Html } from "../html";

const OUTPUT_TYPES: Record<number, string> = {
  6: "secp256k1 mint",
  7: "secp256k1 transfer",
  10: "NFT mint",
  11: "NFT transfer",
  0xfffffff1: "atomic export",
  0xfffffff2: "atomic import",
};

export function outputTypeName(type: number): string {
  return OUTPUT_TYPES[type] ?? `type ${type}`;
}

function isFullOutput(output: InputRecord["output"]): output is OutputRecord {
  return "amount" in output;
}

function owners(r: RenderContext, output: OutputRecord): Html {
  const list = output.addresses.map((a) => addressLink(r, a, output.chainID));
  const threshold = output.addresses.length > 1 ? html` <span class="muted">(${output.threshold} of ${output.addresses.length})</span>` : "";
  return html`${list.map((link, i) => html`${i > 0 ? html`<br>` : ""}${link}`)}${threshold}`;
}

function spentState(r: RenderContext, output: OutputRecord): Html {
  return output.redeemingTransactionID === "" ? html`<span class="unspent">unspent</span>` : html`spent by ${transactionLink(r, output.redeemingTransactionID)}`;
}

function inputRows(r: RenderContext, tx: TransactionRecord): Html {
  const inputs = tx.inputs;
  return table(
    ["#", "Spent output", "Amount", "Owners", "Signed by"],
    inputs.map((input, i) => {
      const output = input.output;
      const signers = input.credentials.map((c) => html`<div>${addressLink(r, c.address, tx.chainID)} <span class="muted" title="signature ${c.signature}">key ${shortId(c.public_key, 8)}</span></div>`);
      if (!isFullOutput(output)) return [i, html`<span class="id" title="${output.id}">${shortId(output.id)}</span> <span class="muted">(not indexed)</span>`, "", "", signers];
      return [i, html`output ${output.outputIndex} of ${transactionLink(r, output.transactionID)}`, amountOf(r, output.amount, output.assetID), owners(r, output), signers];
    }),
    "No inputs.",
  );
}

function outputRows(r: RenderContext, outputs: readonly OutputRecord[]): Html {
  return table(
    ["#", "Amount", "Owners", "Type", "Lock time", "State"],
    outputs.map((output) => [
      output.outputIndex,
      amountOf(r, output.amount, output.assetID),
      owners(r, output),
      html`${outputTypeName(output.outputType)}${output.stake ? " (stake)" : ""}`,
      output.locktime === 0 ? html`<span class="muted">none</span>` : time(output.locktime),
      spentState(r, output),
    ]),
    "No outputs.",
  );
}

function totals(r: RenderContext, amounts: Record<string, string>): Html {
  const entries = Object.entries(amounts);
  if (entries.length === 0) return html`<span class="muted">none</span>`;
  return html`${entries.map(([assetId, units], i) => html`${i > 0 ? ", " : ""}${amountOf(r, units, assetId)}`)}`;
}

export function memoView(memo: string): Html {
  const decoded = decodeMemo(memo);
  if (decoded === undefined) return html`<span class="muted">empty</span>`;
  return decoded.printable ? html`<q class="memo">${decoded.text}</q>` : html`<code class="memo">${decoded.text}</code> <span class="muted">(not text)</span>`;
}

export function renderTransaction(r: RenderContext, tx: TransactionRecord): Html {
  const native = r.assets.get(r.context.nativeAssetId);
  const fee = formatAmount(String(tx.txFee), native === undefined ? undefined : { denomination: native.denomination, symbol: native.symbol });
  return html`
${facts([
  ["ID", html`<code class="id">${tx.id}</code>`],
  ["Chain", html`${chainBadge(r, tx.chainID)} ${chainTitle(r.context, tx.chainID)}`],
  ["Type", tx.type],
  ["Accepted", tx.genesis ? "at genesis" : time(tx.timestamp)],
  ["Fee", fee],
  ["Memo", memoView(tx.memo)],
  ["Spent", totals(r, tx.inputTotals)],
  ["Created", totals(r, tx.outputTotals)],
  ["Genesis", tx.genesis ? "yes, part of the network's genesis" : undefined],
])}
${section(`Inputs (${tx.inputs.length})`, inputRows(r, tx), "inputs")}
${section(`Outputs (${tx.outputs.length})`, outputRows(r, tx.outputs), "outputs")}`;
}

/** A list of transactions (home page, address history, chain list). */
export function transactionList(r: RenderContext, transactions: readonly TransactionRecord[], empty: string): Html {
  return table(
    ["Transaction", "Chain", "Type", "Moved", "Time"],
    transactions.map((tx) => [transactionLink(r, tx.id), chainBadge(r, tx.chainID), tx.type, totals(r, tx.outputTotals), tx.genesis ? "genesis" : time(tx.timestamp)]),
    empty,
  );
}
