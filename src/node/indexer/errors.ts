/**
 * The index's refusals, worded as the reference node words them (avalanchego `indexer/index.go`):
 * the API module passes the message through unchanged as a -32000 error.
 */
export type IndexErrorKind = "none-accepted" | "no-container-at-index" | "start-past-end" | "num-to-fetch" | "not-found" | "storage" | "incomplete";

export class IndexError extends Error {
  constructor(
    readonly kind: IndexErrorKind,
    message: string,
  ) {
    super(message);
    this.name = "IndexError";
  }

  static noneAccepted(): IndexError {
    return new IndexError("none-accepted", "no containers have been accepted");
  }

  static noContainerAt(index: bigint): IndexError {
    return new IndexError("no-container-at-index", `no container at index ${index}`);
  }

  static startPastEnd(start: bigint, last: bigint): IndexError {
    return new IndexError("start-past-end", `start index (${start}) > last accepted index (${last})`);
  }

  static numToFetch(n: bigint, max: number): IndexError {
    return new IndexError("num-to-fetch", `numToFetch must be in [1,${max}] but is ${n}`);
  }

  /** An ID this index never accepted (the reference's database.ErrNotFound). */
  static notFound(): IndexError {
    return new IndexError("not-found", "not found");
  }
}
