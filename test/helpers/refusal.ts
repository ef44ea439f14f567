/** Asserts that a promise rejects and returns the error, for tests that read its message or class. */
export async function refusal(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a refusal");
}

/** The refusal of a promise, which must be an instance of `kind` (any other error is rethrown). */
export async function refusalOf<E extends Error>(promise: Promise<unknown>, kind: abstract new (...args: never[]) => E): Promise<E> {
  const error = await refusal(promise);
  if (error instanceof kind) return error;
  throw error;
}

/** The same for a synchronous call. */
export function syncRefusalOf<E extends Error>(run: () => unknown, kind: abstract new (...args: never[]) => E): E {
  try {
    run();
  } catch (error) {
    if (error instanceof kind) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

/**
 * An auth refusal as the clients print it (src/clients/transport.ts: "HTTP 401 Unauthorized: the
 * node refused the call; ..."), for tests that check a process's output holds none. "401" alone
 * would also match a port the node happened to get.
 */
export const PRINTED_AUTH_REFUSAL = /HTTP 401|refused the call/;
