import { describeVaultRules } from "./rules";

// The embedded default: a fresh in-memory PGlite for every vault.
describeVaultRules("PGlite (embedded)", async () => ({ fresh: async () => ({}), close: async () => undefined }));
