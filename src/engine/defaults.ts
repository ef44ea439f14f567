/**
 * The engine's default chain settings, in a module of their own: code that needs only these
 * values (the Hardhat plugin's config, read by every Hardhat command) loads nothing else.
 */
export const LOCAL_CHAIN_ID = 43112;
export const DEFAULT_BLOCK_GAS_LIMIT = 15_000_000n;
export const DEFAULT_MIN_BASE_FEE = 25_000_000_000n;
