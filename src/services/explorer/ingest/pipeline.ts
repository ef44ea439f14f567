/**
 * The statements of one page, sent without waiting for those whose answer the page does not
 * need. Why: the ingest thread built each statement's parameters (arrays of a page's rows, its
 * documents) while the server waited, then waited while the server ran it; a statement sent
 * and not awaited runs while the next one is built. Each statement is handed to the connection
 * when the one before it has answered (node-postgres deprecates a query on a busy client), so
 * they run in the order sent and each sees the writes sent before it, as when each was awaited.
 *
 * A statement that fails aborts the SQL transaction, and every statement after it fails with
 * "current transaction is aborted": the page fails with the first failure, not with one of
 * those. `drain` waits for every statement sent; a page is stored only once it resolves.
 */
import type { SqlQueries, SqlRow, SqlValue } from "../../sql/database";

export class StatementPipeline implements SqlQueries {
  private pending: Promise<void>[] = [];
  private failure: { error: unknown } | undefined;
  /** Settles when the last statement handed over has answered. */
  private last: Promise<unknown> = Promise.resolve();

  /** The same connection, each statement sent and answered at once with no rows: for writes whose rows nobody reads. */
  readonly unanswered: SqlQueries = {
    query: (text, params) => {
      this.send(text, params);
      return Promise.resolve([]);
    },
  };

  constructor(private readonly q: SqlQueries) {}

  /** Sends a statement whose answer is not needed: a failure is met by `drain` (or the next `query`). */
  send(text: string, params?: readonly SqlValue[]): void {
    this.pending.push(
      this.next(text, params).then(
        () => undefined,
        (error: unknown) => this.fail(error),
      ),
    );
  }

  /** Runs a statement and answers its rows; when it fails, with the first failure of the statements sent before it. */
  async query(text: string, params?: readonly SqlValue[]): Promise<SqlRow[]> {
    try {
      return await this.next(text, params);
    } catch (error) {
      this.fail(error);
      await this.drain();
      throw error; // not reached: drain throws the first failure
    }
  }

  /** Waits for every statement sent; throws the first that failed. */
  async drain(): Promise<void> {
    while (this.pending.length > 0) await Promise.all(this.pending.splice(0));
    if (this.failure !== undefined) throw this.failure.error;
  }

  /** The statement, handed to the connection once the one before it answered (failed or not). */
  private next(text: string, params?: readonly SqlValue[]): Promise<SqlRow[]> {
    const answer = this.last.then(() => this.q.query(text, params));
    this.last = answer.catch(() => undefined);
    return answer;
  }

  private fail(error: unknown): void {
    this.failure ??= { error };
  }
}
