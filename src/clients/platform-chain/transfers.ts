/** The platform chain's transfers to and from the other chains: `exportAVAX` and `importAVAX`. */
import type { Endpoint } from "../call";
import { readTxIDChangeAddr } from "../chain-methods";
import { compact } from "../json";
import type { Credentials, RequestOptions, SpendOptions, TxIDChangeAddr } from "../types";

export type PlatformExportParameters = {
  credentials: Credentials;
  to: string;
  amount: bigint;
  targetChain?: string;
} & SpendOptions;

export type PlatformImportParameters = { credentials: Credentials; to: string; sourceChain: string } & SpendOptions;

export function exportAVAX(chain: Endpoint, parameters: PlatformExportParameters, options?: RequestOptions): Promise<TxIDChangeAddr> {
  return chain.call(
    "exportAVAX",
    (args) =>
      compact({
        ...args.credentials(args.object(parameters).credentials),
        to: args.string(parameters.to, "to"),
        amount: args.uint64(parameters.amount, "amount"),
        targetChain: parameters.targetChain,
        ...args.spend(parameters),
      }),
    readTxIDChangeAddr,
    options,
  );
}

export function importAVAX(chain: Endpoint, parameters: PlatformImportParameters, options?: RequestOptions): Promise<TxIDChangeAddr> {
  return chain.call(
    "importAVAX",
    (args) =>
      compact({
        ...args.credentials(args.object(parameters).credentials),
        to: args.string(parameters.to, "to"),
        sourceChain: args.string(parameters.sourceChain, "sourceChain"),
        ...args.spend(parameters),
      }),
    readTxIDChangeAddr,
    options,
  );
}
