import { secp256k1 } from "@noble/curves/secp256k1.js";
import { decodePrivateKey, encodeCb58, encodePrivateKey, EncodingError, equalBytes, parseChainAddress } from "../../encoding";
import { authenticateUser } from "../../keystore/api";
import type { Keystore, KeystoreUser } from "../../keystore/keystore";
import { invalidParams, type NamedParams, RpcApi, serverError } from "../../rpc";
import { MAX_KEYSTORE_ADDRESSES } from "../../xchain/api/wallet";
import { MAX_MEMO_SIZE, shortIdFromPrivateKey } from "../../xchain/codec";
import { aliasIdFromTxId } from "../codec";
import type { PlatformChain } from "../vm/chain";
import { type PBuiltTx, PlatformWallet } from "../vm/wallet";
import { platformWalletErrors } from "./errors";
import { PlatformParams } from "./params";
import { PLATFORM_NAMESPACES } from "./queries";

/*
 * The platform chain's keystore-backed methods (the reference node's createAddress,
 * listAddresses, importKey, exportKey, exportAVAX, importAVAX) and Camino's
 * createMultisigAlias: built and signed with the user's keys for this chain, then issued.
 */

export function createPlatformWalletApi(chain: PlatformChain, keystore: Keystore): RpcApi {
  const read = new PlatformParams(chain);
  const user = (p: NamedParams): Promise<KeystoreUser> => authenticateUser(keystore, p);
  const wallet = async (p: NamedParams): Promise<PlatformWallet> => new PlatformWallet(chain, (await user(p)).keysFor(chain.chainId));
  const issue = (built: PBuiltTx): PBuiltTx => {
    chain.issueTx(built.bytes);
    return built;
  };
  const reply = (built: PBuiltTx) => ({ txID: encodeCb58(built.txId), changeAddr: built.changeAddr === undefined ? "" : chain.formatAddress(built.changeAddr) });
  const addKey = (owner: KeystoreUser, key: Uint8Array): string => {
    const keys = owner.keysFor(chain.chainId);
    if (!keys.some((k) => equalBytes(k, key)) && keys.length >= MAX_KEYSTORE_ADDRESSES) throw serverError(`keystore user has reached its limit of ${MAX_KEYSTORE_ADDRESSES} addresses`);
    owner.addKey(chain.chainId, key);
    return chain.formatAddress(shortIdFromPrivateKey(key));
  };
  const memo = (p: NamedParams): Uint8Array => {
    const text = p.stringOr("memo", "");
    const bytes = text.startsWith("0x") ? Buffer.from(text.slice(2), "hex") : new TextEncoder().encode(text);
    if (bytes.length > MAX_MEMO_SIZE) throw invalidParams(`msig alias memo is larger (${bytes.length} bytes) than max of ${MAX_MEMO_SIZE} bytes`);
    return new Uint8Array(bytes);
  };

  return new RpcApi({ namespaces: PLATFORM_NAMESPACES, mapError: platformWalletErrors })
    .named("createAddress", async (p) => ({ address: addKey(await user(p), secp256k1.utils.randomSecretKey()) }))

    .named("listAddresses", async (p) => ({ addresses: (await user(p)).keysFor(chain.chainId).map((k) => chain.formatAddress(shortIdFromPrivateKey(k))) }))

    .named("importKey", async (p) => {
      let key: Uint8Array;
      try {
        key = decodePrivateKey(p.string("privateKey", "argument 'privateKey' not given"));
      } catch (error) {
        if (error instanceof EncodingError) throw invalidParams(`invalid privateKey: ${error.detail}`);
        throw error;
      }
      return { address: addKey(await user(p), key) };
    })

    .named("exportKey", async (p) => {
      const address = read.address(p, "address");
      const owner = await user(p);
      const key = owner.keysFor(chain.chainId).find((k) => equalBytes(shortIdFromPrivateKey(k), address));
      if (key === undefined) throw serverError(`problem retrieving private key: not found (user ${JSON.stringify(owner.username)} has no key for ${chain.formatAddress(address)})`);
      return { privateKey: encodePrivateKey(key) };
    })

    .named("exportAVAX", async (p) => {
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
      return reply(issue((await wallet(p)).export({ amount, destinationChain, to: shortId }, options)));
    })

    .named("importAVAX", async (p) => {
      const sourceChain = read.chainOf(p.string("sourceChain"), "sourceChain");
      if (equalBytes(sourceChain, chain.chainId)) throw invalidParams("sourceChain is this chain; import from another chain of the network (X or C)");
      const to = read.address(p, "to");
      const options = read.spendOptions(p);
      return reply(issue((await wallet(p)).import({ sourceChain, to }, options)));
    })

    .named("createMultisigAlias", async (p) => {
      const owners = read.addresses(p, "addresses");
      if (owners.length === 0) throw invalidParams("no addresses provided: an alias needs at least one owner");
      const threshold = Number(p.uint("threshold", 32));
      if (threshold < 1 || threshold > owners.length) throw invalidParams(`threshold must be from 1 to the number of addresses (${owners.length}), got ${threshold}`);
      const aliasText = p.optionalString("alias");
      const aliasId = aliasText === undefined ? undefined : read.addressOf(aliasText, "alias");
      const options = read.spendOptions(p);
      const built = issue((await wallet(p)).multisigAlias({ owners, threshold, memo: memo(p), ...(aliasId === undefined ? {} : { aliasId }) }, options));
      return { txID: encodeCb58(built.txId), alias: chain.formatAddress(aliasId ?? aliasIdFromTxId(built.txId)) };
    });
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
