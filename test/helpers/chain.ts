import { BrowserProvider, JsonRpcSigner } from "ethers";
import { createNativeProvider, type EngineOptions, type NativeProvider } from "../../src/engine";

/** A fresh in-process chain, its ethers provider and the unlocked signers. */
export interface TestChain {
  native: NativeProvider;
  provider: BrowserProvider;
  signers: JsonRpcSigner[];
  /** Raw JSON-RPC request, for methods ethers has no wrapper for and for error shapes. */
  rpc(method: string, params?: unknown[]): Promise<unknown>;
}

export async function startChain(options: EngineOptions = {}): Promise<TestChain> {
  const native = await createNativeProvider(options);
  // No caching and fast polling: tests read state right after each transaction.
  const provider = new BrowserProvider(native, undefined, { cacheTimeout: -1, pollingInterval: 10 });
  const accounts = (await native.request({ method: "eth_accounts" })) as string[];
  const signers = await Promise.all(accounts.slice(0, 5).map((a) => provider.getSigner(a)));
  return { native, provider, signers, rpc: (method, params = []) => native.request({ method, params }) };
}

/** Asserts that a promise rejects and returns the error (an RpcError from the engine). */
export async function rejection(promise: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: number; message: string; data?: unknown };
  }
  throw new Error("expected the promise to reject, but it resolved");
}

/** A 32-byte asset ID for tests, as 0x hex. */
export function testAssetId(n: number): `0x${string}` {
  return `0x${n.toString(16).padStart(64, "0")}` as `0x${string}`;
}
