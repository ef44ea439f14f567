/**
 * The part of the `ws` package (WebSocket client and server for Node) this project uses, typed
 * here because `@types/ws` is not installed. Only what `ws-server.ts` (beside it) and the tests
 * call is declared.
 */
declare module "ws" {
  import type { IncomingMessage } from "node:http";
  import type { Duplex } from "node:stream";
  import { EventEmitter } from "node:events";

  class WebSocket extends EventEmitter {
    static readonly CONNECTING: 0;
    static readonly OPEN: 1;
    static readonly CLOSING: 2;
    static readonly CLOSED: 3;
    /** `generateMask` fills the 4-byte mask of each frame a client sends (tests use zeros, which ws then skips applying). */
    constructor(address: string, options?: { maxPayload?: number; headers?: Record<string, string>; generateMask?: (mask: Buffer) => void });
    readonly readyState: 0 | 1 | 2 | 3;
    /** Bytes queued to be sent and not yet handed to the operating system. */
    readonly bufferedAmount: number;
    send(data: string | Buffer, callback?: (error?: Error) => void): void;
    close(code?: number, reason?: string): void;
    terminate(): void;
    /** Stops reading from the socket (the peer's writes then back up). */
    pause(): void;
    resume(): void;
    on(event: "open", listener: () => void): this;
    on(event: "message", listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): this;
    on(event: "close", listener: (code: number, reason: Buffer) => void): this;
    on(event: "error", listener: (error: Error) => void): this;
    on(event: "unexpected-response", listener: (request: unknown, response: IncomingMessage) => void): this;
    once(event: "open", listener: () => void): this;
    once(event: "message", listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): this;
    once(event: "close", listener: (code: number, reason: Buffer) => void): this;
    once(event: "error", listener: (error: Error) => void): this;
    once(event: "unexpected-response", listener: (request: unknown, response: IncomingMessage) => void): this;
  }

  interface ServerOptions {
    noServer: true;
    /** Largest message accepted, in bytes; a larger one closes the connection with 1009. */
    maxPayload?: number;
    perMessageDeflate?: boolean;
  }

  class WebSocketServer extends EventEmitter {
    constructor(options: ServerOptions);
    readonly clients: Set<WebSocket>;
    handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, callback: (client: WebSocket, request: IncomingMessage) => void): void;
    close(callback?: (error?: Error) => void): void;
  }

  export { WebSocket, WebSocketServer };
  export default WebSocket;
}
