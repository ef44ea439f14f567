import {
  EncodingError,
  type NodeByteEncoding,
  NODE_BYTE_ENCODINGS,
  SHORT_ID_LENGTH,
  decodeCb58,
  decodeNodeBytes,
  encodeCb58,
  equalBytes,
  parseChainAddress,
} from "../../encoding";
import { type Keystore, KeystoreError, type KeystoreUser } from "../../keystore/keystore";
import { ChainDirectory } from "../../network/chains";
import type { NetworkIdentifiers } from "../../network/constants";
import { type NamedParams, describeValue, invalidParams, parseUint, serverError } from "../../rpc";

/*
 * The parameters of the contract chain's cross-chain API, read on top of `NamedParams`, in the
 * words of the reference node's coreth service (which differ from the exchange and platform
 * chains' in src/utxo/api): -32602 naming the field for what cannot be read, -32000 for a
 * keystore refusal.
 */

export const ZERO_ID = new Uint8Array(32);
export const EVM_ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/** `decode()`, whose EncodingError is -32602 "<name>: <problem>". */
export function decoded<T>(name: string, decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof EncodingError) throw invalidParams(`${name}: ${error.message}`);
    throw error;
  }
}

/** A contract-chain address: "0x" and 40 hex digits. */
export function evmAddressParam(p: NamedParams, name: string): Uint8Array {
  const value = p.raw(name);
  if (typeof value !== "string" || !EVM_ADDRESS_PATTERN.test(value)) {
    throw invalidParams(`${p.nameOf(name)} must be a contract-chain address (0x followed by 40 hex digits), got ${describeValue(value)}`);
  }
  return new Uint8Array(Buffer.from(value.slice(2), "hex"));
}

/** A 32-byte ID in cb58. */
export function idParam(p: NamedParams, name: string): Uint8Array {
  const text = p.string(name, `missing parameter ${p.nameOf(name)} (a cb58 ID)`);
  const bytes = decoded(p.nameOf(name), () => decodeCb58(text));
  if (bytes.length !== 32) throw invalidParams(`${p.nameOf(name)} must be a 32-byte ID in cb58, got ${bytes.length} bytes`);
  return bytes;
}

/** A transaction ID other than the empty one. */
export function txIdParam(p: NamedParams): Uint8Array {
  const id = idParam(p, "txID");
  if (equalBytes(id, ZERO_ID)) throw invalidParams("nil transaction ID");
  return id;
}

/** A base fee in wei: "0x..." (the node's form), a decimal string or a JSON number. */
export function baseFeeParam(p: NamedParams): bigint | undefined {
  if (!p.given("baseFee")) return undefined;
  const value = p.raw("baseFee");
  if (typeof value === "string" && /^0x[0-9a-fA-F]+$/.test(value)) return BigInt(value);
  return parseUint(value, p.nameOf("baseFee"), 256);
}

/**
 * The `encoding` parameter, case-insensitive; cb58 when not named. With `txText` (issueTx),
 * an unnamed encoding is hex when the text starts with "0x": the reference node defaults to
 * hex since avalanchego v1.7.14 (coreth's avax.issueTx decodes api.FormattedTx, whose zero
 * Encoding is Hex) and current SDKs (avalanchejs `issueSignedTx`) send "0x…" without naming
 * the encoding; no cb58 text starts with "0x" ("0" is not a base58 digit).
 */
export function encodingParam(p: NamedParams, txText?: string): NodeByteEncoding {
  return p.choice("encoding", NODE_BYTE_ENCODINGS, txText?.startsWith("0x") === true ? "hex" : "cb58");
}

/** The signed transaction issueTx is given, in its encoding. */
export function txBytesParam(p: NamedParams): Uint8Array {
  const text = p.string("tx");
  const encoding = encodingParam(p, text);
  try {
    return decodeNodeBytes(text, encoding);
  } catch (error) {
    // cb58's own message names the text; the hex forms' problem is told alone.
    if (error instanceof EncodingError) throw invalidParams(`problem decoding transaction: ${encoding === "cb58" ? error.message : error.detail}`);
    throw error;
  }
}

/**
 * The keystore user a call names (`username`, `password`); a keystore refusal is -32000 with
 * the method's own prefix: "problem retrieving user 'bob': user not found: bob".
 */
