/**
 * How a service command (`vault`, `explorer`) ends: at the first signal it says so, closes its
 * server and resolves Ok, or Failure when the close fails. It listens for one signal only: a
 * second one finds the process's default handling again.
 */
import type { CommandOutput } from "./command-args";
import { ExitCode } from "./exit-code";
import type { SignalName } from "./signals";

export function serveUntilSignal(
  server: { close(): Promise<void> },
  /** What is stopped, as the lines name it ("the vault"). */
  what: string,
  deps: CommandOutput & { onSignal(handler: (signal: SignalName) => void): () => void },
): Promise<ExitCode> {
  return new Promise<ExitCode>((resolve) => {
    const unsubscribe = deps.onSignal((signal) => {
      unsubscribe();
      deps.stdout(`\nReceived ${signal}, stopping ${what}...\n`);
      server.close().then(
        () => resolve(ExitCode.Ok),
        (error: unknown) => {
          deps.stderr(`error while stopping ${what}: ${(error as Error).message}\n`);
          resolve(ExitCode.Failure);
        },
      );
    });
  });
}
