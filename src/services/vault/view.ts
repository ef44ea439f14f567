/**
 * The record the vault answers, with the reference's fields: bytes as 0x hex, an owner's
 * signature `""` until it signed, `transactionId` `""` while pending, times as Unix seconds.
 */
import type { StoredMultisigTx } from "./store";

export interface MultisigTxView {
  id: string;
  unsignedTx: string;
  alias: string;
  threshold: number;
  chainId: string;
  transactionId: string;
  parentTransaction: string;
  outputOwners: string;
  metadata: string;
  /** Unix seconds after which the transaction is gone. */
  expiration: number;
  owners: { address: string; signature: string }[];
  /** Unix seconds of creation, as a string (the reference's type). */
  timestamp: string;
}

export function viewOf(tx: StoredMultisigTx): MultisigTxView {
  return {
    id: tx.id,
    unsignedTx: `0x${tx.unsignedTx}`,
    alias: tx.alias,
    threshold: tx.threshold,
    chainId: tx.chainId,
    transactionId: tx.transactionId ?? "",
    parentTransaction: tx.parentTransaction,
    outputOwners: `0x${tx.outputOwners}`,
    metadata: tx.metadata,
    expiration: tx.expiresAt,
    owners: tx.owners.map((o) => ({ address: o.address, signature: o.signature === undefined ? "" : `0x${o.signature}` })),
    timestamp: String(tx.createdAt),
  };
}
