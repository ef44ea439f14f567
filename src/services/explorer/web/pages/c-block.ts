/**
 * The contract chain: a block (its header and transactions), a transaction (the call decoded
 * when it is a known nativekit contract's, the receipt, and its logs decoded where a known ABI
 * applies, raw topics and data otherwise), and the lists the home page shows.
 */
import type { CBlockRecord, CBlockSummary, CLogRecord, CTransactionRecord, CTransactionSummary } from "../../records";
import { decodeCall, decodeLog, type Decoded } from "../abi";
import { amountOf, cAddressLink, facts, section, table, time, type RenderContext } from "../components";
import { formatWei, quantity, shortId } from "../format";
import { html, type Html } from "../html";

function blockLink(r: RenderContext, number: string): Html {
  const height = quantity(number);
  return html`<a href="${r.links.cBlock(height)}">${height}</a>`;
}

function cTransactionLink(r: RenderContext, hash: string, full = false): Html {
  return html`<a class="id" href="${r.links.cTransaction(hash)}" title="${hash}">${full ? hash : shortId(hash)}</a>`;
}

function status(value: string | number): Html {
  return quantity(String(value)) === "1" ? html`<span class="ok">success</span>` : html`<span class="failed">failed</span>`;
}

/** A decoded call or event: its name, where the ABI comes from, and its arguments (amounts of an asset in its unit). */
function decodedView(r: RenderContext, decoded: Decoded): Html {
  const assetId = decoded.args.find((a) => a.type === "asset")?.value;
  const args = decoded.args.map((arg) => {
    let value: Html;
    if (arg.type === "address") value = cAddressLink(r, arg.value);
    else if (arg.type === "asset") value = html`<a href="${r.links.asset(arg.value)}">${arg.value}</a>`;
    else if (arg.type === "uint256" && arg.name === "amount" && assetId !== undefined) value = amountOf(r, arg.value, assetId);
    else value = html`<code>${arg.value}</code>`;
    return [arg.name, value] as const;
  });
  return html`<div class="decoded"><p><strong class="event">${decoded.name}</strong> <span class="muted">${decoded.source}</span></p>${facts(args)}${decoded.inner === undefined ? "" : html`<p class="muted">calling</p>${decodedView(r, decoded.inner)}`}</div>`;
}

function logView(r: RenderContext, log: CLogRecord): Html {
  const decoded = decodeLog(log);
  const raw = html`<details${decoded === undefined ? html` open` : ""}><summary>topics and data</summary><ol class="topics" start="0">${log.topics.map((t) => html`<li><code>${t}</code></li>`)}</ol><p>data <code class="data">${log.data}</code></p></details>`;
  return html`<li class="log"><p>log ${quantity(log.logIndex)} emitted by ${cAddressLink(r, log.address)}</p>${decoded === undefined ? html`<p class="muted">not a known nativekit event</p>` : decodedView(r, decoded)}${raw}</li>`;
}

