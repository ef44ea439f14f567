/**
 * What the contract chain's atomic tests share: the local network's atomic context, its native
 * asset, a second asset, the reference's test keys as bytes, and a gwei.
 */
import { decodeCb58 } from "../../src/encoding";
import { LOCAL_NETWORK } from "../../src/network/constants";
import { atomicContextOf, type AtomicContext } from "../../src/cchain";
import { AG_TEST_KEYS } from "./vectors";

export const ctx: AtomicContext = atomicContextOf(LOCAL_NETWORK);
export const AVAX = ctx.nativeAssetId;
/** Any asset other than the native one. */
export const ANT = new Uint8Array(32).fill(0xa1);
export const keys = AG_TEST_KEYS.map((k) => decodeCb58(k));
export const GWEI = 1_000_000_000n;
