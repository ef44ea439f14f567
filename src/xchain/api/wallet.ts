import { encodeCb58, equalBytes } from "../../encoding";
import type { Keystore } from "../../keystore/keystore";
import { invalidParams, type NamedParams, RpcApi } from "../../rpc";
import { createAddress, decodeBytes, encodingParam, exportKey, importKey, issueBuilt, type KeystoreKeysContext, listAddresses, userKeys } from "../../utxo/api";
import { MAX_NFT_PAYLOAD_SIZE } from "../../utxo/codec";
import type { ExchangeChain } from "../vm/chain";
import { type BuiltTx, ExchangeWallet } from "../vm/wallet";
import { walletErrors } from "./errors";
import { ExchangeChainParams, memoParam } from "./params";

/*
 * The exchange chain's methods for keystore users: their keys (createAddress, importKey,
 * exportKey, listAddresses, shared with the platform chain in src/utxo/api) and the
 * transactions the node builds, signs with the user's keys for this chain and issues for them
 * (send, assets, mints, export, import). Each is served as avm.<m> and xvm.<m>.
 */

export { MAX_KEYSTORE_ADDRESSES } from "../../utxo/api";

/** What the wallet methods work on: the chain, the keystore its users authenticate against, and its parameter reader. */
export interface ExchangeWalletContext extends KeystoreKeysContext {
  readonly chain: ExchangeChain;
  readonly read: ExchangeChainParams;
}

/** The keystore-backed methods of `chain`; users authenticate against `keystore`. */
export function createExchangeWalletApi(chain: ExchangeChain, keystore: Keystore): RpcApi {
  const context: ExchangeWalletContext = { chain, keystore, read: new ExchangeChainParams(chain) };
  return new RpcApi({ mapError: walletErrors }).namedMethods(context, {
    "avm.createAddress": createAddress,
    "xvm.createAddress": createAddress,
    "avm.listAddresses": listAddresses,
    "xvm.listAddresses": listAddresses,
    "avm.exportKey": exportKey,
    "xvm.exportKey": exportKey,
    "avm.importKey": importKey,
    "xvm.importKey": importKey,
    "avm.send": send,
    "xvm.send": send,
    "avm.sendMultiple": sendMultiple,
    "xvm.sendMultiple": sendMultiple,
    "avm.createFixedCapAsset": createAsset,
    "xvm.createFixedCapAsset": createAsset,
    "avm.createVariableCapAsset": createAsset,
    "xvm.createVariableCapAsset": createAsset,
    "avm.createNFTAsset": createNFTAsset,
    "xvm.createNFTAsset": createNFTAsset,
    "avm.mint": mint,
    "xvm.mint": mint,
    "avm.mintNFT": mintNFT,
    "xvm.mintNFT": mintNFT,
    "avm.export": exportFunds,
    "xvm.export": exportFunds,
    "avm.import": importFunds,
    "xvm.import": importFunds,
  });
}

/** send: one payment (amount, assetID, to), memo, from, changeAddr → txID, changeAddr. */
async function send(context: ExchangeWalletContext, p: NamedParams) {
  const { read } = context;
  const output = read.sendOutput(p);
  const memo = memoParam(p);
  const options = read.spendOptions(p);
  const w = await walletOf(context, p);
  return txReply(context.chain, await issue(context.chain, w.sendMultiple([output], { ...options, memo })));
}

/** sendMultiple: outputs (payments as send takes one), memo, from, changeAddr → txID, changeAddr. */
async function sendMultiple(context: ExchangeWalletContext, p: NamedParams) {
  const { read } = context;
  const memo = memoParam(p);
  const outputs = p.objects("outputs").map((output) => read.sendOutput(output));
  if (outputs.length === 0) throw invalidParams("no outputs to send");
  const options = read.spendOptions(p);
  const w = await walletOf(context, p);
  return txReply(context.chain, await issue(context.chain, w.sendMultiple(outputs, { ...options, memo })));
}

/** createFixedCapAsset and createVariableCapAsset: the same request, told apart by what it gives (initialHolders, minterSets). */
async function createAsset(context: ExchangeWalletContext, p: NamedParams) {
  const { read } = context;
  const name = p.stringOr("name", "");
  const symbol = p.stringOr("symbol", "");
  const denomination = Number(p.uint("denomination", 8, 0n));
  const initialHolders = p.objects("initialHolders").map((holder) => ({ address: read.address(holder, "address"), amount: holder.uint("amount", 64) }));
  const minterSets = read.minterSets(p);
  if (initialHolders.length === 0 && minterSets.length === 0) throw invalidParams("no minters or initialHolders provided");
  const options = read.spendOptions(p);
  const w = await walletOf(context, p);
  return assetReply(context.chain, await issue(context.chain, w.createAsset({ name, symbol, denomination, initialHolders, minterSets }, options)));
}

