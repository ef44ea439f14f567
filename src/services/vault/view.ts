/**
 * The record the vault answers, with the reference's fields: bytes as 0x hex, an owner's
 * signature `""` until it signed, `transactionId` `""` while pending, times as Unix seconds.
 */
import type { VaultMultisigTx } from "../../clients/vault";
import type { StoredMultisigTx } from "./store";

/** The wire shape is the client's: one definition for both sides. */
export type MultisigTxView = VaultMultisigTx;

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
