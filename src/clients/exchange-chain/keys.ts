/** The exchange chain's keystore-backed key methods: `createAddress`, `listAddresses`, `exportKey`, `importKey`. */
import type { Endpoint } from "../call";
import { exportKey as exportUserKey, importKey as importUserKey } from "../chain-methods";
import type { Credentials, RequestOptions } from "../types";

export interface CreateAddressParameters {
  readonly credentials: Credentials;
}

export interface ListAddressesParameters {
  readonly credentials: Credentials;
}

export interface ExportKeyParameters {
  readonly credentials: Credentials;
  readonly address: string;
}

export interface ImportKeyParameters {
  readonly credentials: Credentials;
  /** `PrivateKey-…`. */
  readonly privateKey: string;
}

/** A new address controlled by the user. */
export function createAddress(chain: Endpoint, parameters: CreateAddressParameters, options?: RequestOptions): Promise<string> {
  return chain.call(
    "createAddress",
    (args) => args.credentials(args.object(parameters).credentials),
    (r) => r.get("address").string(),
    options,
  );
}

/** The user's addresses on this chain. */
export function listAddresses(chain: Endpoint, parameters: ListAddressesParameters, options?: RequestOptions): Promise<string[]> {
  return chain.call(
    "listAddresses",
    (args) => args.credentials(args.object(parameters).credentials),
    (r) => r.get("addresses").stringArray(),
    options,
  );
}

/** The private key (`PrivateKey-…`) of one of the user's addresses. */
export function exportKey(chain: Endpoint, parameters: ExportKeyParameters, options?: RequestOptions): Promise<string> {
  return exportUserKey(chain, parameters, (r) => r.get("privateKey").string(), options);
}

/** Adds a key to the user; returns its address. */
export function importKey(chain: Endpoint, parameters: ImportKeyParameters, options?: RequestOptions): Promise<string> {
  return importUserKey(chain, parameters, options);
}
