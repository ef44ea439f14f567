/**
 * Where a chain's issued transactions go: accepted on this node, or, on a node that follows
 * another (a follower re-executing its producer's chain), handed to the producer, whose answer
 * is the caller's; the transaction then reaches this node as the producer's accepted container.
 * The exchange and platform chains and the contract chain's atomic side each route through one.
 */
export class IssueForwarding<Answer> {
  private producer: ((signedBytes: Uint8Array) => Promise<Answer>) | undefined;

  /** From now on every issued transaction goes to `submit` (the follower's link to its producer). */
  forwardTo(submit: (signedBytes: Uint8Array) => Promise<Answer>): void {
    this.producer = submit;
  }

  /** The producer's link when this node follows one; undefined when transactions are accepted here. */
  get submit(): ((signedBytes: Uint8Array) => Promise<Answer>) | undefined {
    return this.producer;
  }
}
