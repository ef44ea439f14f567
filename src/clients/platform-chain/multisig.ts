/** The platform chain's multisig aliases: reading one, and creating one. */
import type { Endpoint } from "../call";
import { compact } from "../json";
import type { Credentials, RequestOptions, SpendOptions } from "../types";

export interface MultisigAliasInfo {
  memo: string;
  locktime: bigint;
  threshold: number;
  addresses: string[];
}

export interface GetMultisigAliasParameters {
  address: string;
}

export type CreateMultisigAliasParameters = {
  credentials: Credentials;
  addresses: readonly string[];
  threshold: number;
  memo?: string;
  alias?: string;
} & SpendOptions;

export interface CreateMultisigAliasResult {
  txID: string;
  alias: string;
}

export function getMultisigAlias(
  chain: Endpoint,
  parameters: GetMultisigAliasParameters,
  options?: RequestOptions,
): Promise<MultisigAliasInfo> {
  return chain.call(
    "getMultisigAlias",
    (args) => ({ address: args.string(args.object(parameters).address, "address") }),
    (r) => ({
      memo: r.get("memo").string(),
      locktime: r.get("locktime").uint64(),
      threshold: Number(r.get("threshold").uint64()),
      addresses: r.get("addresses").stringArray(),
    }),
    options,
  );
}

export function createMultisigAlias(
  chain: Endpoint,
  parameters: CreateMultisigAliasParameters,
  options?: RequestOptions,
): Promise<CreateMultisigAliasResult> {
  return chain.call(
    "createMultisigAlias",
    (args) =>
      compact({
        ...args.credentials(args.object(parameters).credentials),
        addresses: args.stringArray(parameters.addresses, "addresses", { nonEmpty: true }),
        threshold: args.integer(parameters.threshold, "threshold", 1, 0xffff_ffff),
        memo: args.optionalString(parameters.memo, "memo"),
        alias: args.optionalString(parameters.alias, "alias"),
        ...args.spend(parameters),
      }),
    (r) => ({ txID: r.get("txID").string(), alias: r.get("alias").string() }),
    options,
  );
}
