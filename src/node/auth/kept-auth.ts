/**
 * The auth API's state in the node's data directory: the password hash, the tokens' signing
 * key (sealed under the startup password, `kept-signing-key.ts`) and the revoked tokens (their
 * `jti`), so tokens made before a restart stay valid (and revoked ones stay revoked), and a
 * password changed with `auth.changePassword` stays changed.
 *
 * The password file still rules: the directory also keeps the hash of the password the node
 * was last started with; when the file's password is another one, the operator has changed it,
 * and the node starts over from the file's password (every earlier token invalid).
 *
 * A directory written by an earlier version has no signing key (its tokens were signed with the
 * password hash): it loads as it is, gets a new key, and the earlier tokens are refused. A kept
 * key that does not open (changed bytes) is replaced the same way.
 */
import type { DurableStore } from "../../storage";
import { SigningKeyWrap } from "./kept-signing-key";
import { PasswordHash } from "./password";
import { ApiAuthority, type AuthorityState, type Clock } from "./tokens";

const STARTUP_KEY = "startup-password";
const CURRENT_KEY = "password";
const REVOKED_KEY = "revoked";
const SIGNING_KEY = "signing-key";

/** The authority of a node started with `password`, kept in `store` (a store committing on its own). */
export async function keptAuthority(password: string, store: DurableStore, clock?: Clock): Promise<ApiAuthority> {
  const startup = await store.get(STARTUP_KEY);
  const current = await store.get(CURRENT_KEY);
  let authority: ApiAuthority;
  let wrap: SigningKeyWrap;
  if (startup !== undefined && current !== undefined && (await PasswordHash.fromBytes(startup).matches(password))) {
    const revoked = await store.get(REVOKED_KEY);
    const list = revoked === undefined ? [] : (JSON.parse(new TextDecoder().decode(revoked)) as string[]);
    const kept = await store.get(SIGNING_KEY);
    const keptWrap = kept === undefined ? undefined : await SigningKeyWrap.of(password, kept);
    const signingKey = kept === undefined ? undefined : keptWrap?.open(kept);
    wrap = signingKey === undefined ? await SigningKeyWrap.fresh(password) : keptWrap!;
    authority = ApiAuthority.restore({ password: PasswordHash.fromBytes(current), signingKey, revoked: list }, clock);
    if (signingKey === undefined) {
      stage(store, authority.state, wrap);
      await store.commit();
    }
  } else {
    authority = await ApiAuthority.create(password, clock);
    wrap = await SigningKeyWrap.fresh(password);
    store.put(STARTUP_KEY, authority.state.password.toBytes());
    stage(store, authority.state, wrap);
    await store.commit();
  }
  authority.onChange = async (state) => {
    stage(store, state, wrap);
    await store.commit();
  };
  return authority;
}

function stage(store: DurableStore, state: AuthorityState, wrap: SigningKeyWrap): void {
  store.put(CURRENT_KEY, state.password.toBytes());
  store.put(SIGNING_KEY, wrap.seal(state.signingKey));
  store.put(REVOKED_KEY, new TextEncoder().encode(JSON.stringify(state.revoked)));
}
