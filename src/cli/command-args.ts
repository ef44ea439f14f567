/**
 * What the `nativekit` subcommands share on their command line: the options parsed with
 * node:util's parseArgs, `--help` answered with the command's usage, a mistake answered with
 * the message and the usage on stderr (exit code Usage), and the checks of a port flag.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { ExitCode } from "./exit-code";

/** Where a command writes: both end every text with a newline. */
export interface CommandOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

type OptionsConfig = NonNullable<ParseArgsConfig["options"]>;

/** The parsed values (by option name) and positionals, or the exit code when the command ends here. */
export type ParsedCommandArgs = { values: Record<string, string | boolean | undefined>; positionals: string[] } | { exit: ExitCode };

/**
 * Parses `args` with `options` (plus `--help`/`-h`): a parse error prints the usage (Usage),
 * `--help` prints it to stdout (Ok).
 */
export function parseCommandArgs(args: readonly string[], options: OptionsConfig, usage: string, out: CommandOutput, allowPositionals = false): ParsedCommandArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: { ...options, help: { type: "boolean", short: "h" } }, strict: true, allowPositionals });
  } catch (error) {
    return { exit: usageError(out, (error as Error).message, usage) };
  }
  if (parsed.values.help === true) {
    out.stdout(usage);
    return { exit: ExitCode.Ok };
  }
  return { values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals };
}

/** Prints `error: <message>`, a blank line and the usage to stderr; the exit code of a wrong command line. */
export function usageError(out: Pick<CommandOutput, "stderr">, message: string, usage: string): ExitCode {
  out.stderr(`error: ${message}\n\n${usage}`);
  return ExitCode.Usage;
}

/** A port flag's value (`fallback` when absent): an integer from 0 to 65535, else undefined. */
export function parsePort(text: string | boolean | undefined, fallback: number): number | undefined {
  if (text === undefined) return fallback;
  if (typeof text !== "string" || !/^\d+$/.test(text) || Number(text) > 65535) return undefined;
  return Number(text);
}

/** The message of a port flag that {@link parsePort} refused. */
export function invalidPort(flag: string, text: string | boolean | undefined): string {
  return `invalid ${flag} ${JSON.stringify(text)}: expected an integer from 0 to 65535`;
}

/** The message of a thrown value. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
