/** Types shared by the exchange-chain and contract-chain clients. */
import type { ByteEncoding } from "./bytes";

/** A keystore user, who pays fees and owns the keys used. */
export interface Credentials {
  readonly username: string;
  readonly password: string;
}

/** Optional members of spending methods. */
export interface SpendOptions {
  /** Addresses to spend from; any of the user's addresses when omitted. */
  readonly from?: readonly string[];
  /** Address receiving the change; one of the user's addresses when omitted. */
  readonly changeAddr?: string;
}

/** A position in the UTXO set, for paging `getUTXOs`. */
export interface UTXOIndex {
  readonly address: string;
  readonly utxo: string;
}

/** Result of `getUTXOs` on either chain. */
export interface UTXOPage {
  /** Number of UTXOs in `utxos`. */
  readonly numFetched: number;
  /** The UTXOs' bytes in `encoding`. */
  readonly utxos: readonly string[];
  /** Pass as `startIndex` to get the next page. */
  readonly endIndex: UTXOIndex;
  /** The source chain, when the node echoes it. */
  readonly sourceChain?: string;
  readonly encoding: ByteEncoding;
}

/** The most UTXOs one `getUTXOs` call returns (and the default `limit`). */
export const MAX_UTXOS_PER_PAGE = 1024;

/** A transaction ID together with the address (or result) a method also returns. */
export interface TxIDChangeAddr {
  readonly txID: string;
  /** The address that received the change. */
  readonly changeAddr: string;
}

/** A value sent in one of the encodings, or raw bytes (encoded by the client). */
export type EncodedBytes = string | Uint8Array;

/** Options of a call that reads or waits. */
export interface RequestOptions {
  /** Overrides the transport's timeout for this call. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}
