/**
 * Wrong passwords, throttled per client (issue 26, item 5): each check of the auth password
 * costs an argon2id hash (64 MiB, ~150 ms of a core), so a client guessing in a loop would both
 * guess fast and take the hasher from everyone else. A client is its network address as the
 * HTTP server sees it (`../client-address.ts`): an IPv4 address, or an IPv6 address's /64
 * network (one machine commonly holds a whole /64, and could otherwise change address at each
 * guess); calls made in process share one key.
 *
 * The rule, per client:
 * - {@link FREE_WRONG_PASSWORDS} wrong passwords in a row are answered as usual ("incorrect
 *   password"): a person who mistypes a few times never waits;
 * - from then on, each wrong password makes the client wait before its next check: 1 s after
 *   the 5th, then 2 s, 4 s, ... doubling up to {@link MAX_WAIT_MS} (5 minutes): a guesser gets
 *   about a dozen guesses in the first quarter of an hour, then one each 5 minutes;
 * - a check asked for while the client must wait is refused at once, without hashing, saying
 *   how long is left ({@link AUTH_MESSAGES.throttled}); it does not lengthen the wait;
 * - checks running at once count as wrong until answered, so sending many at once gains
 *   nothing: a client may have at most {@link MAX_CHECKS_IN_FLIGHT} checks in flight, fewer when
 *   it has fewer wrong passwords left, and one at a time once it has used them; beyond that a
 *   check is refused at once ({@link AUTH_MESSAGES.checksInFlight}). This also keeps one client
 *   from filling the hasher's queue: another client's check waits behind two of its at most;
 * - a right password clears the client's record; other clients are never affected;
 * - a record is forgotten {@link FORGET_AFTER_MS} (1 hour) after its last wrong password, and at
 *   most {@link MAX_TRACKED_CLIENTS} clients are tracked (the longest-quiet is dropped first),
 *   so the table cannot grow without end.
 */
import { AUTH_MESSAGES, AuthError } from "./errors";

/** Wrong passwords in a row a client may send before it has to wait. */
const FREE_WRONG_PASSWORDS = 5;
/**
 * Password checks one client may have running or waiting at once: two lets a program ask for
 * two tokens together, and keeps a guesser's checks from taking the hasher's queue.
 */
const MAX_CHECKS_IN_FLIGHT = 2;
/** The wait after the first wrong password beyond the free ones; it doubles with each next one. */
const FIRST_WAIT_MS = 1_000;
/** The longest wait. */
const MAX_WAIT_MS = 5 * 60_000;
/** A client's record is dropped this long after its last wrong password. */
const FORGET_AFTER_MS = 60 * 60_000;
/** Most clients tracked at once. */
const MAX_TRACKED_CLIENTS = 10_000;

/** The key of calls made without a network address (in process). */
const IN_PROCESS_CLIENT = "a caller without a network address";

interface ClientRecord {
  /** Wrong passwords in a row. */
  failures: number;
  /** Checks admitted and not answered yet. */
  inFlight: number;
  /** No check before this time (ms). */
  blockedUntil: number;
  /** When the last wrong password was answered (ms). */
  lastFailure: number;
}

export interface PasswordThrottleOptions {
  /** The time in milliseconds (monotonic); injectable for tests. */
  now?: () => number;
}

export class PasswordThrottle {
  private readonly clients = new Map<string, ClientRecord>();
  private readonly now: () => number;

  constructor(options: PasswordThrottleOptions = {}) {
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * Runs `check` (whether the password is right) for `client`, unless the client must wait or
   * has too many checks running: then throws the refusal at once, without running it. `check`
   * is told whether the client is suspect (it sent a wrong password lately), for the hasher to
   * put it behind the others. A wrong password is counted; a right one clears the client's
   * record; a check that failed to run (the hasher busy) counts for nothing.
   */
  async check(client: string | undefined, check: (suspect: boolean) => Promise<boolean>): Promise<boolean> {
    const key = client === undefined ? IN_PROCESS_CLIENT : clientKey(client);
    const record = this.admit(key);
    let right: boolean;
    try {
      right = await check(record.failures > 0);
    } catch (error) {
      record.inFlight -= 1;
      this.dropIfClean(key, record);
      throw error;
    }
    record.inFlight -= 1;
    if (right) {
      record.failures = 0;
      record.blockedUntil = 0;
    } else {
      record.failures += 1;
      record.lastFailure = this.now();
      if (record.failures >= FREE_WRONG_PASSWORDS) record.blockedUntil = record.lastFailure + waitAfter(record.failures);
      this.touch(key, record);
    }
    this.dropIfClean(key, record);
    return right;
  }

  /** The client's record with one more check in flight, or the refusal. */
  private admit(key: string): ClientRecord {
    const now = this.now();
    let record = this.clients.get(key);
    if (record !== undefined && record.inFlight === 0 && record.blockedUntil <= now && now - record.lastFailure >= FORGET_AFTER_MS) {
      this.clients.delete(key);
      record = undefined;
    }
    if (record === undefined) {
      record = { failures: 0, inFlight: 0, blockedUntil: 0, lastFailure: 0 };
      this.touch(key, record);
    }
    if (record.blockedUntil > now) throw new AuthError(AUTH_MESSAGES.throttled(key, Math.ceil((record.blockedUntil - now) / 1000)));
    const free = record.failures < FREE_WRONG_PASSWORDS ? Math.min(FREE_WRONG_PASSWORDS - record.failures, MAX_CHECKS_IN_FLIGHT) : 1;
    if (record.inFlight >= free) throw new AuthError(AUTH_MESSAGES.checksInFlight(key));
    record.inFlight += 1;
    return record;
  }

  /** (Re)inserts `record` as the most recent, dropping the longest-quiet client beyond the bound. */
  private touch(key: string, record: ClientRecord): void {
    this.clients.delete(key);
    this.clients.set(key, record);
    while (this.clients.size > MAX_TRACKED_CLIENTS) {
      const oldest = this.clients.keys().next().value as string;
      if (oldest === key) break;
      this.clients.delete(oldest);
    }
  }

  /** A record with nothing to remember is dropped. */
  private dropIfClean(key: string, record: ClientRecord): void {
    if (record.inFlight === 0 && record.failures === 0 && this.clients.get(key) === record) this.clients.delete(key);
  }
}

/** The key a client address is throttled by: an IPv4 address itself, an IPv6 address's /64. */
function clientKey(address: string): string {
  if (!address.includes(":")) return address;
  const unzoned = address.split("%")[0]!;
  const [head = "", tail] = unzoned.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  const network = groups.slice(0, 4).map((group) => (parseInt(group, 16) || 0).toString(16));
  return `${network.join(":")}::/64`;
}

/** The wait after the `failures`-th wrong password in a row (at least {@link FREE_WRONG_PASSWORDS}). */
function waitAfter(failures: number): number {
  return Math.min(FIRST_WAIT_MS * 2 ** (failures - FREE_WRONG_PASSWORDS), MAX_WAIT_MS);
}
