/**
 * Client of the multisig vault (`/v1/multisig`, `nativekit vault` or `nativekit node --vault`).
 * It sends what the caller signed; signing stays with the wallet: every signature is the
 * reference's, 65 bytes r ‖ s ‖ v over sha256 of the bytes named on each method.
 *
 * ```ts
 * const vault = createVaultClient({ url: "http://127.0.0.1:9650" });
 * const record = await vault.create({ alias, unsignedTx, signature, outputOwners });
 * await vault.sign(record.id, { signature: secondOwnersSignature });
 * const { txID } = await vault.issue({ signedTx, signature });
 * ```
 */
import type { FetchFunction } from "./transport";

export const VAULT_PATH = "/v1/multisig";

export interface VaultOwner {
  address: string;
  /** 0x hex, or `""` until this owner signed. */
  signature: string;
}

/** A multisig transaction as the vault answers it (the reference's fields). */
export interface VaultMultisigTx {
  id: string;
  unsignedTx: string;
  alias: string;
  threshold: number;
  chainId: string;
  /** `""` while pending. */
  transactionId: string;
  parentTransaction: string;
  outputOwners: string;
  metadata: string;
  expiration: number;
  owners: VaultOwner[];
  /** Creation time, Unix seconds as a string. */
  timestamp: string;
}

export interface VaultCreateParameters {
  alias: string;
  /** Hex of the unsigned tx bytes. */
  unsignedTx: string;
  /** Over sha256(unsigned tx bytes), by an owner of the alias. */
  signature: string;
  outputOwners: string;
  metadata?: string;
  /** Unix seconds; default 14 days from now. */
  expiration?: number;
  parentTransaction?: string;
}

export type VaultEventType = "created" | "signed" | "issued" | "cancelled";

export interface VaultClientOptions {
  /** Base URL of the vault (or of a node started with --vault), without a path. */
  url: string;
  fetch?: FetchFunction;
}

/** A refusal of the vault: its HTTP status and its `{error, message}` body. */
export class VaultRequestError extends Error {
  override readonly name = "VaultRequestError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`vault answered ${status} ${code}: ${message}`);
  }
}

export interface VaultClient {
  create(parameters: VaultCreateParameters): Promise<VaultMultisigTx>;
  /** Pending transactions of `alias`; `signature` over UTF-8 alias + timestamp (Unix seconds string, recent). */
  listPending(alias: string, auth: { signature: string; timestamp: string }): Promise<VaultMultisigTx[]>;
  /** One more owner's signature over sha256(unsigned tx bytes). */
  sign(id: string, parameters: { signature: string }): Promise<VaultMultisigTx>;
  /** Sends the complete signed tx to the node through the vault; `signature` over sha256(signed tx bytes). */
  issue(parameters: { signedTx: string; signature: string }): Promise<{ txID: string }>;
  /** The creator withdraws it; `signature` over UTF-8 timestamp. */
  cancel(parameters: { id: string; timestamp: string; signature: string }): Promise<void>;
  /**
   * Follows `alias`'s events (Server-Sent Events); `onEvent` gets each one. Resolves once the
   * stream is open; its `close()` ends it.
   */
  follow(alias: string, auth: { signature: string; timestamp: string }, onEvent: (type: VaultEventType, tx: VaultMultisigTx) => void): Promise<{ close(): void }>;
}

export function createVaultClient(options: VaultClientOptions): VaultClient {
  const base = `${options.url.replace(/\/+$/, "")}${VAULT_PATH}`;
  const fetchFn: FetchFunction = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const request = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetchFn(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    const parsed = parseJson(text);
    if (!response.ok) {
      const error = parsed as { error?: unknown; message?: unknown } | undefined;
      throw new VaultRequestError(response.status, typeof error?.error === "string" ? error.error : "unknown", typeof error?.message === "string" ? error.message : text);
    }
    return parsed as T;
  };
  const authQuery = (auth: { signature: string; timestamp: string }) => `?signature=${encodeURIComponent(auth.signature)}&timestamp=${encodeURIComponent(auth.timestamp)}`;

  return {
    create: (p) => request("POST", "", p),
    listPending: (alias, auth) => request("GET", `/${encodeURIComponent(alias)}${authQuery(auth)}`),
    sign: (id, p) => request("PUT", `/${encodeURIComponent(id)}`, p),
    issue: (p) => request("POST", "/issue", p),
    cancel: (p) => request("POST", "/cancel", p),
    follow: async (alias, auth, onEvent) => {
      const controller = new AbortController();
      const response = await fetchFn(`${base}/${encodeURIComponent(alias)}/events${authQuery(auth)}`, { signal: controller.signal });
      if (!response.ok || response.body === null) {
        const error = parseJson(await response.text()) as { error?: string; message?: string } | undefined;
        throw new VaultRequestError(response.status, error?.error ?? "unknown", error?.message ?? "no event stream");
      }
      void readEvents(response.body, onEvent).catch(() => undefined);
      return { close: () => controller.abort() };
    },
  };
}

/** Parses `event:`/`data:` blocks separated by blank lines; comment lines (`:`) are keep-alives. */
async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (type: VaultEventType, tx: VaultMultisigTx) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const type = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (type !== undefined && data !== undefined) onEvent(type as VaultEventType, JSON.parse(data) as VaultMultisigTx);
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
