/** The contract chain's keystore-backed key methods: `exportKey` and `importKey` (0x addresses). */
import type { Endpoint } from "../call";
import { exportKey as exportUserKey, importKey as importUserKey } from "../chain-methods";
import type { Credentials, RequestOptions } from "../types";

export interface CvmExportKeyParameters {
  readonly credentials: Credentials;
  /** 0x address. */
  readonly address: string;
}

export interface CvmExportKeyResult {
  /** `PrivateKey-…`. */
  readonly privateKey: string;
  /** The same key as 0x hex. */
  readonly privateKeyHex: string;
}

export interface CvmImportKeyParameters {
  readonly credentials: Credentials;
  /** `PrivateKey-…`. */
  readonly privateKey: string;
}

export function exportKey(extras: Endpoint, parameters: CvmExportKeyParameters, options?: RequestOptions): Promise<CvmExportKeyResult> {
  return exportUserKey(
    extras,
    parameters,
    (r) => ({ privateKey: r.get("privateKey").string(), privateKeyHex: r.get("privateKeyHex").string() }),
    options,
  );
}

/** Adds a key to the user; returns its 0x address. */
export function importKey(extras: Endpoint, parameters: CvmImportKeyParameters, options?: RequestOptions): Promise<string> {
  return importUserKey(extras, parameters, options);
}
