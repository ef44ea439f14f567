import { type ErrorMapper, type RpcError, serverError } from "../../rpc";

export { malformedTx } from "../../utxo/api";
import { TxRejectedError, WalletError } from "../vm/errors";

/*
 * How the exchange chain's refusals reach a caller: -32000 with the chain's message and, as
 * data, which rule a transaction broke ({rule, nodeMessage}) or why the wallet could not build
 * it ({problem}). Parameter errors (-32602) are raised where parameters are read.
 */

/** A transaction issueTx refused, in the chain's words after `prefix`, with data {rule, nodeMessage}. */
export function txRejected(error: TxRejectedError, prefix = ""): RpcError {
  return serverError(`${prefix}${error.message}`, { rule: error.rule, nodeMessage: error.nodeMessage });
}

/**
 * The query methods: a transaction issueTx refuses, as the chain words it. (issueTx reports
 * bytes that do not decode itself, with `malformedTx`: a codec error anywhere else is a fault
 * of the node, not of the request.)
 */
export const queryErrors: ErrorMapper = (error) => (error instanceof TxRejectedError ? txRejected(error) : undefined);

/**
 * The wallet methods: what the wallet cannot build ({problem}), and a built transaction the
 * chain refuses, as the node words it: "problem issuing transaction: <the rule broken>".
 */
export const walletErrors: ErrorMapper = (error) => {
  if (error instanceof WalletError) return serverError(error.message, { problem: error.problem });
  if (error instanceof TxRejectedError) return txRejected(error, "problem issuing transaction: ");
  return undefined;
};
