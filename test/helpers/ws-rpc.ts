import WebSocket from "ws";

/** A JSON-RPC error as a WebSocket answer carries it. */
export interface WsRpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** A plain JSON-RPC client over one WebSocket: requests by id, and the notifications pushed to it. */
export interface WsRpcClient {
  /** Sends a request; resolves with its result, rejects with its error ({@link WsRpcError}). */
  request(method: string, params?: unknown[]): Promise<unknown>;
  /** The `result` of every notification received so far for `subscription`, in order. */
  notifications(subscription: string): unknown[];
  /** Resolves once `subscription` has had `count` notifications; fails after 5 s. */
  waitForNotifications(subscription: string, count: number): Promise<unknown[]>;
  close(): void;
}

interface Incoming {
  id?: number;
  result?: unknown;
  error?: WsRpcError;
  method?: string;
  params?: { subscription: string; result: unknown };
}

/** Opens a WebSocket to `url` (ws://host:port/path) and wraps it as a {@link WsRpcClient}. */
export async function connectWsRpc(url: string): Promise<WsRpcClient> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  let nextId = 1;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: WsRpcError) => void }>();
  const pushed: { subscription: string; result: unknown }[] = [];
  socket.on("message", (data) => {
    const message = JSON.parse(String(data)) as Incoming;
    if (message.method === "eth_subscription" && message.params !== undefined) {
      pushed.push(message.params);
      return;
    }
    const pending = message.id === undefined ? undefined : waiting.get(message.id);
    if (pending === undefined) return;
    waiting.delete(message.id!);
    if (message.error !== undefined) pending.reject(message.error);
    else pending.resolve(message.result);
  });
  const notifications = (subscription: string) => pushed.filter((n) => n.subscription === subscription).map((n) => n.result);
  return {
    request(method, params = []) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        socket.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
      });
    },
    notifications,
    async waitForNotifications(subscription, count) {
      for (let i = 0; i < 500 && notifications(subscription).length < count; i++) await new Promise((r) => setTimeout(r, 10));
      const got = notifications(subscription);
      if (got.length < count) throw new Error(`${got.length} notifications of ${subscription} arrived, expected ${count}`);
      return got;
    },
    close: () => socket.terminate(),
  };
}
