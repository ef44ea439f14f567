/** Largest values of the node's fixed-width integers (amounts, locktimes, thresholds, indices). */
export const UINT64_MAX = (1n << 64n) - 1n;
export const UINT32_MAX = 0xffff_ffff;
