/**
 * The vault's refusals: one JSON shape for every error, `{"error": code, "message": text}`
 * (the reference's two fields), with an HTTP status that says what kind of refusal it is.
 */
export const VaultErrorCode = {
  /** 400: a field is missing, of the wrong type, not hex, or not what it must be. */
  BadRequest: "bad_request",
  /** 401: a signature is missing or does not verify, or a signed timestamp is not recent. */
  Unauthenticated: "unauthenticated",
  /** 403: the signature is good but its signer may not do this (not an owner, not the creator). */
  Forbidden: "forbidden",
  /** 404: no such pending transaction (never created, expired, cancelled or issued), or no such alias. */
  NotFound: "not_found",
  /** 409: the state forbids it now (already signed, a pending one exists, threshold not reached, being issued). */
  Conflict: "conflict",
  /** 422: the node refused the transaction; its message is carried. */
  NodeRefused: "node_refused",
  /** 502: the node could not be reached or answered nonsense. */
  NodeUnavailable: "node_unavailable",
} as const;
export type VaultErrorCode = (typeof VaultErrorCode)[keyof typeof VaultErrorCode];

const STATUS: Record<VaultErrorCode, number> = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  node_refused: 422,
  node_unavailable: 502,
};

export class VaultError extends Error {
  override readonly name = "VaultError";
  readonly status: number;
  constructor(
    readonly code: VaultErrorCode,
    message: string,
  ) {
    super(message);
    this.status = STATUS[code];
  }

  /** The body answered: the same two fields for every error. */
  toJSON(): { error: VaultErrorCode; message: string } {
    return { error: this.code, message: this.message };
  }
}

export const badRequest = (message: string) => new VaultError(VaultErrorCode.BadRequest, message);