export function renderCTransaction(r: RenderContext, tx: CTransactionRecord): Html {
  const receipt = tx.receipt;
  const call = decodeCall(tx.toAddr, tx.input);
  const fee = BigInt(quantity(receipt.gasUsed) || "0") * BigInt(quantity(receipt.effectiveGasPrice) || "0");
  return html`
${facts([
  ["Hash", html`<code class="id">${tx.hash}</code>`],
  ["Status", status(receipt.status)],
  ["Block", blockLink(r, tx.block)],
  ["Time", time(tx.createdAt)],
  ["From", cAddressLink(r, tx.fromAddr)],
  ["To", tx.toAddr === "" ? html`contract creation: ${cAddressLink(r, receipt.contractAddress)}` : cAddressLink(r, tx.toAddr)],
  ["Value", `${formatWei(quantity(tx.value))} (native coin)`],
  ["Fee", `${formatWei(fee)} (gas ${quantity(receipt.gasUsed)} × ${quantity(receipt.effectiveGasPrice)} wei)`],
  ["Nonce", quantity(tx.nonce)],
  ["Type", String(tx.type)],
])}
${section("Call", call === undefined ? html`<p class="muted">${tx.input === "0x" ? "no call data" : "not a known nativekit call"}</p><details><summary>input</summary><code class="data">${tx.input}</code></details>` : decodedView(r, call), "call")}
${section(`Logs (${receipt.logs.length})`, receipt.logs.length === 0 ? html`<p class="empty">No logs.</p>` : html`<ol class="logs">${receipt.logs.map((log) => logView(r, log))}</ol>`, "logs")}
${section("Receipt", facts([["Gas used", quantity(receipt.gasUsed)], ["Cumulative gas used", quantity(receipt.cumulativeGasUsed)], ["Effective gas price", `${quantity(receipt.effectiveGasPrice)} wei`], ["Index in block", quantity(receipt.transactionIndex)], ["Block hash", html`<code>${receipt.blockHash}</code>`]]), "receipt")}`;
}

export function cTransactionList(r: RenderContext, transactions: readonly CTransactionRecord[], empty: string): Html {
  return table(
    ["Transaction", "Block", "From", "To", "Call", "Status"],
    transactions.map((tx) => [cTransactionLink(r, tx.hash), blockLink(r, tx.block), cAddressLink(r, tx.fromAddr), cAddressLink(r, tx.toAddr), decodeCall(tx.toAddr, tx.input)?.name ?? "", status(tx.receipt.status)]),
    empty,
  );
}

/** `hasNext`: whether the following block is indexed (the latest block links to no page that would be a 404). */
export function renderCBlock(r: RenderContext, block: CBlockRecord, hasNext: boolean): Html {
  const h = block.header;
  const height = BigInt(quantity(h.number));
  return html`
${facts([
  ["Hash", html`<code class="id">${block.hash}</code>`],
  ["Time", time(quantity(h.timestamp))],
  ["Parent", height === 0n ? html`<code>${h.parentHash}</code>` : html`<a href="${r.links.cBlock(height - 1n)}">${String(height - 1n)}</a> <code class="muted">${h.parentHash}</code>`],
  ["Gas used", `${quantity(h.gasUsed)} of ${quantity(h.gasLimit)}`],
  ["Base fee", h.baseFeePerGas === null ? undefined : `${quantity(h.baseFeePerGas)} wei`],
  ["Miner", html`<code>${h.miner}</code>`],
  ["State root", html`<code>${h.stateRoot}</code>`],
  ["Extra data", html`<code class="data">${h.extraData}</code>`],
])}
<p class="paging">${height === 0n ? "" : html`<a rel="prev" href="${r.links.cBlock(height - 1n)}">← block ${String(height - 1n)}</a> `}${hasNext ? html`<a rel="next" href="${r.links.cBlock(height + 1n)}">block ${String(height + 1n)} →</a>` : html`<span class="muted">the latest block</span>`}</p>
${section(`Transactions (${block.transactions.length})`, cTransactionList(r, block.transactions, "No transactions in this block."), "transactions")}`;
}

export function cBlockList(r: RenderContext, blocks: readonly CBlockSummary[]): Html {
  return table(
    ["Block", "Transactions", "Gas used", "Time"],
    blocks.map((b) => [blockLink(r, b.number), b.evmTx, quantity(b.gasUsed), time(quantity(b.timestamp))]),
    "No contract-chain blocks yet.",
  );
}

export function cTransactionSummaryList(r: RenderContext, transactions: readonly CTransactionSummary[]): Html {
  return table(
    ["Transaction", "Block", "From", "To", "Status"],
    transactions.map((tx) => [cTransactionLink(r, tx.hash), blockLink(r, tx.block), cAddressLink(r, tx.from), cAddressLink(r, tx.to), status(tx.status)]),
    "No contract-chain transactions yet.",
  );
}
