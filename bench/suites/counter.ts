/**
 * Shared by the suite benchmark's test files: counts the transactions a suite sends and, once
 * it has run, prints one line the benchmark reads:
 *
 *   [bench-suite] {"suite":"erc20","network":"nativekit","tests":39,"sent":51,"rejected":0,"providerInitMs":..,"testsMs":..}
 *
 * `sent` counts eth_sendTransaction / eth_sendRawTransaction requests answered with a hash
 * (with automine, each is a mined transaction); `rejected` those answered with an error (on
 * Hardhat's network a reverting transaction is mined and then reported as an error; on a
 * network where the signer estimates gas first, a reverting one is refused before it is sent).
 */
import { performance } from "node:perf_hooks";

import hre from "hardhat";

export const RESULT_MARKER = "[bench-suite]";

export interface SuiteResultLine {
  suite: string;
  network: string;
  /** Tests the file registered (mocha's count, before any ran). */
  tests: number;
  sent: number;
  rejected: number;
  /** eth_estimateGas requests (hardhat-ethers' signer sends one before each transaction unless it has a fixed gas limit). */
  estimates: number;
  /** Time of the network's first answer (the provider is created lazily, on first use). */
  providerInitMs: number;
  /** Time from then to the end of the file's last test: the tests' own time. */
  testsMs: number;
}

const TX_METHODS = new Set(["eth_sendTransaction", "eth_sendRawTransaction"]);

type RequestArgs = { method: string; params?: unknown[] | object };

/**
 * Wraps `hre.network.provider`'s `request` and `send` (hardhat-ethers uses `send`, the
 * network helpers `request`; neither calls the other on this object) to count transactions,
 * and registers the hooks that print the result line. Call it inside the file's top `describe`.
 */
export function countTransactions(suite: string): void {
  const provider = hre.network.provider;
  const counts = { sent: 0, rejected: 0, estimates: 0 };
  const counted = async <T>(method: string, call: () => Promise<T>): Promise<T> => {
    if (method === "eth_estimateGas") counts.estimates++;
    if (!TX_METHODS.has(method)) return call();
    try {
      const result = await call();
      counts.sent++;
      return result;
    } catch (e) {
      counts.rejected++;
      throw e;
    }
  };
  const request = provider.request.bind(provider);
  const send = provider.send.bind(provider);
  provider.request = (args: RequestArgs) => counted(args.method, () => request(args));
  provider.send = (method: string, params?: unknown[]) => counted(method, () => send(method, params));

  let tests = 0;
  let providerInitMs = 0;
  let testsStarted = 0;
  before(async function () {
    tests = this.test?.parent?.total() ?? 0;
    const t0 = performance.now();
    await request({ method: "eth_chainId" });
    testsStarted = performance.now();
    providerInitMs = testsStarted - t0;
  });
  after(() => {
    const testsMs = performance.now() - testsStarted;
    const line: SuiteResultLine = { suite, network: hre.network.name, tests, ...counts, providerInitMs, testsMs };
    console.log(`${RESULT_MARKER} ${JSON.stringify(line)}`);
  });
}
