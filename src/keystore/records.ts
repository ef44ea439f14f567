/**
 * The keystore's records in the durable store: one per user, under "user/" + the username's
 * UTF-8 bytes in hex (any username is a safe key that way), holding exactly what the keystore
 * holds in memory: the scrypt salt and password hash, and the private keys per blockchain in
 * import order.
 */
import type { DurableStore } from "../storage";
import { encodeRecord, RecordReader, toHex } from "../storage/record-codec";

export interface StoredUser {
  salt: Uint8Array;
  passwordHash: Uint8Array;
  /** blockchain ID hex -> private keys (32 bytes each), in import order */
  keys: Map<string, Uint8Array[]>;
}

const USER = "user/";

export function userKey(username: string): string {
  return USER + toHex(new TextEncoder().encode(username));
}

export function userRecord(user: StoredUser): Uint8Array {
  return encodeRecord({
    salt: toHex(user.salt),
    passwordHash: toHex(user.passwordHash),
    keys: [...user.keys].map(([chain, keys]) => ({ chain, keys: keys.map(toHex) })),
  });
}

/** Every user the store holds, by username. Throws DamagedRecordError naming a record it cannot read. */
export async function loadUsers(store: DurableStore): Promise<Map<string, StoredUser>> {
  const users = new Map<string, StoredUser>();
  for await (const [key, bytes] of store.entries(USER)) {
    const record = RecordReader.of(key, bytes);
    const name = key.slice(USER.length);
    if (!/^(?:[0-9a-f]{2})+$/.test(name)) record.fail("the key does not end with a username in hex");
    let username: string;
    try {
      username = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(name, "hex"));
    } catch {
      return record.fail("the key's username is not UTF-8");
    }
    const keys = new Map<string, Uint8Array[]>();
    for (const chain of record.list("keys")) {
      const id = chain.string("chain");
      if (!/^0x[0-9a-f]{64}$/.test(id)) chain.fail(`blockchain ID ${JSON.stringify(id)} is not 0x and 64 hex digits`);
      keys.set(id, chain.bytesList("keys", 32));
    }
    users.set(username, { salt: record.bytes("salt"), passwordHash: record.bytes("passwordHash", 32), keys });
  }
  return users;
}
