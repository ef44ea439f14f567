/**
 * The vault's rules: who may create, list, sign, issue and cancel a pending multisig
 * transaction, decided from signatures recovered here and from the alias's owners and threshold
 * as the node answers them (`platform.getMultisigAlias`). It talks to the node only through the
 * platform chain's public API, so it works against a real node too.
 *
 * Beyond the reference: the threshold is checked before anything is sent to the node; a signed
 * list/cancel timestamp must be recent (no replay); an issue is recorded as "being issued"
 * before the node sees it, so a crash between the node's acceptance and the vault's write is
 * repaired at the next start (`repairInterruptedIssues`).
 *
 * Against hostile input: only a whole unsigned platform transaction is stored (`transaction.ts`),
 * an issue finds its record by the exact unsigned bytes of the signed transaction (a record of
 * one alias never stands for another's), and one record is issued by one request at a time: in
 * this process a second request for a record being issued is refused at once; across processes
 * the claim in the database decides, and a claim another process holds is left alone until it
 * is old enough to be a crash's ({@link ISSUE_CLAIM_STALE_SECONDS}).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { randomBytes } from "node:crypto";
import { NODE_TOKEN_ENV, NodeApiError, NodeHttpError, type PlatformChainClient } from "../../clients";
import { encodeCb58, parseChainAddress } from "../../encoding";
import { badRequest, VaultError, VaultErrorCode } from "./errors";
import type { VaultEvents, VaultEventType } from "./events";
import { parseHexField, recoverSigner, sha256Hex } from "./signatures";
import type { CreateRefusal, IssueClaim, StoredMultisigTx, VaultStore } from "./store";
import { parseSignedTx, parseUnsignedTx } from "./transaction";
import { type MultisigTxView, viewOf } from "./view";

/** Default life of a pending transaction: 14 days, the reference's. */
export const DEFAULT_EXPIRATION_SECONDS = 14 * 24 * 3600;
/** How far a signed list/cancel timestamp may be from the vault's clock, either way. */
export const DEFAULT_SIGNED_TIMESTAMP_WINDOW_SECONDS = 300;
/**
 * After how long a claim to issue that this process did not make is taken for a crash's and
 * settled with the node: well beyond the node client's 30-second timeout, so the process that
 * made it has either recorded the outcome or given up.
 */
export const ISSUE_CLAIM_STALE_SECONDS = 120;

export type PlatformApi = Pick<PlatformChainClient, "getMultisigAlias" | "issueTx" | "getTxStatus">;

export interface VaultOptions {
  store: VaultStore;
  platform: PlatformApi;
  events: VaultEvents;
  /** Unix seconds now (tests move it). */
  now?: () => number;
  timestampWindowSeconds?: number;
}

export interface CreateRequest {
  unsignedTx?: unknown;
  alias?: unknown;
  signature?: unknown;
  outputOwners?: unknown;
  metadata?: unknown;
  expiration?: unknown;
  parentTransaction?: unknown;
}

export class Vault {
  private readonly store: VaultStore;
  private readonly platform: PlatformApi;
  private readonly events: VaultEvents;
  private readonly now: () => number;
  readonly timestampWindowSeconds: number;
  /** Records this vault is issuing now (a second request for one of them is refused at once). */
  private readonly issuingNow = new Set<string>();
  /** Claims this vault left unfinished (the node did not answer): settled at the next issue. */
  private readonly leftUnfinished = new Set<string>();

  constructor(options: VaultOptions) {
    this.store = options.store;
    this.platform = options.platform;
    this.events = options.events;
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
    this.timestampWindowSeconds = options.timestampWindowSeconds ?? DEFAULT_SIGNED_TIMESTAMP_WINDOW_SECONDS;
  }

