/**
 * A request body read whole, up to a limit: the services' JSON APIs (the vault, the runner's
 * gateway) read small bodies and refuse a larger one while it arrives, with each service's own
 * error for it.
 */
import type * as http from "node:http";

export async function readBoundedBody(req: http.IncomingMessage, maxBytes: number, tooLarge: (message: string) => Error): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(`request body too large: the limit is ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
