/**
 * One TLS connection to another node, speaking the peer protocol (see `protocol.ts`): messages
 * in and out, the times of the last of each (for info.peers), and liveness: a ping every
 * second, and the link is closed when nothing came for `PEER_TIMEOUT_MS` (a peer stopped with
 * SIGSTOP, a cable pulled).
 */
import type { TLSSocket } from "node:tls";
import { decodeMessage, encodeMessage, type Hello, type PeerMessage } from "./protocol";

export const PING_INTERVAL_MS = 1000;
export const PEER_TIMEOUT_MS = 5000;

export class PeerLink {
  lastSent = new Date();
  lastReceived = new Date();
  readonly connectedAt = new Date();
  /** The peer's hello, once received. */
  hello: Hello | undefined;
  private buffer = "";
  private closed = false;
  private readonly closeListeners = new Set<(reason: string) => void>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly socket: TLSSocket,
    /** The node ID of the certificate the peer presented. */
    readonly nodeID: string,
    private readonly onMessage: (link: PeerLink, message: PeerMessage) => void,
  ) {
    socket.setEncoding("utf8");
    socket.setNoDelay(true);
    socket.on("data", (chunk: string) => this.receive(chunk));
    socket.on("error", (error) => this.close(`connection error: ${error.message}`));
    socket.on("close", () => this.close("connection closed"));
    this.timer = setInterval(() => {
      if (Date.now() - this.lastReceived.getTime() > PEER_TIMEOUT_MS) this.close(`nothing received for ${PEER_TIMEOUT_MS} ms`);
      else this.send({ type: "ping" });
    }, PING_INTERVAL_MS);
    this.timer.unref();
  }

  /** `host:port` of the remote end. */
  get remoteAddress(): string {
    return `${this.socket.remoteAddress ?? "?"}:${this.socket.remotePort ?? 0}`;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  send(message: PeerMessage): void {
    if (this.closed) return;
    this.socket.write(encodeMessage(message));
    this.lastSent = new Date();
  }

  onClose(listener: (reason: string) => void): void {
    this.closeListeners.add(listener);
  }

  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.socket.destroy();
    for (const listener of this.closeListeners) listener(reason);
  }

  private receive(chunk: string): void {
    this.lastReceived = new Date();
    this.buffer += chunk;
    let newline = this.buffer.indexOf("\n");
    while (newline >= 0 && !this.closed) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      if (line.length > 0) {
        let message: PeerMessage;
        try {
          message = decodeMessage(line);
        } catch (error) {
          this.close(error instanceof Error ? error.message : String(error));
          return;
        }
        if (message.type === "ping") this.send({ type: "pong" });
        else if (message.type !== "pong") this.onMessage(this, message);
      }
      newline = this.buffer.indexOf("\n");
    }
  }
}
