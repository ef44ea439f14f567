/**
 * An address: its balance of every asset on every chain it was seen on (unspent outputs it owns),
 * what it received and sent, and its transactions, newest first, a page at a time.
 * A contract-chain address (0x…) shows the contract-chain transactions from or to it.
 */
import type { AddressRecord, CTransactionRecord, TransactionRecord } from "../../records";
import { amountOf, chainBadge, section, table, type RenderContext } from "../components";
import { chainName, chainTitle } from "../format";
import { html, type Html } from "../html";
import { cTransactionList } from "./c-block";
import { transactionList } from "./transaction";

function balances(r: RenderContext, record: AddressRecord): Html {
  const rows = Object.values(record.assets).map((a) => [
    amountOf(r, a.balance, a.id),
    amountOf(r, a.totalReceived, a.id),
    amountOf(r, a.totalSent, a.id),
    a.utxoCount,
    a.transactionCount,
  ]);
  return html`<div class="chain-balances" id="balances-${chainName(r.context, record.chainID)}"><h3>${chainBadge(r, record.chainID)} ${chainTitle(r.context, record.chainID)}</h3>${table(["Balance", "Received", "Sent", "Unspent outputs", "Transactions"], rows, "No assets on this chain.")}</div>`;
}

export function renderAddress(r: RenderContext, address: string, records: readonly AddressRecord[], history: readonly TransactionRecord[], nextPage: string | undefined): Html {
  const publicKey = records.find((record) => record.publicKey !== null)?.publicKey;
  return html`
<p><code class="id">${address}</code>${publicKey === undefined ? "" : html`<br><span class="muted">public key ${publicKey}</span>`}</p>
${section("Balances", html`${records.map((record) => balances(r, record))}`, "balances")}
${section("Transactions", html`${transactionList(r, history, "No transactions.")}${nextPage === undefined ? "" : html`<p class="paging"><a rel="next" href="${nextPage}">Older transactions →</a></p>`}`, "history")}`;
}

export function renderContractAddress(r: RenderContext, address: string, transactions: readonly CTransactionRecord[]): Html {
  return html`
<p><code class="id">${address}</code> <span class="muted">on the contract chain</span></p>
${section("Transactions from or to this address", cTransactionList(r, transactions, "No contract-chain transactions."), "history")}`;
}
