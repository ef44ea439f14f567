import * as fs from "node:fs";
import * as net from "node:net";

/**
 * One IPC socket of the node: a Unix domain socket server at a path that sends every message to
 * every connected reader, framed as the reference node frames it (avalanchego `ipcs/socket`):
 * an 8-byte big-endian unsigned length, then exactly that many bytes.
 *
 * A stale socket file at the path is removed before listening. Readers never hold up the node:
 * writes are not awaited, and a reader whose unsent output (what the node still holds for it once
 * the kernel's socket buffer is full) exceeds `maxBufferedBytes` (default 16 MiB) when the next
 * message comes is dropped, as is one whose connection fails. A reader thus costs the node at most
 * the bound plus one message. Closing ends every connection and removes
 * the socket file.
 */
export const DEFAULT_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

export interface FramedSocketOptions {
  /** Largest output a reader may leave unsent before it is dropped. Default 16 MiB. */
  maxBufferedBytes?: number;
  /** Told when a reader is dropped. */
  onDrop?: (reason: string) => void;
}

export class FramedSocketServer {
  private readonly readers = new Set<net.Socket>();
  private closed: Promise<void> | undefined;

  private constructor(
    readonly path: string,
    private readonly server: net.Server,
    private readonly options: FramedSocketOptions,
  ) {
    server.on("connection", (socket) => {
      if (this.closed !== undefined) {
        socket.destroy();
        return;
      }
      this.readers.add(socket);
      socket.on("error", () => this.drop(socket, "connection failed"));
      socket.on("close", () => this.readers.delete(socket));
      // Readers send nothing; whatever they send is discarded.
      socket.resume();
    });
  }

  /** Listens at `path` (removing a stale socket file there first). */
  static async listen(path: string, options: FramedSocketOptions = {}): Promise<FramedSocketServer> {
    removeStaleSocket(path);
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(path, () => {
        server.off("error", reject);
        resolve();
      });
    });
    return new FramedSocketServer(path, server, options);
  }

  /** Number of connected readers. */
  get readerCount(): number {
    return this.readers.size;
  }

  /** Sends one message to every reader. */
  send(message: Uint8Array): void {
    if (this.closed !== undefined || this.readers.size === 0) return;
    const frame = Buffer.allocUnsafe(8 + message.length);
    frame.writeBigUInt64BE(BigInt(message.length), 0);
    frame.set(message, 8);
    const limit = this.options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    for (const reader of this.readers) {
      if (reader.destroyed) continue;
      // Output this reader left unread (beyond what the kernel holds) past the bound: drop it.
      if (reader.writableLength > limit) {
        this.drop(reader, `more than ${limit} bytes unread`);
        continue;
      }
      reader.write(frame);
    }
  }

  /** Ends every connection, stops listening and removes the socket file. */
  close(): Promise<void> {
    this.closed ??= new Promise<void>((resolve) => {
      for (const reader of this.readers) reader.destroy();
      this.readers.clear();
      this.server.close(() => {
        removeStaleSocket(this.path);
        resolve();
      });
    });
    return this.closed;
  }

  private drop(reader: net.Socket, reason: string): void {
    if (!this.readers.delete(reader)) return;
    reader.destroy();
    this.options.onDrop?.(`${this.path}: reader dropped (${reason})`);
  }
}

/** Removes a socket file left by a process that did not close it; anything else there is an error. */
function removeStaleSocket(path: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(path);
  } catch {
    return;
  }
  if (!stat.isSocket()) throw new Error(`${path} exists and is not a socket; not replacing it`);
  fs.unlinkSync(path);
}
