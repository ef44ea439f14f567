/**
 * A decoding thread's entry (a worker_threads Worker started by decode-threads.ts): it decodes
 * the containers it is sent (decode-container.ts) and answers their rows. Everything it needs
 * comes with the request; what it keeps (outputs.ts: owners and signers seen, with the hints
 * of the pages other threads decoded) only spares it recovering signers.
 */
import { parentPort } from "node:worker_threads";
import { decodeSelfContained } from "./decode-container";
import { learnSignerHints } from "./outputs";
import type { DecodeReply, DecodeRequest } from "./decode-threads";

const port = parentPort;
if (port === null) throw new Error("decode-worker.ts runs as a worker thread only");

port.on("message", (request: DecodeRequest) => {
  let reply: DecodeReply;
  try {
    for (const hints of request.hints) learnSignerHints(hints);
    reply = { id: request.id, containers: request.containers.map((c) => decodeSelfContained(request.context, request.name, c)) };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
// Loaded (under ts-node: compiled): pages may come.
port.postMessage({ ready: true } satisfies DecodeReply);