  /** POST /v1/multisig: the creator, an owner of the alias, stores the unsigned tx with its signature. */
  async create(request: CreateRequest): Promise<MultisigTxView> {
    const alias = parseAlias(request.alias);
    const { bytes: unsignedTx, chainId } = parseUnsignedTx(request.unsignedTx, alias.text);
    const outputOwners = parseHexField(request.outputOwners, "outputOwners");
    const metadata = optionalString(request.metadata, "metadata");
    const parentTransaction = optionalString(request.parentTransaction, "parentTransaction");
    const now = this.now();
    const expiresAt = request.expiration === undefined || request.expiration === null ? now + DEFAULT_EXPIRATION_SECONDS : parseExpiration(request.expiration);
    if (expiresAt <= now) throw badRequest(`expiration date has passed: ${expiresAt} is not after now (${now})`);
    const creator = recoverSigner(request.signature, unsignedTx, alias);
    const owners = await this.owners(alias.text);
    if (!owners.addresses.includes(creator)) throw notOwner(creator, alias.text);
    const stored = await this.store.create(
      {
        id: sha256Hex(unsignedTx),
        unsignedTx: hex(unsignedTx),
        alias: alias.text,
        chainId,
        threshold: owners.threshold,
        outputOwners: hex(outputOwners),
        metadata,
        parentTransaction,
        creator,
        expiresAt,
        createdAt: now,
        owners: owners.addresses,
        creatorSignature: hex(parseHexField(request.signature, "signature")),
      },
      now,
    );
    if ("refused" in stored) {
      throw new VaultError(VaultErrorCode.Conflict, createRefusalMessage(stored));
    }
    return this.publish("created", stored);
  }

  /** GET /v1/multisig/<alias>: the pending transactions, for an owner proving itself with a recent signed timestamp. */
  async listPending(aliasText: unknown, signature: unknown, timestamp: unknown): Promise<MultisigTxView[]> {
    const alias = await this.authenticateOwner(aliasText, signature, timestamp);
    return (await this.store.listPending(alias, this.now())).map(viewOf);
  }

  /**
   * The check of the list (and of the events stream): a signature over alias + timestamp by an
   * owner, the timestamp within the window. Answers the alias.
   */
  async authenticateOwner(aliasText: unknown, signature: unknown, timestamp: unknown): Promise<string> {
    const alias = parseAlias(aliasText);
    const stamp = this.checkTimestamp(timestamp);
    const signer = recoverSigner(signature, new TextEncoder().encode(alias.text + stamp), alias);
    const owners = await this.owners(alias.text);
    if (!owners.addresses.includes(signer)) throw notOwner(signer, alias.text);
    return alias.text;
  }

  /** PUT /v1/multisig/<id>: one more owner's signature over the unsigned tx. */
  async sign(id: string, signature: unknown): Promise<MultisigTxView> {
    const tx = await this.pending(id);
    const unsigned = Buffer.from(tx.unsignedTx, "hex");
    const signer = recoverSigner(signature, unsigned, parseAlias(tx.alias));
    const owner = tx.owners.find((o) => o.address === signer);
    if (owner === undefined) throw notOwner(signer, tx.alias);
    if (owner.signature !== undefined) throw new VaultError(VaultErrorCode.Conflict, `owner has already signed this alias transaction (${signer})`);
    const added = await this.store.addSignature(id, signer, hex(parseHexField(signature, "signature")), this.now());
    if (!added) {
      // Lost a race: tell which one (signed meanwhile by the same owner, or no longer pending).
      const now = await this.store.get(id);
      if (now?.owners.find((o) => o.address === signer)?.signature !== undefined) throw new VaultError(VaultErrorCode.Conflict, `owner has already signed this alias transaction (${signer})`);
      throw notFound(id);
    }
    return this.publish("signed", (await this.store.get(id))!);
  }

  /**
   * POST /v1/multisig/issue: an owner sends the complete signed tx; once enough owners signed in
   * the vault it goes to the node (`platform.issueTx`), and its ID is recorded on acceptance.
   */
  async issue(signedTxField: unknown, signature: unknown): Promise<{ txID: string }> {
    const { bytes: signedTx, unsigned } = parseSignedTx(signedTxField);
    const tx = await this.store.getPending(sha256Hex(unsigned), this.now());
    if (tx === undefined) throw new VaultError(VaultErrorCode.NotFound, "multisig transaction does not exist: no pending transaction is the unsigned part of this signedTx");
    const signer = recoverSigner(signature, signedTx, parseAlias(tx.alias));
    if (!tx.owners.some((o) => o.address === signer)) throw notOwner(signer, tx.alias);
    // Checked and marked with no await in between: one request of this process at a time per record.
    if (this.issuingNow.has(tx.id)) throw beingIssued();
    this.issuingNow.add(tx.id);
    try {
      return await this.issueOne(tx, signedTx);
    } finally {
      this.issuingNow.delete(tx.id);
    }
  }

