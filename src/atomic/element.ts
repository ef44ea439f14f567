/**
 * What shared atomic memory holds: one element per UTXO waiting in a chain's inbox, and the
 * changes one transaction asks for. Its own module so that the memory and its records in the
 * store both depend on it, and not on each other.
 */
export interface AtomicElement {
  /** 32-byte input ID of the UTXO (sha256 of index ‖ txID, as the node derives it). */
  key: Uint8Array;
  /** The UTXO's bytes (codec version 0, UTXO layout). */
  value: Uint8Array;
  /** Short IDs (20 bytes) of the addresses that can spend it, for lookups by address. */
  traits: Uint8Array[];
}

export interface AtomicRequests {
  /** UTXOs to put into `peerChain`'s inbox from this chain. */
  put?: AtomicElement[];
  /** Keys to remove from this chain's inbox from `peerChain` (spent by an import). */
  remove?: Uint8Array[];
}
