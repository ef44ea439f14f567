import { encodeCb58, EncodingError, equalBytes, parseChainAddress } from "../../encoding";
import type { Keystore } from "../../keystore/keystore";
import { invalidParams, type NamedParams, RpcApi } from "../../rpc";
import { createAddress, exportKey, importKey, issueBuilt, type KeystoreKeysContext, listAddresses, userKeys, UtxoChainParams } from "../../utxo/api";
import { MAX_MEMO_SIZE } from "../../utxo/codec";
import { aliasIdFromTxId } from "../codec";
import type { PlatformChain } from "../vm/chain";
import { type PBuiltTx, PlatformWallet } from "../vm/wallet";
import { platformWalletErrors } from "./errors";

/*
 * The platform chain's keystore-backed methods (the reference node's createAddress,
 * listAddresses, importKey, exportKey, exportAVAX, importAVAX) and Camino's
 * createMultisigAlias: built and signed with the user's keys for this chain, then issued. The
 * key methods are the UTXO chains' (src/utxo/api), served here as platform.<m>.
 */

/** What the wallet methods work on: the platform chain, with the keystore and the reader of the key methods. */
export interface PlatformWalletContext extends KeystoreKeysContext {
  readonly chain: PlatformChain;
}

export function createPlatformWalletApi(chain: PlatformChain, keystore: Keystore): RpcApi {
  const context: PlatformWalletContext = { chain, keystore, read: new UtxoChainParams(chain) };
  return new RpcApi({ mapError: platformWalletErrors }).namedMethods(context, {
    "platform.createAddress": createAddress,
    "platform.listAddresses": listAddresses,
    "platform.importKey": importKey,
    "platform.exportKey": exportKey,
    "platform.exportAVAX": exportAVAX,
    "platform.importAVAX": importAVAX,
    "platform.createMultisigAlias": createMultisigAlias,
  });
}

/** amount, to (another chain's address, or a short ID with targetChain), from, changeAddr → txID, changeAddr. */
async function exportAVAX(context: PlatformWalletContext, p: NamedParams) {
  const { chain, read } = context;
  const amount = p.uint("amount", 64);
  if (amount === 0n) throw invalidParams("argument 'amount' must be > 0");
  const to = p.string("to");
  let destinationChain: Uint8Array;
  let shortId: Uint8Array;
  if (to.includes("-")) {
    const parsed = parseTo(to, chain);
    destinationChain = read.chainOf(parsed.chainAlias, "to address chain");
    shortId = parsed.shortId;
  } else {
    destinationChain = read.chainOf(p.string("targetChain", "to names no chain: give a chain-prefixed address (\"X-…\", \"C-…\") or targetChain"), "targetChain");
    shortId = read.addressOf(to, "to");
  }
  if (equalBytes(destinationChain, chain.chainId)) throw invalidParams("to is a platform chain address: export to another chain of the network (X or C)");
  const options = read.spendOptions(p);
  return reply(chain, await issueBuilt(chain, (await walletOf(context, p)).export({ amount, destinationChain, to: shortId }, options)));
}

/** sourceChain, to, from, changeAddr → txID, changeAddr: every UTXO waiting from sourceChain that the user's keys can spend. */
async function importAVAX(context: PlatformWalletContext, p: NamedParams) {
  const { chain, read } = context;
  const sourceChain = read.chainOf(p.string("sourceChain"), "sourceChain");
  if (equalBytes(sourceChain, chain.chainId)) throw invalidParams("sourceChain is this chain; import from another chain of the network (X or C)");
  const to = read.address(p, "to");
  const options = read.spendOptions(p);
  return reply(chain, await issueBuilt(chain, (await walletOf(context, p)).import({ sourceChain, to }, options)));
}

/** addresses, threshold, alias?, memo, from, changeAddr → txID and the alias's address. */
async function createMultisigAlias(context: PlatformWalletContext, p: NamedParams) {
  const { chain, read } = context;
  const owners = read.addresses(p, "addresses");
  if (owners.length === 0) throw invalidParams("no addresses provided: an alias needs at least one owner");
  const threshold = Number(p.uint("threshold", 32));
  if (threshold < 1 || threshold > owners.length) throw invalidParams(`threshold must be from 1 to the number of addresses (${owners.length}), got ${threshold}`);
  const aliasText = p.optionalString("alias");
  const aliasId = aliasText === undefined ? undefined : read.addressOf(aliasText, "alias");
  const options = read.spendOptions(p);
  const wallet = await walletOf(context, p);
  const built = await issueBuilt(chain, wallet.multisigAlias({ owners, threshold, memo: aliasMemoParam(p), ...(aliasId === undefined ? {} : { aliasId }) }, options));
  return { txID: encodeCb58(built.txId), alias: chain.formatAddress(aliasId ?? aliasIdFromTxId(built.txId)) };
}

/** The wallet of the user the call names, over their keys for this chain. */
async function walletOf(context: PlatformWalletContext, p: NamedParams): Promise<PlatformWallet> {
  return new PlatformWallet(context.chain, await userKeys(context, p));
}

function reply(chain: PlatformChain, built: PBuiltTx) {
  return { txID: encodeCb58(built.txId), changeAddr: built.changeAddr === undefined ? "" : chain.formatAddress(built.changeAddr) };
}

/** An alias's `memo`: "0x" and hex, or text in UTF-8; at most 256 bytes. */
function aliasMemoParam(p: NamedParams): Uint8Array {
  const text = p.stringOr("memo", "");
  const bytes = text.startsWith("0x") ? Buffer.from(text.slice(2), "hex") : new TextEncoder().encode(text);
  if (bytes.length > MAX_MEMO_SIZE) throw invalidParams(`msig alias memo is larger (${bytes.length} bytes) than max of ${MAX_MEMO_SIZE} bytes`);
  return new Uint8Array(bytes);
}

/** A chain-prefixed address ("X-local1…"): its chain and short ID, refusing another network's hrp. */
function parseTo(text: string, chain: PlatformChain): { chainAlias: string; shortId: Uint8Array } {
  try {
    const { chainAlias, hrp, shortId } = parseChainAddress(text);
    if (hrp !== chain.network.hrp) throw invalidParams(`couldn't parse to address ${JSON.stringify(text)}: expected hrp "${chain.network.hrp}" but got "${hrp}"`);
    return { chainAlias, shortId };
  } catch (error) {
    if (error instanceof EncodingError) throw invalidParams(`couldn't parse to address ${JSON.stringify(text)}: ${error.detail}`);
    throw error;
  }
}
