/** The exchange chain (the reference node's X-Chain): codec first; state and APIs build on it. */
export * from "./codec";
