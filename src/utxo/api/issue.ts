import { encodeCb58 } from "../../encoding";
import { type NamedParams, type RpcError, serverError } from "../../rpc";
import { CodecError } from "../codec";
import { decodeBytes, txEncodingParam } from "./params";

/** What issueTx hands a transaction to: the chain's `issue` (accepted here, or forwarded to a producer). */
export interface IssuingChain {
  issue(bytes: Uint8Array): Promise<Uint8Array>;
}

/** Bytes sent to issueTx that do not decode: -32000 with the codec's message and data {rule: "malformed"}. */
export function malformedTx(error: CodecError): RpcError {
  return serverError(error.message, { rule: "malformed" });
}

/**
 * Issues what a keystore user's wallet built, resolving once the chain has accepted it (and its
 * store holds it); the chain's refusal is left to the API's error mapping.
 */
export async function issueBuilt<Built extends { bytes: Uint8Array }>(chain: IssuingChain, built: Built): Promise<Built> {
  await chain.issue(built.bytes);
  return built;
}

/**
 * issueTx of a UTXO chain: `tx` (a signed transaction, in `encoding` or hex when it starts with
 * "0x") → txID once the chain accepted it. The chain's refusals are left to the API's error
 * mapping; bytes that do not decode are `malformedTx` (a codec error anywhere else is a fault
 * of the node, not of the request).
 */
export async function issueSignedTx(chain: IssuingChain, p: NamedParams): Promise<{ txID: string }> {
  const text = p.string("tx");
  const bytes = decodeBytes(text, txEncodingParam(p, text), "transaction");
  try {
    return { txID: encodeCb58(await chain.issue(bytes)) };
  } catch (error) {
    throw error instanceof CodecError ? malformedTx(error) : error;
  }
}
