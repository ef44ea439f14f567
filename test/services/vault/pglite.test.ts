import { pgliteTemplate } from "./helpers";
import { describeVaultRules } from "./rules";

// The embedded default: a fresh in-memory PGlite for every vault, each started from one initdb's
// empty data directory (the template) instead of running initdb again.
describeVaultRules("PGlite (embedded)", async () => {
  const template = await pgliteTemplate();
  return { fresh: async () => ({ pgliteTemplate: template }), close: async () => undefined };
});
