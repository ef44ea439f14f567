import { encodeCb58, encodeNodeBytes } from "../../encoding";
import { invalidParams, RpcApi, serverError } from "../../rpc";
import { CodecError } from "../codec";
import type { ExchangeChain } from "../vm/chain";
import { txToJson } from "../vm/json";
import { malformedTx, queryErrors } from "./errors";
import { decodeBytes, decodeId, encodingParam, ExchangeChainParams, txEncodingParam, txFormatParam, txIdParam } from "./params";

/*
 * The exchange chain's methods that need no keystore user: balances, assets, transactions,
 * UTXOs, fees, and issueTx of a transaction signed elsewhere.
 */

/** Largest number of addresses getUTXOs takes, and the largest page of getUTXOs / getAddressTxs. */
import { MAX_PAGE_SIZE, utxoPageAnswer } from "./chain-params";
export { MAX_PAGE_SIZE, MAX_UTXO_ADDRESSES } from "./chain-params";

/** The namespaces every exchange-chain method answers under: the seed's and the reference node's. */
export const EXCHANGE_CHAIN_NAMESPACES: readonly string[] = ["xvm", "avm"];

/** The query methods of `chain` (each as xvm.<m> and avm.<m>). */
export function createExchangeQueryApi(chain: ExchangeChain): RpcApi {
  const read = new ExchangeChainParams(chain);
  return new RpcApi({ namespaces: EXCHANGE_CHAIN_NAMESPACES, mapError: queryErrors })
    .named("getBalance", (p) => {
      const address = read.address(p, "address");
      const assetId = read.asset(p);
      const { balance, utxos } = chain.getBalance(address, assetId, p.boolean("includePartial"));
      return { balance: balance.toString(), utxoIDs: utxos.map((u) => ({ txID: encodeCb58(u.txId), outputIndex: u.outputIndex })) };
    })

    .named("getAllBalances", (p) => {
      const address = read.address(p, "address");
      const balances = chain.getAllBalances(address, p.boolean("includePartial"));
      return { balances: balances.map((b) => ({ asset: chain.assetName(b.assetId), balance: b.balance.toString() })) };
    })

    .named("getAssetDescription", (p) => {
      const text = p.optionalString("assetID");
      const assetId = text === undefined ? chain.feeAssetId : read.assetOf(text, "assetID");
      const asset = chain.getAsset(assetId);
      if (asset === undefined) {
        if (chain.getTx(assetId) !== undefined) throw serverError("transaction doesn't create an asset");
        throw serverError(`not found: no asset has ID ${encodeCb58(assetId)}`);
      }
      return { assetID: encodeCb58(asset.id), name: asset.name, symbol: asset.symbol, denomination: String(asset.denomination) };
    })

    .named("getAddressTxs", (p) => {
      const address = read.address(p, "address");
      const assetText = p.string(
        "assetID",
        "missing parameter assetID: getAddressTxs lists the transactions that changed the address's balance of one asset (ID or alias)",
      );
      const assetId = read.assetOf(assetText, "assetID");
      const cursor = p.uint("cursor", 64, 0n);
      let pageSize = p.uint("pageSize", 64, 0n);
      if (pageSize > BigInt(MAX_PAGE_SIZE)) throw invalidParams(`pageSize > maximum allowed (${MAX_PAGE_SIZE})`);
      if (pageSize === 0n) pageSize = BigInt(MAX_PAGE_SIZE);
      const txIds = chain.getAddressTxs(address, assetId, cursor, Number(pageSize));
      return { txIDs: txIds.map((id) => encodeCb58(id)), cursor: (cursor + BigInt(txIds.length)).toString() };
    })

    .named("getTx", (p) => {
      const id = txIdParam(p);
      const encoding = txFormatParam(p);
      const accepted = chain.getTx(id);
      if (accepted === undefined) throw serverError(`not found: no accepted transaction has ID ${encodeCb58(id)}`);
      const tx = encoding === "json" ? txToJson(accepted.tx, accepted.id, chain) : encodeNodeBytes(accepted.bytes, encoding);
      return { tx, encoding };
    })

    .named("getTxStatus", (p) => ({ status: chain.getTxStatus(txIdParam(p)) }))

    .named("getTxFee", () => ({ txFee: chain.fees.txFee.toString(), createAssetTxFee: chain.fees.createAssetTxFee.toString() }))

    .named("getUTXOs", (p) => utxoPageAnswer(chain, read.utxoPageRequest(p, chain.chainId), encodingParam(p)))

    .named("issueTx", async (p) => {
      const text = p.string("tx");
      const bytes = decodeBytes(text, txEncodingParam(p, text), "transaction");
      try {
        return { txID: encodeCb58(await chain.issue(bytes)) };
      } catch (error) {
        throw error instanceof CodecError ? malformedTx(error) : error;
      }
    });
}