  private async issueOne(pending: StoredMultisigTx, signedTx: Uint8Array): Promise<{ txID: string }> {
    let tx = pending;
    if (tx.issuing !== undefined) {
      // An earlier issue never finished: settle it with the node first, unless another process may still be at it.
      if (!this.mayRepair(tx.issuing)) throw beingIssued();
      await this.repair(tx);
      tx = (await this.store.get(tx.id))!;
      if (tx.transactionId !== undefined) return { txID: tx.transactionId };
    }
    const signed = tx.owners.filter((o) => o.signature !== undefined).length;
    if (signed < tx.threshold) {
      throw new VaultError(
        VaultErrorCode.Conflict,
        `${signed} of ${tx.threshold} signatures: the alias needs ${tx.threshold} of its ${tx.owners.length} owners to sign in the vault before issuing; nothing was sent to the node`,
      );
    }
    const txId = encodeCb58(sha256(signedTx));
    const claim = randomBytes(16).toString("hex");
    if (!(await this.store.beginIssue(tx.id, txId, hex(signedTx), claim, this.now()))) throw beingIssued();
    let accepted: string;
    try {
      // Bytes, not text: the client adds the checksum the node's hex encoding carries.
      accepted = await this.platform.issueTx({ tx: signedTx, encoding: "hex" });
    } catch (error) {
      if (error instanceof NodeApiError) {
        await this.store.abandonIssue(tx.id, claim);
        throw new VaultError(VaultErrorCode.NodeRefused, `the node refused the transaction: ${error.nodeMessage}`);
      }
      if (isAuthRefusal(error)) {
        // Refused before the node read it: pending again.
        await this.store.abandonIssue(tx.id, claim);
        throw nodeFailure("platform.issueTx", error);
      }
      // Unknown whether the node got it: left "being issued", settled by the next issue or start.
      this.leftUnfinished.add(claim);
      throw nodeFailure("platform.issueTx", error, "the node did not answer");
    }
    await this.recordIssued(tx.id, accepted);
    return { txID: accepted };
  }

  /** POST /v1/multisig/cancel: the creator withdraws a pending transaction, signing a recent timestamp. */
  async cancel(id: unknown, timestamp: unknown, signature: unknown): Promise<void> {
    if (typeof id !== "string" || id === "") throw badRequest("id is required: the pending transaction's id");
    const tx = await this.pending(id);
    const stamp = this.checkTimestamp(timestamp);
    const signer = recoverSigner(signature, new TextEncoder().encode(stamp), parseAlias(tx.alias));
    if (signer !== tx.creator) throw new VaultError(VaultErrorCode.Forbidden, `only the creator (${tx.creator}) may cancel this transaction; signed by ${signer}`);
    if (!(await this.store.cancel(id, this.now()))) throw new VaultError(VaultErrorCode.Conflict, "the transaction is being issued or is no longer pending");
    this.publish("cancelled", { ...tx, cancelledAt: this.now() });
  }

  /**
   * Settles every issue left unfinished by a crash: asks the node for the transaction's status,
   * records it issued when the node has it, pending again when not. Answers how many of each.
   */
  async repairInterruptedIssues(): Promise<{ issued: number; reopened: number }> {
    const counts = { issued: 0, reopened: 0 };
    for (const tx of await this.store.listIssuing()) {
      // A recent claim of another process is that process's to finish (or a later issue's to settle).
      if (!this.mayRepair(tx.issuing!)) continue;
      counts[(await this.repair(tx)) ? "issued" : "reopened"]++;
    }
    return counts;
  }

  /** Whether a claim to issue is known not to be in flight: left unfinished here, or old (a crash), or of unknown age. */
  private mayRepair(issuing: IssueClaim): boolean {
    return this.leftUnfinished.has(issuing.claim) || issuing.at === undefined || this.now() - issuing.at >= ISSUE_CLAIM_STALE_SECONDS;
  }

  private async repair(tx: StoredMultisigTx): Promise<boolean> {
    const issuing = tx.issuing!;
    let status: string;
    try {
      status = await this.platform.getTxStatus({ txID: issuing.txId });
    } catch (error) {
      throw nodeFailure("platform.getTxStatus", error);
    }
    this.leftUnfinished.delete(issuing.claim);
    if (status === "Committed" || status === "Processing") {
      await this.recordIssued(tx.id, issuing.txId);
      return true;
    }
    await this.store.abandonIssue(tx.id, issuing.claim);
    return false;
  }

