/** The exchange chain's balances: `getAllBalances` and `getBalance` of an address. */
import type { Endpoint } from "../call";
import { compact } from "../json";
import type { RequestOptions } from "../types";

export interface GetAllBalancesParameters {
  readonly address: string;
  /** Reference nodes only: also count UTXOs shared with other addresses. */
  readonly includePartial?: boolean;
}

/** One entry of `getAllBalances`. */
export interface AssetBalance {
  /** Asset ID or alias. */
  readonly asset: string;
  readonly balance: bigint;
}

export interface GetBalanceParameters {
  readonly address: string;
  readonly assetID: string;
  /** Reference nodes only: also count UTXOs shared with other addresses. */
  readonly includePartial?: boolean;
}

export interface UTXOID {
  readonly txID: string;
  readonly outputIndex: number;
}

export interface BalanceResult {
  readonly balance: bigint;
  /** The UTXOs making up the balance; empty when the node does not list them. */
  readonly utxoIDs: readonly UTXOID[];
}

export function getAllBalances(
  chain: Endpoint,
  parameters: GetAllBalancesParameters,
  options?: RequestOptions,
): Promise<AssetBalance[]> {
  return chain.call(
    "getAllBalances",
    (args) =>
      compact({
        address: args.string(args.object(parameters).address, "address"),
        includePartial: args.optionalBoolean(parameters.includePartial, "includePartial"),
      }),
    (r) =>
      r
        .get("balances")
        .array()
        .map((entry) => ({ asset: entry.first("asset", "assetID").string(), balance: entry.get("balance").uint64() })),
    options,
  );
}

export function getBalance(chain: Endpoint, parameters: GetBalanceParameters, options?: RequestOptions): Promise<BalanceResult> {
  return chain.call(
    "getBalance",
    (args) =>
      compact({
        address: args.string(args.object(parameters).address, "address"),
        assetID: args.string(parameters.assetID, "assetID"),
        includePartial: args.optionalBoolean(parameters.includePartial, "includePartial"),
      }),
    (r) => ({
      balance: r.get("balance").uint64(),
      utxoIDs: (r.maybe("utxoIDs")?.array() ?? []).map((u) => ({
        txID: u.get("txID").string(),
        outputIndex: u.get("outputIndex").count(),
      })),
    }),
    options,
  );
}
