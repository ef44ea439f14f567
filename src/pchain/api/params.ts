import { decodeCb58, EncodingError } from "../../encoding";
import { invalidParams, type NamedParams } from "../../rpc";
import type { PlatformChain } from "../vm/chain";

/** The platform chain's addresses and chains as its API calls name them; failures are -32602 naming the field. */
export class PlatformParams {
  constructor(private readonly chain: PlatformChain) {}

  /** A bare cb58 short ID, or an address of this chain ("P-local1…"). */
  addressOf(text: string, name: string): Uint8Array {
    try {
      const raw = decodeCb58(text);
      if (raw.length === 20) return raw;
    } catch (error) {
      if (!(error instanceof EncodingError)) throw error;
    }
    try {
      return this.chain.parseAddress(text);
    } catch (error) {
      if (error instanceof EncodingError || error instanceof RangeError) {
        throw invalidParams(`couldn't parse ${name} address ${JSON.stringify(text)}: ${error instanceof EncodingError ? error.detail : error.message}`);
      }
      throw error;
    }
  }

  address(p: NamedParams, name: string): Uint8Array {
    return this.addressOf(p.string(name), p.nameOf(name));
  }

  addresses(p: NamedParams, name: string): Uint8Array[] {
    return p.stringArray(name).map((text, i) => this.addressOf(text, p.nameOf(`${name}[${i}]`)));
  }

  chainOf(text: string, name: string): Uint8Array {
    try {
      return this.chain.lookupChain(text);
    } catch (error) {
      if (error instanceof RangeError) throw invalidParams(`problem parsing ${name} ${JSON.stringify(text)}: ${error.message}`);
      throw error;
    }
  }

  /** `from` and `changeAddr` of the spending methods. */
  spendOptions(p: NamedParams): { from: Uint8Array[]; changeAddr?: Uint8Array } {
    const change = p.optionalString("changeAddr");
    return { from: this.addresses(p, "from"), ...(change === undefined ? {} : { changeAddr: this.addressOf(change, "changeAddr") }) };
  }
}
