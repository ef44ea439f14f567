import { secp256k1 } from "@noble/curves/secp256k1.js";
import { decodeCb58, decodePrivateKey, encodeCb58, encodePrivateKey, EncodingError, equalBytes, parseChainAddress } from "../../encoding";
import { authenticateUser } from "../../keystore/api";
import type { Keystore, KeystoreUser } from "../../keystore/keystore";
import { invalidParams, type NamedParams, RpcApi, serverError } from "../../rpc";
import { MAX_NFT_PAYLOAD_SIZE, shortIdFromPrivateKey } from "../codec";
import type { ExchangeChain } from "../vm/chain";
import { type BuiltTx, ExchangeWallet } from "../vm/wallet";
import { walletErrors } from "./errors";
import { decodeBytes, encodingParam, ExchangeChainParams, memoParam } from "./params";
import { EXCHANGE_CHAIN_NAMESPACES } from "./queries";

/*
 * The exchange chain's methods for keystore users: their keys (createAddress, importKey,
 * exportKey, listAddresses) and the transactions the node builds, signs with the user's keys
 * for this chain and issues for them (send, assets, mints, export, import).
 */

/** A keystore user holds at most this many addresses (the node's limit). */
export const MAX_KEYSTORE_ADDRESSES = 5000;

interface SendOutput {
  assetId: Uint8Array;
  amount: bigint;
  to: Uint8Array;
}

