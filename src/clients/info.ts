/** Client of the info API (`info.*` at `/ext/info`, the same under both namings). */
import { Args, invoke, type Reader } from "./internal";
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
  const { transport } = options;
  if (typeof transport !== "object" || transport === null || typeof transport.call !== "function") {
    throw new TypeError("createInfoClient: transport must be a Transport (see createTransport)");
  }
  const path = INFO_PATH;
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
    path,
    getNetworkID: (o) => invoke(transport, path, "info.getNetworkID", {}, (r) => r.get("networkID").count(), o),
    getBlockchainID: (alias, o) =>
      Promise.resolve().then(() =>
        invoke(
          transport,
          path,
          "info.getBlockchainID",
          { alias: new Args("info.getBlockchainID").nonEmptyString(alias, "alias") },
          (r) => r.get("blockchainID").string(),
          o,
        ),
      ),
    getTxFee: (o) => invoke(transport, path, "info.getTxFee", {}, readFees, o),
    getNetworkName: (o) => invoke(transport, path, "info.getNetworkName", {}, (r) => r.get("networkName").string(), o),
    isBootstrapped: (chain, o) =>
      Promise.resolve().then(() =>
        invoke(
          transport,
          path,
          "info.isBootstrapped",
          { chain: new Args("info.isBootstrapped").nonEmptyString(chain, "chain") },
          (r) => r.get("isBootstrapped").boolean(),
          o,
        ),
      ),
  };
}
