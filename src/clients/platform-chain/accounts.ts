/**
 * The platform chain's accounts: an address set's balance and UTXOs, and the user's addresses
 * and keys (keystore-backed).
 */
import type { ByteEncoding } from "../bytes";
import type { Endpoint } from "../call";
import { exportKey as exportUserKey, importKey as importUserKey } from "../chain-methods";
import type { Credentials, RequestOptions, UTXOIndex, UTXOPage } from "../types";
import { getUTXOPage, iterateUTXOPagesOf } from "../utxos";

export interface PlatformBalance {
  balance: bigint;
  unlocked: bigint;
  lockedStakeable: bigint;
  lockedNotStakeable: bigint;
  utxoIDs: { txID: string; outputIndex: number }[];
}

export interface PlatformGetBalanceParameters {
  addresses: readonly string[];
}

export interface PlatformUTXOsParameters {
  readonly addresses: readonly string[];
  readonly limit?: number;
  readonly startIndex?: UTXOIndex;
  readonly sourceChain?: string;
  readonly encoding?: ByteEncoding;
}

export interface PlatformCredentialsParameters {
  credentials: Credentials;
}

export interface PlatformImportKeyParameters {
  credentials: Credentials;
  privateKey: string;
}

export interface PlatformExportKeyParameters {
  credentials: Credentials;
  address: string;
}

export function getBalance(chain: Endpoint, parameters: PlatformGetBalanceParameters, options?: RequestOptions): Promise<PlatformBalance> {
  return chain.call(
    "getBalance",
    (args) => ({ addresses: args.stringArray(args.object(parameters).addresses, "addresses", { nonEmpty: true }) }),
    (r) => ({
      balance: r.get("balance").uint64(),
      unlocked: r.get("unlocked").uint64(),
      lockedStakeable: r.get("lockedStakeable").uint64(),
      lockedNotStakeable: r.get("lockedNotStakeable").uint64(),
      utxoIDs: r.get("utxoIDs").array().map((u) => ({ txID: u.get("txID").string(), outputIndex: u.get("outputIndex").count() })),
    }),
    options,
  );
}

export function getUTXOs(chain: Endpoint, parameters: PlatformUTXOsParameters, options?: RequestOptions): Promise<UTXOPage> {
  return getUTXOPage(chain, parameters, false, options);
}

/** Every UTXO (its encoded bytes), page after page. */
export function iterateUTXOs(chain: Endpoint, parameters: PlatformUTXOsParameters, options?: RequestOptions): AsyncIterable<string> {
  return iterateUTXOPagesOf(chain, parameters, false, options);
}

export function createAddress(chain: Endpoint, parameters: PlatformCredentialsParameters, options?: RequestOptions): Promise<string> {
  return chain.call(
    "createAddress",
    (args) => args.credentials(args.object(parameters).credentials),
    (r) => r.get("address").string(),
    options,
  );
}

export function listAddresses(chain: Endpoint, parameters: PlatformCredentialsParameters, options?: RequestOptions): Promise<string[]> {
  return chain.call(
    "listAddresses",
    (args) => args.credentials(args.object(parameters).credentials),
    (r) => r.get("addresses").stringArray(),
    options,
  );
}

export function importKey(chain: Endpoint, parameters: PlatformImportKeyParameters, options?: RequestOptions): Promise<string> {
  return importUserKey(chain, parameters, options);
}

export function exportKey(chain: Endpoint, parameters: PlatformExportKeyParameters, options?: RequestOptions): Promise<string> {
  return exportUserKey(chain, parameters, (r) => r.get("privateKey").string(), options);
}
