/**
 * The call core every client is built on: an {@link Endpoint} is one API at one path of a node
 * (e.g. `xvm.*` at `/ext/bc/X`); it builds a call's parameters with {@link Args}, posts it through
 * the transport, reads the result with a {@link Reader} that reports in the call's context, and
 * polls a transaction's status until it is final. @internal — not part of the public API, except
 * {@link WaitOptions} and the wait defaults.
 */
import { type CallContext, TxRejectedError, TxWaitTimeoutError } from "./errors";
import { Args, Reader } from "./internal";
import type { JsonRpcParams } from "./json";
import type { Transport } from "./transport";
import type { RequestOptions } from "./types";

/** `transport`, checked to be a {@link Transport}; `creator` names the function that needs it. */
export function checkTransport(creator: string, transport: Transport): Transport {
  if (typeof transport !== "object" || transport === null || typeof transport.call !== "function") {
    throw new TypeError(`${creator}: transport must be a Transport (see createTransport)`);
  }
  return transport;
}

/**
 * Reads the reply of a method that answers nothing: `{ success: true }` on older nodes (and in
 * the seed), `{}` on newer ones; failures come as JSON-RPC errors.
 */
export function readEmptyReply(r: Reader): void {
  if (r.value !== null && r.maybe("success")?.boolean() === false) r.get("success").fail("true");
}

/** One API at one path: its methods are `<namespace>.<name>`, or `<name>` without a namespace. */
export class Endpoint {
  constructor(
    readonly transport: Transport,
    readonly path: string,
    readonly namespace?: string,
  ) {}

  /** The method as sent, e.g. `xvm.send`. */
  method(name: string): string {
    return this.namespace === undefined ? name : `${this.namespace}.${name}`;
  }

  /** Which call this is, for the errors it may raise. */
  context(name: string): CallContext {
    return { method: this.method(name), path: this.path, url: this.transport.url + this.path };
  }

  /**
   * Calls `name` with the parameters `build` makes and returns what `read` reads of the result.
   * Arguments are checked inside the promise, so a bad argument rejects like a node error.
   */
  call<T>(
    name: string,
    build: (args: Args) => JsonRpcParams,
    read: (result: Reader) => T,
    options?: RequestOptions,
  ): Promise<T> {
    const method = this.method(name);
    return Promise.resolve().then(async () => {
      const result = await this.transport.call(this.path, method, build(new Args(method)), options);
      return read(new Reader(this.context(name), result, "result"));
    });
  }

  /**
   * Polls `poll` (a call of this endpoint's `statusMethod`) until the transaction's status is
   * `accepted`; see {@link waitForStatus}.
   */
  async waitForStatus<S extends string, R extends { status: S }>(
    args: StatusWait<S, R> & { statusMethod: string },
  ): Promise<R> {
    const context = this.context(args.statusMethod);
    new Args(context.method).string(args.txID, "txID");
    return waitForStatus({ ...args, context });
  }
}

// ---------------------------------------------------------------- polling

export interface WaitOptions<S extends string> {
  /** Give up after this many milliseconds. Default 60 000. */
  timeoutMs?: number;
  /** Time between two polls, in milliseconds. Default 500. */
  intervalMs?: number;
  /** Called with the first status seen and with every change. */
  onStatus?: (status: S) => void;
  /** Stops waiting; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** What a wait is for: which transaction, how to poll it and which statuses end it. */
interface StatusWait<S extends string, R extends { status: S }> {
  /** The public method waiting, for the errors: `waitForTxStatus`. */
  waiter: string;
  txID: string;
  poll: () => Promise<R>;
  accepted: S;
  failed: readonly S[];
  options: WaitOptions<S> | undefined;
}

export const DEFAULT_WAIT_TIMEOUT_MS = 60_000;
export const DEFAULT_WAIT_INTERVAL_MS = 500;

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Polls `poll` until its status is `accepted` (returns that reply), one of `failed` (throws
 * {@link TxRejectedError}) or the time is up (throws {@link TxWaitTimeoutError} with the last
 * status). A last poll happens at the deadline.
 */
async function waitForStatus<S extends string, R extends { status: S }>(
  args: StatusWait<S, R> & { context: CallContext },
): Promise<R> {
  const options = args.options ?? {};
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const intervalMs = options.intervalMs ?? DEFAULT_WAIT_INTERVAL_MS;
  if (typeof timeoutMs !== "number" || !(timeoutMs >= 0) || !Number.isFinite(timeoutMs)) {
    throw new RangeError(`${args.waiter}: timeoutMs must be a non-negative number, got ${String(timeoutMs)}`);
  }
  if (typeof intervalMs !== "number" || !(intervalMs > 0) || !Number.isFinite(intervalMs)) {
    throw new RangeError(`${args.waiter}: intervalMs must be a positive number, got ${String(intervalMs)}`);
  }
  const context = { ...args.context, waiter: args.waiter };
  const deadline = Date.now() + timeoutMs;
  let last: S | undefined;
  for (;;) {
    if (options.signal?.aborted) throw options.signal.reason;
    const reply = await args.poll();
    if (reply.status !== last) {
      last = reply.status;
      options.onStatus?.(reply.status);
    }
    if (reply.status === args.accepted) return reply;
    if (args.failed.includes(reply.status)) throw new TxRejectedError(context, args.txID, reply.status);
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new TxWaitTimeoutError(context, args.txID, last, timeoutMs);
    await sleep(Math.min(intervalMs, remaining), options.signal);
  }
}
