/**
 * The auth API's state in the node's data directory: the password hash (the tokens' HMAC key)
 * and the revoked tokens (their `jti`), so tokens made before a restart stay valid (and revoked ones stay
 * revoked), and a password changed with `auth.changePassword` stays changed.
 *
 * The password file still rules: the directory also keeps the hash of the password the node
 * was last started with; when the file's password is another one, the operator has changed it,
 * and the node starts over from the file's password (every earlier token invalid).
 */
import type { DurableStore } from "../../storage";
import { PasswordHash } from "./password";
import { ApiAuthority, type AuthorityState, type Clock } from "./tokens";

const STARTUP_KEY = "startup-password";
const CURRENT_KEY = "password";
const REVOKED_KEY = "revoked";

/** The authority of a node started with `password`, kept in `store` (a store committing on its own). */
export async function keptAuthority(password: string, store: DurableStore, clock?: Clock): Promise<ApiAuthority> {
  const startup = await store.get(STARTUP_KEY);
  const current = await store.get(CURRENT_KEY);
  let authority: ApiAuthority;
  if (startup !== undefined && current !== undefined && (await PasswordHash.fromBytes(startup).matches(password))) {
    const revoked = await store.get(REVOKED_KEY);
    const list = revoked === undefined ? [] : (JSON.parse(new TextDecoder().decode(revoked)) as string[]);
    authority = ApiAuthority.restore({ password: PasswordHash.fromBytes(current), revoked: list }, clock);
  } else {
    authority = await ApiAuthority.create(password, clock);
    store.put(STARTUP_KEY, authority.state.password.toBytes());
    stage(store, authority.state);
    await store.commit();
  }
  authority.onChange = async (state) => {
    stage(store, state);
    await store.commit();
  };
  return authority;
}

function stage(store: DurableStore, state: AuthorityState): void {
  store.put(CURRENT_KEY, state.password.toBytes());
  store.put(REVOKED_KEY, new TextEncoder().encode(JSON.stringify(state.revoked)));
}
