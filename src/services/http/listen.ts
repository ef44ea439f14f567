/**
 * A service on an HTTP server of its own (`nativekit vault`, `nativekit explorer`): listening on
 * a host and port (0 for a free one), and closing both the server and the service, once, however
 * often close is called. A service's own port failing to open closes the service it was given.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface ListeningService {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function listenForService(
  handle: http.RequestListener,
  options: { host?: string; port?: number },
  closeService: () => Promise<void>,
): Promise<ListeningService> {
  const server = http.createServer(handle);
  const host = options.host ?? "127.0.0.1";
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, host, () => resolve());
    });
  } catch (error) {
    await closeService();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    close: () => {
      closed ??= (async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await closeService();
      })();
      return closed;
    },
  };
}
