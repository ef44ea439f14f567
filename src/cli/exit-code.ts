/**
 * How a `nativekit` command ended, as the process's exit code: every command resolves to one of
 * these names rather than to a bare number.
 */
export const ExitCode = {
  Ok: 0,
  /** It could not start or do its work (port in use, engine failure, a refused call...), or a check it made failed. */
  Failure: 1,
  /** The command line was wrong; the usage was printed. */
  Usage: 2,
  /** Stopped by a second signal while shutting down. */
  Interrupted: 130,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
