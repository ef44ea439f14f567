import { decodeCb58, encodeCb58, encodeNodeBytes, EncodingError, equalBytes, type NodeByteEncoding } from "../../encoding";
import { invalidParams, type NamedParams } from "../../rpc";
import { decodeId } from "./params";

/** Most addresses one getUTXOs may name, and most UTXOs one page holds (the reference's). */
export const MAX_UTXO_ADDRESSES = 1024;
export const MAX_PAGE_SIZE = 1024;

/** A getUTXOs request as read: whose UTXOs, from which chain's atomic memory (or this chain's), from where, how many. */
export interface UtxoPageRequest {
  addresses: Uint8Array[];
  /** `sourceChain` as given (absent: this chain's own UTXOs). */
  sourceText: string | undefined;
  sourceChain: Uint8Array;
  startAddress: Uint8Array | undefined;
  startUtxoId: Uint8Array | undefined;
  limit: number;
}

/** What a UTXO chain's parameters are read against: its own addresses and the network's chains. */
export interface AddressedChain {
  /** Short ID of an address of this chain ("X-local1…", "P-local1…"); throws EncodingError or RangeError. */
  parseAddress(text: string): Uint8Array;
  /** A chain of the network by alias or cb58 ID; throws RangeError. */
  lookupChain(aliasOrId: string): Uint8Array;
}

/**
 * The addresses and chains a UTXO chain's API calls name (the exchange and platform chains
 * read them alike); failures are -32602 errors naming the field.
 */
export class UtxoChainParams {
  constructor(protected readonly addressed: AddressedChain) {}

  /** The node's ParseServiceAddress: a bare cb58 short ID, or an address of this chain. */
  addressOf(text: string, name: string): Uint8Array {
    try {
      const raw = decodeCb58(text);
      if (raw.length === 20) return raw;
    } catch (error) {
      if (!(error instanceof EncodingError)) throw error;
    }
    try {
      return this.addressed.parseAddress(text);
    } catch (error) {
      if (error instanceof EncodingError || error instanceof RangeError) {
        const detail = error instanceof EncodingError ? error.detail : error.message;
        throw invalidParams(`couldn't parse ${name} address ${JSON.stringify(text)}: ${detail}`);
      }
      throw error;
    }
  }

  /** A required address. */
  address(p: NamedParams, name: string): Uint8Array {
    return this.addressOf(p.string(name), p.nameOf(name));
  }

  /** A list of addresses (absent: none), each named by its position in errors. */
  addresses(p: NamedParams, name: string): Uint8Array[] {
    return p.stringArray(name).map((text, i) => this.addressOf(text, p.nameOf(`${name}[${i}]`)));
  }

  /** A chain of the network by alias ("C", "evm", "P", ...) or cb58 ID. */
  chainOf(text: string, name: string): Uint8Array {
    try {
      return this.addressed.lookupChain(text);
    } catch (error) {
      if (error instanceof RangeError) throw invalidParams(`problem parsing ${name} ${JSON.stringify(text)}: ${error.message}`);
      throw error;
    }
  }

  /** getUTXOs' parameters, for a chain whose own ID is `ownChain`: 1 to 1024 addresses, a page of at most 1024 (0 or more: 1024). */
  utxoPageRequest(p: NamedParams, ownChain: Uint8Array): UtxoPageRequest {
    const texts = p.stringArray("addresses");
    if (texts.length === 0) throw invalidParams("no addresses provided");
    if (texts.length > MAX_UTXO_ADDRESSES) throw invalidParams(`number of addresses given, ${texts.length}, exceeds maximum, ${MAX_UTXO_ADDRESSES}`);
    const sourceText = p.optionalString("sourceChain");
    const sourceChain = sourceText === undefined ? ownChain : this.chainOf(sourceText, "sourceChain");
    const addresses = this.addresses(p, "addresses");
    let startAddress: Uint8Array | undefined;
    let startUtxoId: Uint8Array | undefined;
    const start = p.object("startIndex");
    if (start !== undefined) {
      const address = start.stringOr("address", "");
      const utxo = start.stringOr("utxo", "");
      if (address !== "" || utxo !== "") {
        startAddress = this.addressOf(address, "startIndex");
        startUtxoId = decodeId(utxo, start.nameOf("utxo"));
      }
    }
    let limit = Number(p.uint("limit", 32, 0n));
    if (limit <= 0 || limit > MAX_PAGE_SIZE) limit = MAX_PAGE_SIZE;
    return { addresses, sourceText, sourceChain, startAddress, startUtxoId, limit };
  }

  /** `from` (the addresses to spend from, default all of the user's) and `changeAddr`. */
  spendOptions(p: NamedParams): { from: Uint8Array[]; changeAddr?: Uint8Array } {
    const change = p.optionalString("changeAddr");
    return { from: this.addresses(p, "from"), ...(change === undefined ? {} : { changeAddr: this.addressOf(change, "changeAddr") }) };
  }
}

/** One page of UTXOs as a chain lists them (its own, or those waiting in the atomic memory). */
interface UtxoPageOf {
  readonly utxos: readonly unknown[];
  readonly bytes: readonly Uint8Array[];
  readonly lastAddress: Uint8Array;
  readonly lastUtxoId: Uint8Array;
}

/** What getUTXOs reads on a UTXO chain. */
export interface UtxoListingChain {
  readonly chainId: Uint8Array;
  getUtxos(addresses: Uint8Array[], options: { startAddress?: Uint8Array; startUtxoId?: Uint8Array; limit: number }): UtxoPageOf;
  getAtomicUtxos(sourceChain: Uint8Array, addresses: Uint8Array[], options: { startAddress?: Uint8Array; startUtxoId?: Uint8Array; limit: number }): UtxoPageOf;
  formatAddress(shortId: Uint8Array): string;
}

/** getUTXOs' answer, in the reference's shape: `numFetched`, `utxos`, `endIndex`, `sourceChain` when asked, `encoding`. */
export function utxoPageAnswer(chain: UtxoListingChain, request: UtxoPageRequest, encoding: NodeByteEncoding): Record<string, unknown> {
  const { addresses, sourceText, sourceChain, startAddress, startUtxoId, limit } = request;
  const options = { startAddress, startUtxoId, limit };
  const page = equalBytes(sourceChain, chain.chainId) ? chain.getUtxos(addresses, options) : chain.getAtomicUtxos(sourceChain, addresses, options);
  return {
    numFetched: String(page.utxos.length),
    utxos: page.bytes.map((b) => encodeNodeBytes(b, encoding)),
    endIndex: { address: chain.formatAddress(page.lastAddress), utxo: encodeCb58(page.lastUtxoId) },
    ...(sourceText === undefined ? {} : { sourceChain: sourceText }),
    encoding,
  };
}
