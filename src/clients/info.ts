/** Client of the info API (`info.*` at `/ext/info`, the same under both namings). */
import { checkTransport, Endpoint } from "./call";
import type { Reader } from "./internal";
import { INFO_PATH } from "./naming";
import type { Transport } from "./transport";
import type { RequestOptions } from "./types";

export interface InfoClientOptions {
  transport: Transport;
}

/** Fees of the exchange chain, in the native asset's smallest unit. */
export interface TxFees {
  /** Fee for creating an asset (`creationTxFee`; `createAssetTxFee` on recent reference nodes). */
  readonly creationTxFee: bigint;
  /** Fee for an ordinary transaction. */
  readonly txFee: bigint;
  /** Every uint64 field of the answer, by name (recent nodes list more fees). */
  readonly all: Readonly<Record<string, bigint>>;
}

export interface InfoClient {
  readonly path: string;
  getNetworkID(options?: RequestOptions): Promise<number>;
  /** Blockchain ID (cb58) of a chain alias such as `X` or `C`. */
  getBlockchainID(alias: string, options?: RequestOptions): Promise<string>;
  getTxFee(options?: RequestOptions): Promise<TxFees>;
  getNetworkName(options?: RequestOptions): Promise<string>;
  /** Whether the chain (ID or alias) has finished bootstrapping. */
  isBootstrapped(chain: string, options?: RequestOptions): Promise<boolean>;
}

export function createInfoClient(options: InfoClientOptions): InfoClient {
  const info = new Endpoint(checkTransport("createInfoClient", options.transport), INFO_PATH, "info");
  const readFees = (r: Reader): TxFees => {
    const all: Record<string, bigint> = {};
    for (const key of Object.keys(r.object())) {
      const member = r.get(key);
      const value = member.value;
      const isUint64 =
        (typeof value === "string" && /^[0-9]{1,20}$/.test(value)) ||
        (typeof value === "number" && Number.isSafeInteger(value) && value >= 0);
      if (isUint64) all[key] = member.uint64();
    }
    return {
      creationTxFee: r.first("creationTxFee", "createAssetTxFee").uint64(),
      txFee: r.get("txFee").uint64(),
      all,
    };
  };
  return {
    path: info.path,
    getNetworkID: (o) => info.call("getNetworkID", () => ({}), (r) => r.get("networkID").count(), o),
    getBlockchainID: (alias, o) =>
      info.call("getBlockchainID", (args) => ({ alias: args.nonEmptyString(alias, "alias") }), (r) => r.get("blockchainID").string(), o),
    getTxFee: (o) => info.call("getTxFee", () => ({}), readFees, o),
    getNetworkName: (o) => info.call("getNetworkName", () => ({}), (r) => r.get("networkName").string(), o),
    isBootstrapped: (chain, o) =>
      info.call("isBootstrapped", (args) => ({ chain: args.nonEmptyString(chain, "chain") }), (r) => r.get("isBootstrapped").boolean(), o),
  };
}
