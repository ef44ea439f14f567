import { decodeCb58, EncodingError, parseChainAddress } from "../../encoding";
import { invalidParams, type NamedParams } from "../../rpc";
import { MAX_MEMO_SIZE } from "../../utxo/codec";
import { UtxoChainParams } from "../../utxo/api/chain-params";
import type { ExchangeChain } from "../vm/chain";

/*
 * The parameters particular to the exchange chain's APIs, read on top of `NamedParams` and the
 * UTXO chains' readers (src/utxo/api): assets, payments, export targets, memos and minter
 * sets. Every failure is -32602 in the reference node's words, naming the field.
 */

/** A minter set as the wallet takes it: any `threshold` of `minters` may mint. */
export interface MinterSet {
  minters: Uint8Array[];
  threshold: number;
}

/** One payment of send / sendMultiple. */
export interface SendOutput {
  assetId: Uint8Array;
  amount: bigint;
  to: Uint8Array;
}

/** Where an export goes: the destination chain and the owner's short ID there. */
export interface ExportTarget {
  destinationChain: Uint8Array;
  to: Uint8Array;
}

/** A transaction's `memo`: text of at most 256 bytes in UTF-8 (absent: none). */
export function memoParam(p: NamedParams): Uint8Array {
  const memo = new TextEncoder().encode(p.stringOr("memo", ""));
  if (memo.length > MAX_MEMO_SIZE) throw invalidParams(`max memo length is ${MAX_MEMO_SIZE} but provided memo field is length ${memo.length}`);
  return memo;
}

/** The addresses, assets and chains of one exchange chain, as its API calls name them. */
export class ExchangeChainParams extends UtxoChainParams {
  constructor(private readonly chain: ExchangeChain) {
    super(chain);
  }

  /** An asset by alias ("AVAX") or cb58 ID. */
  assetOf(text: string, name: string): Uint8Array {
    try {
      return this.chain.lookupAssetId(text);
    } catch (error) {
      if (error instanceof RangeError) throw invalidParams(`invalid ${name}: ${error.message}`);
      throw error;
    }
  }

  /** A required asset, by default the `assetID` field. */
  asset(p: NamedParams, name = "assetID"): Uint8Array {
    return this.assetOf(p.string(name), p.nameOf(name));
  }

  /** One payment of send / sendMultiple: amount (positive), assetID (ID or alias), to. */
  sendOutput(p: NamedParams): SendOutput {
    const amount = p.uint("amount", 64);
    if (amount === 0n) throw invalidParams(`${p.nameOf("amount")} must be positive`);
    const assetText = p.string("assetID");
    let assetId: Uint8Array;
    try {
      assetId = this.chain.lookupAssetId(assetText);
    } catch (error) {
      if (error instanceof RangeError) throw invalidParams(`${p.nameOf("assetID")}: couldn't find asset ${assetText}`);
      throw error;
    }
    return { assetId, amount, to: this.address(p, "to") };
  }

  /** Where an export goes: the chain named by the `to` address's prefix (e.g. "C-local1..."), or by targetChain for a bare short ID. */
  exportTarget(p: NamedParams): ExportTarget {
    const text = p.string("to");
    const hrp = this.chain.network.hrp;
    if (text.includes("-")) {
      let parsed: ReturnType<typeof parseChainAddress>;
      try {
        parsed = parseChainAddress(text);
      } catch (error) {
        if (error instanceof EncodingError) throw invalidParams(`couldn't parse to address ${JSON.stringify(text)}: ${error.detail}`);
        throw error;
      }
      if (parsed.hrp !== hrp) throw invalidParams(`couldn't parse to address ${JSON.stringify(text)}: expected hrp "${hrp}" but got "${parsed.hrp}"`);
      return { destinationChain: this.chainOf(parsed.chainAlias, "to address chain"), to: parsed.shortId };
    }
    const target = p.optionalString("targetChain");
    if (target === undefined) throw invalidParams(`to ${JSON.stringify(text)} names no chain: give a chain-prefixed address such as "C-${hrp}1..."`);
    const destinationChain = this.chainOf(target, "targetChain");
    let to: Uint8Array | undefined;
    try {
      to = decodeCb58(text);
    } catch (error) {
      if (!(error instanceof EncodingError)) throw error;
    }
    if (to === undefined || to.length !== 20) throw invalidParams(`couldn't parse to address ${JSON.stringify(text)}: expected a chain-prefixed address or a cb58 short ID`);
    return { destinationChain, to };
  }

  /** `minterSets`: a list of {minters, threshold} (absent: none). */
  minterSets(p: NamedParams): MinterSet[] {
    return p.objects("minterSets").map((set) => ({
      minters: this.addresses(set, "minters"),
      threshold: Number(set.uint("threshold", 32, 0n)),
    }));
  }
}