  /** Records the node's acceptance and tells the followers, once: a second recording changes nothing. */
  private async recordIssued(id: string, txId: string): Promise<void> {
    if (await this.store.recordIssued(id, txId)) this.publish("issued", (await this.store.get(id))!);
  }

  private async pending(id: string): Promise<StoredMultisigTx> {
    const tx = await this.store.getPending(id, this.now());
    if (tx === undefined) throw notFound(id);
    return tx;
  }

  private checkTimestamp(timestamp: unknown): string {
    if (typeof timestamp !== "string" || !/^\d{1,15}$/.test(timestamp)) throw badRequest("timestamp is required: Unix seconds as a decimal string");
    const skew = Math.abs(Number(timestamp) - this.now());
    if (skew > this.timestampWindowSeconds) {
      throw new VaultError(VaultErrorCode.Unauthenticated, `timestamp ${timestamp} is ${skew} s away from the vault's clock; sign a fresh one (within ${this.timestampWindowSeconds} s)`);
    }
    return timestamp;
  }

  private async owners(alias: string): Promise<{ threshold: number; addresses: string[] }> {
    try {
      const info = await this.platform.getMultisigAlias({ address: alias });
      return { threshold: info.threshold, addresses: info.addresses };
    } catch (error) {
      if (error instanceof NodeApiError) throw new VaultError(VaultErrorCode.NotFound, `alias ${alias} is not a multisig alias on the node: ${error.nodeMessage}`);
      throw nodeFailure("platform.getMultisigAlias", error);
    }
  }

  private publish(type: VaultEventType, tx: StoredMultisigTx): MultisigTxView {
    const view = viewOf(tx);
    this.events.publish({ type, transaction: view });
    return view;
  }
}

function parseAlias(value: unknown): { text: string; hrp: string; chainAlias: string } {
  if (typeof value !== "string" || value === "") throw badRequest('alias is required: the multisig alias with its chain prefix, e.g. "P-local1…"');
  try {
    const parsed = parseChainAddress(value);
    return { text: value, hrp: parsed.hrp, chainAlias: parsed.chainAlias };
  } catch (error) {
    throw badRequest(`alias ${JSON.stringify(value)} is not a chain address: ${(error as Error).message}`);
  }
}

function optionalString(value: unknown, field: string): string {
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw badRequest(`${field} must be a string`);
  return value;
}

function parseExpiration(value: unknown): number {
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) throw badRequest("expiration must be a Unix timestamp in seconds (an integer)");
  return n;
}

function createRefusalMessage(refusal: CreateRefusal): string {
  switch (refusal.refused) {
    case "pending-exists":
      return `there is already a pending tx for this alias on this chain (id ${refusal.id})`;
    case "pending-elsewhere":
      return `this transaction is already pending in the vault for another alias (id ${refusal.id})`;
    case "already-issued":
      return `this transaction was already issued as ${refusal.transactionId}`;
  }
}

/** The node answered 401: it requires a token the vault did not send (or one it does not accept). */
function isAuthRefusal(error: unknown): error is NodeHttpError {
  return error instanceof NodeHttpError && error.status === 401;
}

/** A call to the node that got no usable answer (502), saying how to give the vault a token when that is why. */
function nodeFailure(method: string, error: unknown, unanswered = `the node did not answer ${method}`): VaultError {
  if (isAuthRefusal(error)) {
    return new VaultError(
      VaultErrorCode.NodeUnavailable,
      `the node refused the vault's call ${method}: it requires an auth token (give the vault one: --node-token or ${NODE_TOKEN_ENV}); ${error.message}`,
    );
  }
  return new VaultError(VaultErrorCode.NodeUnavailable, `${unanswered}: ${(error as Error).message}`);
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");
const notOwner = (address: string, alias: string) => new VaultError(VaultErrorCode.Forbidden, `address is not an owner for this alias: ${address} is not among the owners of ${alias}`);
const beingIssued = () => new VaultError(VaultErrorCode.Conflict, "this transaction is being issued by another request, or is no longer pending");
const notFound = (id: string) => new VaultError(VaultErrorCode.NotFound, `multisig transaction does not exist (or is no longer pending): ${id}`);
