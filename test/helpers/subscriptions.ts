import type { SubscriptionMessage } from "../../src/engine/provider";
import { RpcHarness__factory, type RpcHarness } from "../../typechain-types";
import { startChain, type TestChain } from "./chain";

/** A fresh in-process chain with the RPC test contract, recording every subscription message. */
export interface SubscriptionFixture {
  chain: TestChain;
  harness: RpcHarness;
  /** Every EIP-1193 `message` event since the fixture started. */
  messages: SubscriptionMessage[];
  /** eth_subscribe with these params; resolves with the subscription ID. */
  subscribe(...params: unknown[]): Promise<string>;
  /** The `result` of each notification of `subscription` so far, in order. */
  results<T = unknown>(subscription: string): T[];
  /** Stops recording. */
  stop(): void;
}

export async function subscriptionFixture(): Promise<SubscriptionFixture> {
  const chain = await startChain();
  const harness = await new RpcHarness__factory(chain.signers[0]!).deploy();
  await harness.waitForDeployment();
  const messages: SubscriptionMessage[] = [];
  const record = (m: SubscriptionMessage) => messages.push(m);
  chain.native.on("message", record);
  return {
    chain,
    harness,
    messages,
    subscribe: (...params) => chain.rpc("eth_subscribe", params) as Promise<string>,
    results: <T>(subscription: string) => messages.filter((m) => m.data.subscription === subscription).map((m) => m.data.result as T),
    stop: () => chain.native.off("message", record),
  };
}
