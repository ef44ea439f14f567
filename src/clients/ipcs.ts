/**
 * Client of the IPC API (`ipcs.*` at `/ext/ipcs`) and a reader of the sockets it opens: each
 * message on a socket is an 8-byte big-endian length followed by that many bytes (an accepted
 * block on `…-consensus`, an accepted transaction on `…-decisions`).
 *
 * ```ts
 * const { decisionsURL } = await ipcs.publishBlockchain("X");
 * for await (const tx of readIpcMessages(decisionsURL)) console.log(tx.length);
 * ```
 */
import * as net from "node:net";
import { PATHS } from "../network/paths";
import { checkTransport, Endpoint } from "./call";
import type { Transport } from "./transport";
import type { RequestOptions } from "./types";

export const IPCS_PATH = PATHS.ipcs;

export interface IpcsClientOptions {
  transport: Transport;
}

export interface PublishedSockets {
  /** Path of the Unix socket receiving accepted blocks. */
  readonly consensusURL: string;
  /** Path of the Unix socket receiving accepted transactions. */
  readonly decisionsURL: string;
}

export interface IpcsClient {
  readonly path: string;
  /** Starts publishing a chain (ID or alias); publishing twice answers the same sockets. */
  publishBlockchain(blockchainID: string, options?: RequestOptions): Promise<PublishedSockets>;
  /** Stops publishing a chain (nothing happens when it is not published). */
  unpublishBlockchain(blockchainID: string, options?: RequestOptions): Promise<void>;
  /** IDs of the chains published. */
  getPublishedBlockchains(options?: RequestOptions): Promise<string[]>;
}

export function createIpcsClient(options: IpcsClientOptions): IpcsClient {
  const ipcs = new Endpoint(checkTransport("createIpcsClient", options.transport), IPCS_PATH, "ipcs");
  return {
    path: ipcs.path,
    publishBlockchain: (id, o) =>
      ipcs.call(
        "publishBlockchain",
        (args) => ({ blockchainID: args.nonEmptyString(id, "blockchainID") }),
        (r) => ({ consensusURL: r.get("consensusURL").string(), decisionsURL: r.get("decisionsURL").string() }),
        o,
      ),
    unpublishBlockchain: (id, o) => ipcs.call("unpublishBlockchain", (args) => ({ blockchainID: args.nonEmptyString(id, "blockchainID") }), () => undefined, o),
    getPublishedBlockchains: (o) => ipcs.call("getPublishedBlockchains", () => ({}), (r) => r.get("chains").stringArray(), o),
  };
}

/** Largest message the reader accepts (a longer length prefix means a broken stream). */
export const MAX_IPC_MESSAGE_BYTES = 256 * 1024 * 1024;

/** Splits a byte stream into the messages framed in it. */
export class IpcFrameDecoder {
  private pending: Buffer = Buffer.alloc(0);

  /** The complete messages the stream holds once `chunk` is added. */
  push(chunk: Uint8Array): Uint8Array[] {
    this.pending = this.pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.pending, chunk]);
    const messages: Uint8Array[] = [];
    while (this.pending.length >= 8) {
      const length = this.pending.readBigUInt64BE(0);
      if (length > BigInt(MAX_IPC_MESSAGE_BYTES)) throw new RangeError(`IPC message of ${length} bytes exceeds ${MAX_IPC_MESSAGE_BYTES}: not a framed stream`);
      const end = 8 + Number(length);
      if (this.pending.length < end) break;
      messages.push(new Uint8Array(this.pending.subarray(8, end)));
      this.pending = this.pending.subarray(end);
    }
    return messages;
  }

  /** Bytes of an incomplete message held. */
  get buffered(): number {
    return this.pending.length;
  }
}

export interface IpcReadOptions {
  /** Stops reading (the iterator then ends). */
  signal?: AbortSignal;
}

/**
 * The messages arriving on the IPC socket at `socketPath`, in order, until the node closes the
 * socket, the signal aborts, or the loop stops (`break` closes the connection). Resolves its first
 * value only after connecting: connection errors reject the first `next()`.
 */
export async function* readIpcMessages(socketPath: string, options: IpcReadOptions = {}): AsyncIterableIterator<Uint8Array> {
  const socket = net.createConnection(socketPath);
  const decoder = new IpcFrameDecoder();
  const queue: Uint8Array[] = [];
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  socket.on("data", (chunk: Buffer) => {
    try {
      queue.push(...decoder.push(chunk));
    } catch (error) {
      failure = error as Error;
      socket.destroy();
    }
    notify();
  });
  socket.on("error", (error) => {
    failure = error;
    notify();
  });
  socket.on("close", () => {
    ended = true;
    notify();
  });
  const onAbort = () => socket.destroy();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      const message = queue.shift();
      if (message !== undefined) {
        yield message;
        continue;
      }
      if (failure !== undefined && !options.signal?.aborted) throw failure;
      if (ended || options.signal?.aborted) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    socket.destroy();
  }
}
