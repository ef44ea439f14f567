/**
 * Decoding threads for the ingester: a page of exchange- or platform-chain containers is split
 * among them and decoded there (decode-worker.ts), so the ingest thread only fetches pages and
 * writes them. Why: decoding is CPU work (a signer recovered per signature, about 0.25 ms each,
 * plus hashing and encoding IDs); on the ingest thread it held up the SQL of the page being
 * stored, so the node's thread and the database took turns instead of working together.
 *
 * The threads start when a page first asks for them, and while they start (compiling the
 * sources under ts-node takes a second or two) pages are decoded on the ingest thread: a
 * small index or a test never waits for them. A thread that fails makes its page's decode
 * reject (the page is read again) and the next page start new threads; threads that cannot
 * load at all (no compiled entry, no ts-node) leave every page to the ingest thread. `close`
 * stops them.
 */
import os from "node:os";
import type { Worker } from "node:worker_threads";

import { startWorkerBeside } from "../../../threads/start-worker";
import type { ExplorerContext } from "../context";
import type { RawContainer, SelfContainedIndex } from "./decode-container";
import { learnSignerHints, type SignerHints, signerHintsOf } from "./outputs";
import type { DecodedContainer } from "./rows";

export interface DecodeRequest {
  id: number;
  name: SelfContainedIndex;
  context: ExplorerContext;
  containers: RawContainer[];
  /** What the pages decoded since this thread's last request teach (learned before decoding). */
  hints: SignerHints[];
}

export type DecodeReply = { id: number; containers: DecodedContainer[] } | { id: number; error: string } | { ready: true };

/**
 * Threads by default: one fewer than the cores (the ingest thread and the database want one),
 * at most four, but at least two: a page is split between them, so on two cores the signers
 * are recovered on both while the ingest thread waits on the database.
 */
export const DEFAULT_DECODE_THREADS = Math.min(4, Math.max(2, os.availableParallelism() - 1));

/** The worker (decode-worker.ts), compiled or from the sources. */
function startWorker(): Worker {
  return startWorkerBeside(__dirname, "decode-worker");
}

/** Pages' hints kept for a thread until its next request. */
const MAX_QUEUED_HINTS = 8;

interface Thread {
  worker: Worker;
  ready: boolean;
  pending: Map<number, { resolve(containers: DecodedContainer[]): void; reject(error: Error): void }>;
  /** Hints of pages decoded since this thread's last request. */
  hints: SignerHints[];
}

export class DecodeThreads {
  private threads: Thread[] = [];
  private nextId = 1;
  /** A thread failed before it was ready (it cannot load here): pages stay on the ingest thread. */
  private unavailable = false;

  constructor(private readonly size = DEFAULT_DECODE_THREADS) {}

  /**
   * The containers decoded on the threads, in order; undefined when the threads are not ready
   * yet (they are started, and the caller decodes this page itself).
   */
  decode(context: ExplorerContext, name: SelfContainedIndex, containers: readonly RawContainer[]): Promise<DecodedContainer[]> | undefined {
    if (this.size < 1 || this.unavailable) return undefined;
    if (this.threads.length === 0) {
      try {
        this.start();
      } catch {
        // No thread can be made here (no compiled entry and no ts-node): decode on the ingest thread.
        this.unavailable = true;
        return undefined;
      }
    }
    const ready = this.threads.filter((t) => t.ready);
    if (ready.length === 0) return undefined;
    const share = Math.ceil(containers.length / ready.length);
    const parts = ready.map((thread, i) => this.send(thread, context, name, containers.slice(i * share, (i + 1) * share)));
    return Promise.all(parts).then((decoded) => {
      const page = decoded.flat();
      // Each thread decoded a share: the owners and signers of the whole page go to every thread
      // with its next request (the next page spends this one's outputs), and to this thread.
      const hints = signerHintsOf(page.flatMap((c) => c.transactions));
      learnSignerHints(hints);
      for (const thread of this.threads) {
        // Only a shortcut: a thread left without pages keeps the latest few.
        if (thread.hints.push(hints) > MAX_QUEUED_HINTS) thread.hints.shift();
      }
      return page;
    });
  }

  /** Stops the threads (pages being decoded on them reject). */
  async close(): Promise<void> {
    const threads = this.threads;
    this.threads = [];
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }

  private start(): void {
    for (let i = 0; i < this.size; i++) {
      const thread: Thread = { worker: startWorker(), ready: false, pending: new Map(), hints: [] };
      // Only a thread with work keeps the process alive.
      thread.worker.unref();
      thread.worker.on("message", (reply: DecodeReply) => {
        if ("ready" in reply) {
          thread.ready = true;
          return;
        }
        const job = thread.pending.get(reply.id);
        if (job === undefined) return;
        thread.pending.delete(reply.id);
        if (thread.pending.size === 0) thread.worker.unref();
        if ("error" in reply) job.reject(new Error(`a decoding thread failed: ${reply.error}`));
        else job.resolve(reply.containers);
      });
      const fail = (error: Error) => {
        if (!thread.ready && this.threads.includes(thread)) this.unavailable = true;
        this.threads = this.threads.filter((t) => t !== thread);
        for (const job of thread.pending.values()) job.reject(error);
        thread.pending.clear();
      };
      thread.worker.on("error", fail);
      thread.worker.on("exit", (code) => fail(new Error(`a decoding thread stopped (exit code ${code})`)));
      this.threads.push(thread);
    }
  }

  private send(thread: Thread, context: ExplorerContext, name: SelfContainedIndex, containers: RawContainer[]): Promise<DecodedContainer[]> {
    if (containers.length === 0) return Promise.resolve([]);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      thread.worker.ref();
      const request: DecodeRequest = { id, name, context, containers: containers.map((c) => ({ index: c.index, id: c.id, bytes: c.bytes, timestamp: c.timestamp })), hints: thread.hints.splice(0) };
      thread.worker.postMessage(request);
    });
  }
}
