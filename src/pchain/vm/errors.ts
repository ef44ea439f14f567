/**
 * Errors of the platform chain.
 *
 * - {@link PTxRejectedError}: issueTx refused a transaction; `rule` names the rule broken,
 *   `nodeMessage` is the reference node's (or Camino's) text for it, the message adds what
 *   exactly was wrong.
 * - {@link PWalletError}: the keystore wallet cannot build the transaction asked for.
 * - {@link AliasNotFoundError}: no multisig alias at that address.
 */
export type PTxRule =
  | "malformed"
  | "too-large"
  | "already-accepted"
  | "wrong-network-id"
  | "wrong-chain-id"
  | "memo-too-large"
  | "not-native-asset"
  | "output-no-value"
  | "bad-owners"
  | "outputs-not-sorted"
  | "inputs-not-sorted-unique"
  | "signature-indices-not-sorted-unique"
  | "no-import-inputs"
  | "no-export-outputs"
  | "wrong-number-of-credentials"
  | "missing-utxo"
  | "missing-atomic-utxo"
  | "unknown-chain"
  | "asset-mismatch"
  | "amount-mismatch"
  | "timelocked"
  | "signers-mismatch"
  | "invalid-signature"
  | "threshold-not-met"
  | "too-many-signers"
  | "bad-alias"
  | "alias-not-found"
  | "alias-auth-failed"
  | "insufficient-funds"
  | "gas-capacity-exceeded"
  | "amount-overflow";

export class PTxRejectedError extends Error {
  override readonly name = "PTxRejectedError";
  constructor(
    readonly rule: PTxRule,
    readonly nodeMessage: string,
    detail?: string,
    /** Figures behind the refusal (the dynamic fee's gas and price, …), as decimal strings. */
    readonly figures?: Readonly<Record<string, string>>,
  ) {
    super(detail === undefined || detail === "" ? nodeMessage : `${nodeMessage}: ${detail}`);
  }
}

export type PWalletProblem = "no-keys" | "insufficient-funds" | "nothing-to-import" | "bad-alias";

export class PWalletError extends Error {
  override readonly name = "PWalletError";
  constructor(
    readonly problem: PWalletProblem,
    message: string,
  ) {
    super(message);
  }
}

export class AliasNotFoundError extends Error {
  override readonly name = "AliasNotFoundError";
  constructor(readonly address: string) {
    super(`not found: ${address} is not a multisig alias`);
  }
}