export async function authenticate(keystore: Keystore, p: NamedParams, prefix: (username: string) => string): Promise<KeystoreUser> {
  const username = p.string("username");
  if (!p.has("password")) throw invalidParams("missing parameter password");
  const password = p.stringOr("password", "");
  try {
    return await keystore.authenticate(username, password);
  } catch (error) {
    if (error instanceof KeystoreError) throw serverError(`${prefix(username)}: ${error.message}`);
    throw error;
  }
}

/** Chains and addresses named in parameters, resolved on one network. */
export class ContractChainParams {
  private readonly chains: ChainDirectory;

  constructor(
    private readonly network: NetworkIdentifiers,
    /** This (contract) chain's ID. */
    private readonly cChainId: Uint8Array,
  ) {
    this.chains = new ChainDirectory(network);
  }

  /** A chain by alias ("X", "C", "P", "avm", "evm", "platform", ...) or cb58 ID. */
  lookup(text: string): Uint8Array | undefined {
    return this.chains.lookup(text)?.bytes;
  }

  /** A required chain parameter (sourceChain). */
  chain(p: NamedParams, name: string): Uint8Array {
    const source = name === "sourceChain";
    const text = p.string(name, source ? "no source chain provided" : undefined);
    const chain = this.lookup(text);
    if (chain === undefined) {
      throw invalidParams(`problem parsing ${source ? "source " : ""}chainID ${JSON.stringify(text)}: there is no chain with alias or ID ${JSON.stringify(text)} (use "X", "P" or a chain ID)`);
    }
    return chain;
  }

  /** An export's `to`: "X-local1…" (or a cb58 short ID with `targetChain`) → destination chain and short ID, as the node parses it. */
  exportDestination(p: NamedParams): { chain: Uint8Array; shortId: Uint8Array } {
    const to = p.string("to");
    if (to.includes("-")) {
      const parsed = decoded("to", () => parseChainAddress(to));
      const chain = this.lookup(parsed.chainAlias);
      if (chain === undefined) throw invalidParams(`to: there is no chain with alias ${JSON.stringify(parsed.chainAlias)} (expected e.g. "X-${this.network.hrp}1...")`);
      if (parsed.hrp !== this.network.hrp) throw invalidParams(`to: expected hrp ${JSON.stringify(this.network.hrp)} but got ${JSON.stringify(parsed.hrp)}`);
      return { chain, shortId: parsed.shortId };
    }
    const targetChain = p.optionalString("targetChain");
    if (targetChain === undefined) {
      throw invalidParams(`to must be an exchange-chain address such as "X-${this.network.hrp}1...", got ${describeValue(to)}`);
    }
    const chain = this.lookup(targetChain);
    if (chain === undefined) throw invalidParams(`problem parsing chainID ${JSON.stringify(targetChain)}: there is no chain with alias or ID ${JSON.stringify(targetChain)}`);
    const shortId = decoded("to", () => decodeCb58(to));
    if (shortId.length !== SHORT_ID_LENGTH) throw invalidParams(`to must name a ${SHORT_ID_LENGTH}-byte address, got ${shortId.length} bytes`);
    return { chain, shortId };
  }

  /** A getUTXOs address: "C-local1…" or a cb58 short ID. */
  serviceAddress(text: string): Uint8Array {
    try {
      const raw = decodeCb58(text);
      if (raw.length === SHORT_ID_LENGTH) return raw;
    } catch {
      // not a bare short ID: a chain address then
    }
    const problem = (detail: string) => invalidParams(`couldn't parse address ${JSON.stringify(text)}: ${detail}`);
    let parsed;
    try {
      parsed = parseChainAddress(text);
    } catch (error) {
      if (error instanceof EncodingError) throw problem(error.message);
      throw error;
    }
    const chain = this.lookup(parsed.chainAlias);
    if (chain === undefined) throw problem(`there is no chain with alias ${JSON.stringify(parsed.chainAlias)}`);
    if (parsed.hrp !== this.network.hrp) throw problem(`expected hrp ${JSON.stringify(this.network.hrp)} but got ${JSON.stringify(parsed.hrp)}`);
    if (!equalBytes(chain, this.cChainId)) {
      throw problem(
        `expected chainID to be ${JSON.stringify(this.network.cChainId)} but was ${JSON.stringify(encodeCb58(chain))} (atomic UTXOs waiting on this chain are listed by their C- address)`,
      );
    }
    return parsed.shortId;
  }
}