/** createNFTAsset: name, symbol, minterSets → assetID, changeAddr. */
async function createNFTAsset(context: ExchangeWalletContext, p: NamedParams) {
  const { read } = context;
  const name = p.stringOr("name", "");
  const symbol = p.stringOr("symbol", "");
  const minterSets = read.minterSets(p);
  if (minterSets.length === 0) throw invalidParams("no minters provided");
  const options = read.spendOptions(p);
  const w = await walletOf(context, p);
  return assetReply(context.chain, await issue(context.chain, w.createNftAsset({ name, symbol, minterSets }, options)));
}

/** mint: amount of assetID to `to`, by the user's minter keys → txID, changeAddr. */
async function mint(context: ExchangeWalletContext, p: NamedParams) {
  const { read } = context;
  const amount = p.uint("amount", 64);
  if (amount === 0n) throw invalidParams("amount minted must be positive");
  const assetId = read.asset(p);
  const to = read.address(p, "to");
  const options = read.spendOptions(p);
  const w = await walletOf(context, p);
  return txReply(context.chain, await issue(context.chain, w.mint({ assetId, amount, to }, options)));
}

/** mintNFT: assetID, to, payload (in `encoding`) → txID, changeAddr. */
async function mintNFT(context: ExchangeWalletContext, p: NamedParams) {
  const { read } = context;
  const assetId = read.asset(p);
  const to = read.address(p, "to");
  const encoding = encodingParam(p);
  const payload = decodeBytes(p.stringOr("payload", ""), encoding, "payload bytes");
  if (payload.length > MAX_NFT_PAYLOAD_SIZE) throw invalidParams(`payload too large: ${payload.length} bytes, at most ${MAX_NFT_PAYLOAD_SIZE}`);
  const options = read.spendOptions(p);
  const w = await walletOf(context, p);
  return txReply(context.chain, await issue(context.chain, w.mintNft({ assetId, payload, to }, options)));
}

/** export: amount of assetID to another chain's address → txID, changeAddr. */
async function exportFunds(context: ExchangeWalletContext, p: NamedParams) {
  const { read } = context;
  const assetId = read.asset(p);
  const { destinationChain, to } = read.exportTarget(p);
  const amount = p.uint("amount", 64);
  if (amount === 0n) throw invalidParams("amount must be positive");
  const options = read.spendOptions(p);
  const w = await walletOf(context, p);
  return txReply(context.chain, await issue(context.chain, w.export({ assetId, amount, destinationChain, to }, options)));
}

/** import: every UTXO waiting from sourceChain that the user's keys can spend, to `to` → txID. */
async function importFunds(context: ExchangeWalletContext, p: NamedParams) {
  const { chain, read } = context;
  const sourceChain = read.chainOf(p.string("sourceChain"), "sourceChain");
  if (equalBytes(sourceChain, chain.chainId)) throw invalidParams("sourceChain is this chain; import from another chain of the network (for example C)");
  const to = read.address(p, "to");
  const w = await walletOf(context, p);
  return { txID: encodeCb58((await issue(chain, w.import({ sourceChain, to }))).txId) };
}

/** The wallet of the user the call names, over their keys for this chain. */
async function walletOf(context: ExchangeWalletContext, p: NamedParams): Promise<ExchangeWallet> {
  return new ExchangeWallet(context.chain, await userKeys(context, p));
}

/** Issues what the wallet built; the chain's refusal becomes "problem issuing transaction: ..." (walletErrors). */
function issue(chain: ExchangeChain, built: BuiltTx): Promise<BuiltTx> {
  return issueBuilt(chain, built);
}

function txReply(chain: ExchangeChain, built: BuiltTx) {
  return { txID: encodeCb58(built.txId), changeAddr: chain.formatAddress(built.changeAddr!) };
}

function assetReply(chain: ExchangeChain, built: BuiltTx) {
  return { assetID: encodeCb58(built.txId), changeAddr: chain.formatAddress(built.changeAddr!) };
}
