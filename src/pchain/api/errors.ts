import { type ErrorMapper, type RpcError, serverError } from "../../rpc";
import { GenesisError } from "../genesis";
import { AliasNotFoundError, PTxRejectedError, PWalletError } from "../vm/errors";

/*
 * How the platform chain's refusals reach a caller: -32000 with the chain's message and, as
 * data, the rule a transaction broke ({rule, nodeMessage}) or why the wallet could not build
 * it ({problem}). Parameter errors (-32602) are raised where parameters are read.
 */

export function pTxRejected(error: PTxRejectedError, prefix = ""): RpcError {
  return serverError(`${prefix}${error.message}`, { rule: error.rule, nodeMessage: error.nodeMessage, ...(error.figures === undefined ? {} : { figures: error.figures }) });
}

export const platformQueryErrors: ErrorMapper = (error) => {
  if (error instanceof PTxRejectedError) return pTxRejected(error);
  if (error instanceof AliasNotFoundError) return serverError(error.message);
  return undefined;
};

export const platformWalletErrors: ErrorMapper = (error) => {
  if (error instanceof PWalletError) return serverError(error.message, { problem: error.problem });
  if (error instanceof PTxRejectedError) return pTxRejected(error, "problem issuing transaction: ");
  if (error instanceof AliasNotFoundError || error instanceof GenesisError) return serverError(error.message);
  return undefined;
};
