/** What the HTTP server writes to its log: one line per JSON-RPC call, and the text of an error. */
import type { Dispatch } from "../../rpc/types";

/** `dispatch`, writing the method name of every call (and the error of a failed one) to `log`. */
export function loggingDispatch(dispatch: Dispatch, log: (line: string) => void): Dispatch {
  return async (method, params) => {
    try {
      const result = await dispatch(method, params);
      log(method);
      return result;
    } catch (e) {
      const err = e as { code?: unknown; message?: unknown };
      log(`${method} -> error ${String(err?.code ?? "")}: ${String(err?.message ?? e)}`);
      throw e;
    }
  };
}

/** The message of a thrown value, for a log line. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
