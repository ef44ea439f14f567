/** The front page: the latest of each chain (exchange and platform transactions, contract-chain blocks and transactions). */
import type { CBlockSummary, CTransactionSummary, TransactionRecord } from "../../records";
import { section, type RenderContext } from "../components";
import { html, type Html } from "../html";
import { cBlockList, cTransactionSummaryList } from "./c-block";
import { transactionList } from "./transaction";

export interface Latest {
  x: TransactionRecord[];
  p: TransactionRecord[];
  /** The contract chain's atomic transactions (imports and exports). */
  cAtomic: TransactionRecord[];
  cBlocks: CBlockSummary[];
  cTransactions: CTransactionSummary[];
}

export function renderHome(r: RenderContext, latest: Latest): Html {
  const more = (chain: string) => html`<p class="more"><a href="${r.links.transactions(chain)}">All ${chain} transactions →</a></p>`;
  return html`
<div class="columns">
${section("Exchange chain (X): latest transactions", html`${transactionList(r, latest.x, "No exchange-chain transactions yet.")}${more("X")}`, "x-transactions")}
${section("Platform chain (P): latest transactions", html`${transactionList(r, latest.p, "No platform-chain transactions yet.")}${more("P")}`, "p-transactions")}
${section("Contract chain (C): latest blocks", cBlockList(r, latest.cBlocks), "c-blocks")}
${section("Contract chain (C): latest transactions", cTransactionSummaryList(r, latest.cTransactions), "c-transactions")}
${section("Contract chain (C): imports and exports", html`${transactionList(r, latest.cAtomic, "No atomic transactions on the contract chain yet.")}${more("C")}`, "c-atomic")}
</div>`;
}
