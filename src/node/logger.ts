/**
 * The node's log: lines for people, each written at a level, kept when the level is at or above
 * the log's current level. The levels and their names are the contract chain's (geth's, which
 * `admin.setLogLevel` parses): trace, debug, info, warn, error, crit; the short forms trce, dbug,
 * eror are read too.
 *
 * What the node writes where: every JSON-RPC call at info (the HTTP server's request log, when the
 * node is started with `log: logger.at("info")`), each accepted block and transaction at debug,
 * publishing and profiling events at info, failures at error. The default level is info.
 */
export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "crit"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const SHORT_NAMES: Readonly<Record<string, LogLevel>> = { trce: "trace", dbug: "debug", eror: "error" };

export class LogLevelError extends Error {
  constructor(readonly given: string) {
    super(`unknown level: ${given}`);
    this.name = "LogLevelError";
  }
}

/** The level a name means; throws `LogLevelError` for an unknown name. */
export function parseLogLevel(name: string): LogLevel {
  const lower = name.toLowerCase();
  const level = (LOG_LEVELS as readonly string[]).includes(lower) ? (lower as LogLevel) : SHORT_NAMES[lower];
  if (level === undefined) throw new LogLevelError(name);
  return level;
}

export class NodeLogger {
  private current: LogLevel;

  /** `sink` receives the kept lines (default: discard). */
  constructor(
    private readonly sink: (line: string) => void = () => undefined,
    level: LogLevel = "info",
  ) {
    this.current = level;
  }

  get level(): LogLevel {
    return this.current;
  }

  /** Sets the level by name; throws `LogLevelError` and keeps the level for an unknown name. */
  setLevel(name: string): LogLevel {
    this.current = parseLogLevel(name);
    return this.current;
  }

  /** Whether a line at `level` is kept. */
  enabled(level: LogLevel): boolean {
    return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(this.current);
  }

  write(level: LogLevel, line: string): void {
    if (this.enabled(level)) this.sink(line);
  }

  /** A line writer at `level`, for components that take a `(line) => void` (the HTTP server). */
  at(level: LogLevel): (line: string) => void {
    return (line) => this.write(level, line);
  }
}
