/** What the password hasher's thread (argon2-worker.ts) and its owner (argon2-thread.ts) exchange. */

/** The reference node's argon2id parameters: 1 pass, 64 MiB, 4 lanes, 32 bytes. */
export const ARGON2_PARAMETERS = { iterations: 1, memorySize: 64 * 1024, parallelism: 4, hashLength: 32 } as const;

export interface HashRequest {
  readonly id: number;
  readonly password: string;
  readonly salt: Uint8Array;
}

export type HashReply = { readonly id: number; readonly hash: Uint8Array } | { readonly id: number; readonly error: string };
