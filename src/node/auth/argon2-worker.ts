/**
 * The password hasher's thread (a worker_threads Worker started by argon2-thread.ts): it runs
 * the argon2id hashes of the auth password, one at a time, so their 64 MiB and ~150 ms of a
 * core never hold up the node's main thread, which keeps answering every other request.
 *
 * Messages in: `{id, password, salt}`; out: `{id, hash}` or `{id, error}`.
 */
import { argon2id } from "hash-wasm";
import { parentPort } from "node:worker_threads";

import { ARGON2_PARAMETERS, type HashReply, type HashRequest } from "./argon2-protocol";

const port = parentPort;
if (port === null) throw new Error("argon2-worker runs as a worker thread, started by argon2-thread.ts");

port.on("message", (request: HashRequest) => {
  argon2id({ password: request.password, salt: request.salt, ...ARGON2_PARAMETERS, outputType: "binary" }).then(
    (hash) => port.postMessage({ id: request.id, hash } satisfies HashReply),
    (error: unknown) => port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies HashReply),
  );
});
