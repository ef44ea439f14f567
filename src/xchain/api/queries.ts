import { encodeCb58, encodeNodeBytes } from "../../encoding";
import { invalidParams, type NamedParams, RpcApi, serverError } from "../../rpc";
import { encodingParam, issueSignedTx, MAX_PAGE_SIZE, txFormatParam, txIdParam, utxoPageAnswer } from "../../utxo/api";
import type { ExchangeChain } from "../vm/chain";
import { txToJson } from "../vm/json";
import { queryErrors } from "./errors";
import { ExchangeChainParams } from "./params";

/*
 * The exchange chain's methods that need no keystore user: balances, assets, transactions,
 * UTXOs, fees, and issueTx of a transaction signed elsewhere. Each is served under the
 * reference node's name (avm.<m>) and the seed's (xvm.<m>).
 */

export { MAX_PAGE_SIZE, MAX_UTXO_ADDRESSES } from "../../utxo/api";

/** The namespaces every exchange-chain method answers under: the seed's and the reference node's. */
export const EXCHANGE_CHAIN_NAMESPACES: readonly string[] = ["xvm", "avm"];

/** What the query methods read: the chain, and its parameter reader. */
export interface ExchangeQueryContext {
  readonly chain: ExchangeChain;
  readonly read: ExchangeChainParams;
}

/** The query methods of `chain`. */
export function createExchangeQueryApi(chain: ExchangeChain): RpcApi {
  const context: ExchangeQueryContext = { chain, read: new ExchangeChainParams(chain) };
  return new RpcApi({ mapError: queryErrors }).namedMethods(context, {
    "avm.getBalance": getBalance,
    "xvm.getBalance": getBalance,
    "avm.getAllBalances": getAllBalances,
    "xvm.getAllBalances": getAllBalances,
    "avm.getAssetDescription": getAssetDescription,
    "xvm.getAssetDescription": getAssetDescription,
    "avm.getAddressTxs": getAddressTxs,
    "xvm.getAddressTxs": getAddressTxs,
    "avm.getTx": getTx,
    "xvm.getTx": getTx,
    "avm.getTxStatus": getTxStatus,
    "xvm.getTxStatus": getTxStatus,
    "avm.getTxFee": getTxFee,
    "xvm.getTxFee": getTxFee,
    "avm.getUTXOs": getUTXOs,
    "xvm.getUTXOs": getUTXOs,
    "avm.issueTx": issueTx,
    "xvm.issueTx": issueTx,
  });
}

/** address, assetID, includePartial → balance and the UTXOs holding it. */
function getBalance({ chain, read }: ExchangeQueryContext, p: NamedParams) {
  const address = read.address(p, "address");
  const assetId = read.asset(p);
  const { balance, utxos } = chain.getBalance(address, assetId, p.boolean("includePartial"));
  return { balance: balance.toString(), utxoIDs: utxos.map((u) => ({ txID: encodeCb58(u.txId), outputIndex: u.outputIndex })) };
}

/** address, includePartial → the balance of every asset the address holds. */
function getAllBalances({ chain, read }: ExchangeQueryContext, p: NamedParams) {
  const address = read.address(p, "address");
  const balances = chain.getAllBalances(address, p.boolean("includePartial"));
  return { balances: balances.map((b) => ({ asset: chain.assetName(b.assetId), balance: b.balance.toString() })) };
}

/** assetID (absent: the fee asset) → its name, symbol and denomination. */
function getAssetDescription({ chain, read }: ExchangeQueryContext, p: NamedParams) {
  const text = p.optionalString("assetID");
  const assetId = text === undefined ? chain.feeAssetId : read.assetOf(text, "assetID");
  const asset = chain.getAsset(assetId);
  if (asset === undefined) {
    if (chain.getTx(assetId) !== undefined) throw serverError("transaction doesn't create an asset");
    throw serverError(`not found: no asset has ID ${encodeCb58(assetId)}`);
  }
  return { assetID: encodeCb58(asset.id), name: asset.name, symbol: asset.symbol, denomination: String(asset.denomination) };
}

/** address, assetID, cursor, pageSize → the IDs of the transactions that changed the address's balance of the asset. */
function getAddressTxs({ chain, read }: ExchangeQueryContext, p: NamedParams) {
  const address = read.address(p, "address");
  const assetText = p.string("assetID", "missing parameter assetID: getAddressTxs lists the transactions that changed the address's balance of one asset (ID or alias)");
  const assetId = read.assetOf(assetText, "assetID");
  const cursor = p.uint("cursor", 64, 0n);
  let pageSize = p.uint("pageSize", 64, 0n);
  if (pageSize > BigInt(MAX_PAGE_SIZE)) throw invalidParams(`pageSize > maximum allowed (${MAX_PAGE_SIZE})`);
  if (pageSize === 0n) pageSize = BigInt(MAX_PAGE_SIZE);
  const txIds = chain.getAddressTxs(address, assetId, cursor, Number(pageSize));
  return { txIDs: txIds.map((id) => encodeCb58(id)), cursor: (cursor + BigInt(txIds.length)).toString() };
}

/** txID, encoding (cb58, hex or json) → the accepted transaction. */
function getTx({ chain }: ExchangeQueryContext, p: NamedParams) {
  const id = txIdParam(p);
  const encoding = txFormatParam(p);
  const accepted = chain.getTx(id);
  if (accepted === undefined) throw serverError(`not found: no accepted transaction has ID ${encodeCb58(id)}`);
  const tx = encoding === "json" ? txToJson(accepted.tx, accepted.id, chain) : encodeNodeBytes(accepted.bytes, encoding);
  return { tx, encoding };
}

function getTxStatus({ chain }: ExchangeQueryContext, p: NamedParams) {
  return { status: chain.getTxStatus(txIdParam(p)) };
}

function getTxFee({ chain }: ExchangeQueryContext) {
  return { txFee: chain.fees.txFee.toString(), createAssetTxFee: chain.fees.createAssetTxFee.toString() };
}

/** The chain's UTXOs (or those waiting from `sourceChain`) owned by any of `addresses`, a page at a time. */
function getUTXOs({ chain, read }: ExchangeQueryContext, p: NamedParams) {
  return utxoPageAnswer(chain, read.utxoPageRequest(p, chain.chainId), encodingParam(p));
}

function issueTx({ chain }: ExchangeQueryContext, p: NamedParams) {
  return issueSignedTx(chain, p);
}