/** The keystore-backed methods of `chain` (each as xvm.<m> and avm.<m>); users authenticate against `keystore`. */
export function createExchangeWalletApi(chain: ExchangeChain, keystore: Keystore): RpcApi {
  const read = new ExchangeChainParams(chain);
  const user = (p: NamedParams): Promise<KeystoreUser> => authenticateUser(keystore, p);
  const wallet = async (p: NamedParams): Promise<ExchangeWallet> => new ExchangeWallet(chain, (await user(p)).keysFor(chain.chainId));

  /**
   * Issues what the wallet built, resolving once the chain's store holds it; the chain's refusal
   * becomes "problem issuing transaction: ..." (walletErrors).
   */
  const issue = async (built: BuiltTx): Promise<BuiltTx> => {
    await chain.issue(built.bytes);
    return built;
  };
  const changeAddr = (built: BuiltTx): string => chain.formatAddress(built.changeAddr!);
  const txReply = (built: BuiltTx) => ({ txID: encodeCb58(built.txId), changeAddr: changeAddr(built) });
  const assetReply = (built: BuiltTx) => ({ assetID: encodeCb58(built.txId), changeAddr: changeAddr(built) });

  const addKey = async (owner: KeystoreUser, key: Uint8Array): Promise<void> => {
    const keys = owner.keysFor(chain.chainId);
    // The same key controls the same address: comparing keys is enough (and cheap).
    const has = keys.some((k) => equalBytes(k, key));
    if (!has && keys.length >= MAX_KEYSTORE_ADDRESSES) throw serverError(`keystore user has reached its limit of ${MAX_KEYSTORE_ADDRESSES} addresses`);
    await owner.addKey(chain.chainId, key);
  };

  /** One payment of send / sendMultiple: amount, assetID, to. */
  const sendOutput = (p: NamedParams): SendOutput => {
    const amount = p.uint("amount", 64);
    if (amount === 0n) throw invalidParams(`${p.nameOf("amount")} must be positive`);
    const assetText = p.string("assetID");
    let assetId: Uint8Array;
    try {
      assetId = chain.lookupAssetId(assetText);
    } catch (error) {
      if (error instanceof RangeError) throw invalidParams(`${p.nameOf("assetID")}: couldn't find asset ${assetText}`);
      throw error;
    }
    return { assetId, amount, to: read.address(p, "to") };
  };

  /** Where an export goes: the chain named by the `to` address's prefix (e.g. "C-local1..."), or by targetChain for a bare short ID. */
  const exportTarget = (p: NamedParams): { destinationChain: Uint8Array; to: Uint8Array } => {
    const text = p.string("to");
    const hrp = chain.network.hrp;
    if (text.includes("-")) {
      let parsed: ReturnType<typeof parseChainAddress>;
      try {
        parsed = parseChainAddress(text);
      } catch (error) {
        if (error instanceof EncodingError) throw invalidParams(`couldn't parse to address ${JSON.stringify(text)}: ${error.detail}`);
        throw error;
      }
      if (parsed.hrp !== hrp) throw invalidParams(`couldn't parse to address ${JSON.stringify(text)}: expected hrp "${hrp}" but got "${parsed.hrp}"`);
      return { destinationChain: read.chainOf(parsed.chainAlias, "to address chain"), to: parsed.shortId };
    }
    const target = p.optionalString("targetChain");
    if (target === undefined) throw invalidParams(`to ${JSON.stringify(text)} names no chain: give a chain-prefixed address such as "C-${hrp}1..."`);
    const destinationChain = read.chainOf(target, "targetChain");
    let to: Uint8Array | undefined;
    try {
      to = decodeCb58(text);
    } catch (error) {
      if (!(error instanceof EncodingError)) throw error;
    }
    if (to === undefined || to.length !== 20) throw invalidParams(`couldn't parse to address ${JSON.stringify(text)}: expected a chain-prefixed address or a cb58 short ID`);
    return { destinationChain, to };
  };

  /** createFixedCapAsset and createVariableCapAsset: the same request, told apart by what it gives. */
  const createAsset = async (p: NamedParams) => {
    const name = p.stringOr("name", "");
    const symbol = p.stringOr("symbol", "");
    const denomination = Number(p.uint("denomination", 8, 0n));
    const initialHolders = p.objects("initialHolders").map((holder) => ({ address: read.address(holder, "address"), amount: holder.uint("amount", 64) }));
    const minterSets = read.minterSets(p);
    if (initialHolders.length === 0 && minterSets.length === 0) throw invalidParams("no minters or initialHolders provided");
    const options = read.spendOptions(p);
    const w = await wallet(p);
    return assetReply(await issue(w.createAsset({ name, symbol, denomination, initialHolders, minterSets }, options)));
  };

  return new RpcApi({ namespaces: EXCHANGE_CHAIN_NAMESPACES, mapError: walletErrors })
    .named("createAddress", async (p) => {
      const owner = await user(p);
      const key = secp256k1.utils.randomSecretKey();
      await addKey(owner, key);
      return { address: chain.formatAddress(shortIdFromPrivateKey(key)) };
    })

    .named("listAddresses", async (p) => {
      const owner = await user(p);
      return { addresses: owner.keysFor(chain.chainId).map((k) => chain.formatAddress(shortIdFromPrivateKey(k))) };
    })

    .named("exportKey", async (p) => {
      const address = read.address(p, "address");
      const owner = await user(p);
      const key = owner.keysFor(chain.chainId).find((k) => equalBytes(shortIdFromPrivateKey(k), address));
      if (key === undefined) {
        throw serverError(`problem retrieving private key: not found (user ${JSON.stringify(owner.username)} has no key for ${chain.formatAddress(address)})`);
      }
      return { privateKey: encodePrivateKey(key) };
    })

    .named("importKey", async (p) => {
      const text = p.string("privateKey", "argument 'privateKey' not given");
      let key: Uint8Array;
      try {
        key = decodePrivateKey(text);
      } catch (error) {
        if (error instanceof EncodingError) throw invalidParams(`invalid privateKey: ${error.detail}`);
        throw error;
      }
      const owner = await user(p);
      await addKey(owner, key);
      return { address: chain.formatAddress(shortIdFromPrivateKey(key)) };
    })

    .named("send", async (p) => {
      const output = sendOutput(p);
      const memo = memoParam(p);
      const options = read.spendOptions(p);
      const w = await wallet(p);
      return txReply(await issue(w.sendMultiple([output], { ...options, memo })));
    })

    .named("sendMultiple", async (p) => {
      const memo = memoParam(p);
      const outputs = p.objects("outputs").map(sendOutput);
      if (outputs.length === 0) throw invalidParams("no outputs to send");
      const options = read.spendOptions(p);
      const w = await wallet(p);
      return txReply(await issue(w.sendMultiple(outputs, { ...options, memo })));
    })

    .named("createFixedCapAsset", createAsset)
    .named("createVariableCapAsset", createAsset)

    .named("createNFTAsset", async (p) => {
      const name = p.stringOr("name", "");
      const symbol = p.stringOr("symbol", "");
      const minterSets = read.minterSets(p);
      if (minterSets.length === 0) throw invalidParams("no minters provided");
      const options = read.spendOptions(p);
      const w = await wallet(p);
      return assetReply(await issue(w.createNftAsset({ name, symbol, minterSets }, options)));
    })

    .named("mint", async (p) => {
      const amount = p.uint("amount", 64);
      if (amount === 0n) throw invalidParams("amount minted must be positive");
      const assetId = read.asset(p);
      const to = read.address(p, "to");
      const options = read.spendOptions(p);
      const w = await wallet(p);
      return txReply(await issue(w.mint({ assetId, amount, to }, options)));
    })

    .named("mintNFT", async (p) => {
      const assetId = read.asset(p);
      const to = read.address(p, "to");
      const encoding = encodingParam(p);
      const payload = decodeBytes(p.stringOr("payload", ""), encoding, "payload bytes");
      if (payload.length > MAX_NFT_PAYLOAD_SIZE) throw invalidParams(`payload too large: ${payload.length} bytes, at most ${MAX_NFT_PAYLOAD_SIZE}`);
      const options = read.spendOptions(p);
      const w = await wallet(p);
      return txReply(await issue(w.mintNft({ assetId, payload, to }, options)));
    })

    .named("export", async (p) => {
      const assetId = read.asset(p);
      const { destinationChain, to } = exportTarget(p);
      const amount = p.uint("amount", 64);
      if (amount === 0n) throw invalidParams("amount must be positive");
      const options = read.spendOptions(p);
      const w = await wallet(p);
      return txReply(await issue(w.export({ assetId, amount, destinationChain, to }, options)));
    })

    .named("import", async (p) => {
      const sourceChain = read.chainOf(p.string("sourceChain"), "sourceChain");
      if (equalBytes(sourceChain, chain.chainId)) throw invalidParams("sourceChain is this chain; import from another chain of the network (for example C)");
      const to = read.address(p, "to");
      const w = await wallet(p);
      return { txID: encodeCb58((await issue(w.import({ sourceChain, to }))).txId) };
    });
}
