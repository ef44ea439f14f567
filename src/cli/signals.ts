/** The signals that stop a long-running `nativekit` command (the node, the vault, the explorer, the runner). */
export type SignalName = "SIGINT" | "SIGTERM";

/**
 * The default signal source: SIGINT and SIGTERM of the current process. Started through npm
 * (`npx nativekit node`, `npm run node`), the process's parent is npm's shell, which a SIGTERM
 * to npm ends without passing the signal on; the parent going away then counts as SIGTERM, so
 * the node never lingers as an orphan holding its port.
 */
export function processSignals(handler: (signal: SignalName) => void): () => void {
  const onInt = () => handler("SIGINT");
  const onTerm = () => handler("SIGTERM");
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  const parent = process.ppid;
  const orphanWatch = startedByNpm() ? setInterval(() => process.ppid !== parent && onTerm(), 500) : undefined;
  orphanWatch?.unref();
  return () => {
    process.off("SIGINT", onInt);
    process.off("SIGTERM", onTerm);
    clearInterval(orphanWatch);
  };
}

function startedByNpm(): boolean {
  return process.env.npm_command !== undefined || process.env.npm_lifecycle_event !== undefined;
}
