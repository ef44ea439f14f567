import { ClassicLevel } from "classic-level";
import type { StoreBackend } from "./durable-store";

type Db = ClassicLevel<string, Uint8Array>;

/**
 * A backend in LevelDB (classic-level, whose prebuilt binaries ship in its npm package). Writes
 * are LevelDB batches, atomic on their own; they are not fsynced, which survives a killed process
 * (the data is in the operating system's buffers) though not a power cut.
 */
export class LevelBackend implements StoreBackend {
  private constructor(private readonly db: Db) {}

  /**
   * Opens the database in the directory `location`, creating it when absent unless
   * `createIfMissing` is false: a directory that held a database must open as it is, because
   * LevelDB, told to create one over files it cannot read (a lost CURRENT), starts an empty
   * database and deletes the old files as obsolete.
   */
  static async open(location: string, { createIfMissing = true }: { createIfMissing?: boolean } = {}): Promise<LevelBackend> {
    const db: Db = new ClassicLevel<string, Uint8Array>(location, { keyEncoding: "utf8", valueEncoding: "view", createIfMissing });
    try {
      await db.open();
    } catch (error) {
      // classic-level's own message only says "Database failed to open"; its cause says why (a lock held by another process).
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      throw new Error(`cannot open the database in ${location}${cause === undefined ? "" : `: ${cause}`}`, { cause: error });
    }
    return new LevelBackend(db);
  }

  get(key: string): Promise<Uint8Array | undefined> {
    return this.db.get(key);
  }

  getSync(key: string): Uint8Array | undefined {
    return this.db.getSync(key);
  }

  write(ops: ReadonlyMap<string, Uint8Array | undefined>): Promise<void> {
    const batch = this.db.batch();
    for (const [key, value] of ops) {
      if (value === undefined) batch.del(key);
      else batch.put(key, value);
    }
    return batch.write();
  }

  async *entries(prefix: string): AsyncIterable<[string, Uint8Array]> {
    // From the prefix on, in key order, until the first key without it (an upper bound such as
    // prefix + U+FFFF would miss keys whose next character lies beyond it in UTF-8 order).
    for await (const [key, value] of this.db.iterator(prefix === "" ? {} : { gte: prefix })) {
      if (!key.startsWith(prefix)) break;
      yield [key, value];
    }
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
