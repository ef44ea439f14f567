/**
 * What a started node has to undo, kept as one ordered list: each step is added when what it
 * releases has been acquired, and the steps run newest first, so the HTTP server stops taking
 * requests before the services behind it close, and those before the chains they read.
 *
 * Two ways to run it. `stop()` is the orderly stop: every step in turn, a failure ending the
 * sequence and reaching the caller (who reports it). `abandon()` undoes a start that failed part
 * way: every step runs whatever the others do, since the start's own error is the one to report.
 */
export type ShutdownStep = () => Promise<void>;

interface Entry {
  readonly run: ShutdownStep;
  /** Only in an orderly stop (writing the state file): a failed start has nothing worth keeping. */
  readonly onStopOnly: boolean;
}

export class ShutdownSequence {
  private readonly entries: Entry[] = [];

  /** Adds `step`, to run before every step added earlier. */
  add(step: ShutdownStep): void {
    this.entries.push({ run: step, onStopOnly: false });
  }

  /** Adds `step` like {@link add}, but only for an orderly stop (skipped by `abandon`). */
  addOnStop(step: ShutdownStep): void {
    this.entries.push({ run: step, onStopOnly: true });
  }

  /** The orderly stop: every step, newest first; the first failure stops the sequence and is thrown. */
  async stop(): Promise<void> {
    for (const entry of this.take()) await entry.run();
  }

  /** Undoes a failed start: every step but the stop-only ones, newest first, each failure ignored. */
  async abandon(): Promise<void> {
    for (const entry of this.take()) {
      if (!entry.onStopOnly) await entry.run().catch(() => undefined);
    }
  }

  /** The steps newest first, and the list emptied: nothing is released twice. */
  private take(): Entry[] {
    return this.entries.splice(0).reverse();
  }
}
