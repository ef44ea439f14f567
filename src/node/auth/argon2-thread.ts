/**
 * The argon2id hashes of the auth password, run on a thread of their own (argon2-worker.ts),
 * one at a time, with a bounded queue.
 *
 * Why: each hash takes 64 MiB and about 150 ms of a core. On the main thread, one client
 * sending wrong passwords in a loop made every other request wait (issue 26, item 5). Here the
 * main thread only posts the password and awaits the answer, so `eth_blockNumber` or
 * `health.health` are answered as fast as without it.
 *
 * Bounds, per process (every node of a process shares the thread):
 * - one hash at a time: a second thread would take the core the node answers with on a small
 *   machine, and the reference node checks one password at a time too (it holds a lock);
 * - two lines: the checks of clients that sent a wrong password lately (`suspect`, see
 *   `throttle.ts`) wait behind every other check, so someone guessing in a loop never stands
 *   between another client and its token; a check waits for the running hash and the other
 *   checks of its line only;
 * - at most {@link MAX_WAITING_HASHES} checks waiting in each line: with ~150 ms each, an admitted
 *   check is answered within about 1.5 s; a client's check beyond that is refused at once
 *   ({@link AUTH_MESSAGES.busy}) instead of queueing without end. The node's own hashes (at start,
 *   of a new password) go first and are never refused.
 *
 * The thread is started when first needed, holds the process open only while it works, and
 * stops after {@link IDLE_STOP_MS} without work (its 64 MiB go with it). If it dies, the hashes
 * waiting on it fail with the reason and the next one starts a new thread.
 */
import type { Worker } from "node:worker_threads";

import { startWorkerBeside } from "../../threads/start-worker";

import type { HashReply, HashRequest } from "./argon2-protocol";
import { AUTH_MESSAGES, AuthError } from "./errors";

/** Client password checks that may wait in each line; more are refused at once. */
const MAX_WAITING_HASHES = 8;
/** How long the thread is kept without work before it is stopped. */
const IDLE_STOP_MS = 30_000;

interface Job {
  readonly request: HashRequest;
  resolve(hash: Uint8Array): void;
  reject(error: Error): void;
}

/** The worker (argon2-worker.ts), compiled or from the sources. */
function startWorker(): Worker {
  return startWorkerBeside(__dirname, "argon2-worker");
}

/** Who asks for a hash: the node itself, a client, or a client that sent a wrong password lately. */
export type HashPriority = "node" | "client" | "suspect";

export interface Argon2ThreadOptions {
  /** Client checks that may wait; default {@link MAX_WAITING_HASHES}. */
  maxWaiting?: number;
  /** Starts the worker (default: the compiled entry, else the TypeScript source). */
  startWorker?: () => Worker;
}

export class Argon2Thread {
  private worker: Worker | undefined;
  private running: Job | undefined;
  private readonly waiting: Record<HashPriority, Job[]> = { node: [], client: [], suspect: [] };
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly maxWaiting: number;
  private readonly start: () => Worker;

  constructor(options: Argon2ThreadOptions = {}) {
    this.maxWaiting = options.maxWaiting ?? MAX_WAITING_HASHES;
    this.start = options.startWorker ?? startWorker;
  }

  /** Hashes waiting behind the running one. */
  get queued(): number {
    return this.waiting.node.length + this.waiting.client.length + this.waiting.suspect.length;
  }

  /**
   * The argon2id hash of `password` with `salt`, after the hashes waiting before it (see the
   * lines above). A client's check is refused at once when {@link MAX_WAITING_HASHES} already wait
   * in its line.
   */
  hash(password: string, salt: Uint8Array, priority: HashPriority = "node"): Promise<Uint8Array> {
    const line = this.waiting[priority];
    if (priority !== "node" && this.running !== undefined && line.length >= this.maxWaiting) {
      return Promise.reject(new AuthError(AUTH_MESSAGES.busy));
    }
    return new Promise((resolve, reject) => {
      line.push({ request: { id: this.nextId++, password, salt }, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.running !== undefined) return;
    const job = this.waiting.node.shift() ?? this.waiting.client.shift() ?? this.waiting.suspect.shift();
    if (job === undefined) {
      this.worker?.unref();
      this.scheduleStop();
      return;
    }
    clearTimeout(this.idleTimer);
    this.running = job;
    let worker: Worker;
    try {
      worker = this.thread();
    } catch (error) {
      this.fail(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    worker.ref();
    worker.postMessage(job.request);
  }

  /** The thread, started if needed. */
  private thread(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = this.start();
    worker.on("message", (reply: HashReply) => {
      const job = this.running;
      if (job === undefined || job.request.id !== reply.id) return;
      this.running = undefined;
      if ("hash" in reply) job.resolve(new Uint8Array(reply.hash));
      else job.reject(new Error(`argon2id failed: ${reply.error}`));
      this.next();
    });
    worker.on("error", (error) => this.gone(worker, error));
    worker.on("exit", (code) => this.gone(worker, new Error(`the password hasher's thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  /** The thread ended: the running hash fails, the waiting ones go to a new thread. */
  private gone(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    if (this.running !== undefined) this.fail(error);
    else this.next();
  }

  private fail(error: Error): void {
    const job = this.running;
    this.running = undefined;
    job?.reject(error);
    this.next();
  }

  private scheduleStop(): void {
    clearTimeout(this.idleTimer);
    if (this.worker === undefined) return;
    const worker = this.worker;
    this.idleTimer = setTimeout(() => {
      if (this.worker === worker && this.running === undefined) {
        this.worker = undefined;
        void worker.terminate();
      }
    }, IDLE_STOP_MS);
    this.idleTimer.unref();
  }
}

/** The thread every node of this process hashes its auth password on. */
export const argon2Thread = new Argon2Thread();
