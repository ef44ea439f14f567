import { decodeCb58, EncodingError } from "../../encoding";
import { invalidParams, type NamedParams } from "../../rpc";

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

  /** `from` (the addresses to spend from, default all of the user's) and `changeAddr`. */
  spendOptions(p: NamedParams): { from: Uint8Array[]; changeAddr?: Uint8Array } {
    const change = p.optionalString("changeAddr");
    return { from: this.addresses(p, "from"), ...(change === undefined ? {} : { changeAddr: this.addressOf(change, "changeAddr") }) };
  }
}
