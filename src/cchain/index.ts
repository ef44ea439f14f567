/**
 * The contract chain's cross-chain side: the atomic transaction codec, verification and
 * application against the engine and shared memory, and the `cvm.*` / `avax.*` API.
 */
export * from "./atomic-codec";
export * from "./atomic";
export * from "./formatting";
export * from "./api";
