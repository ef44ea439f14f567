/**
 * The methods the exchange chain's API and the contract chain's extras share, parameter for
 * parameter: `issueTx`, `importKey`, and `exportKey` (whose results differ); and the reader of
 * the `{ txID, changeAddr }` result of their spending methods. @internal
 */
import { BYTE_ENCODINGS, type ByteEncoding } from "./bytes";
import type { Endpoint } from "./call";
import type { Reader } from "./internal";
import { compact } from "./json";
import type { Credentials, EncodedBytes, RequestOptions, TxIDChangeAddr } from "./types";

/** Reads the `{ txID, changeAddr }` result of a spending method. */
export function readTxIDChangeAddr(r: Reader): TxIDChangeAddr {
  return { txID: r.get("txID").string(), changeAddr: r.get("changeAddr").string() };
}

/** Sends a signed transaction (bytes are encoded here, hex by default); returns its txID. */
export function issueTx(
  endpoint: Endpoint,
  parameters: { readonly tx: EncodedBytes; readonly encoding?: ByteEncoding },
  options?: RequestOptions,
): Promise<string> {
  return endpoint.call(
    "issueTx",
    (args) => {
      args.object(parameters);
      const tx = args.bytes(parameters.tx, "tx", args.encoding(parameters.encoding, "encoding", BYTE_ENCODINGS));
      return compact({ tx: tx.text, encoding: tx.encoding });
    },
    (r) => r.get("txID").string(),
    options,
  );
}

/** Adds a `PrivateKey-…` to the user; returns the address it controls on this chain. */
export function importKey(
  endpoint: Endpoint,
  parameters: { readonly credentials: Credentials; readonly privateKey: string },
  options?: RequestOptions,
): Promise<string> {
  return endpoint.call(
    "importKey",
    (args) => ({
      ...args.credentials(args.object(parameters).credentials),
      privateKey: args.string(parameters.privateKey, "privateKey"),
    }),
    (r) => r.get("address").string(),
    options,
  );
}

/** The private key of one of the user's addresses, as `read` reads it. */
export function exportKey<T>(
  endpoint: Endpoint,
  parameters: { readonly credentials: Credentials; readonly address: string },
  read: (result: Reader) => T,
  options?: RequestOptions,
): Promise<T> {
  return endpoint.call(
    "exportKey",
    (args) => ({
      ...args.credentials(args.object(parameters).credentials),
      address: args.string(parameters.address, "address"),
    }),
    read,
    options,
  );
}
