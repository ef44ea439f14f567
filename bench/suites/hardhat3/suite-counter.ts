// @ts-nocheck -- Hardhat 3 code (ES module, top-level await, Hardhat 3's types) in a repository that builds against Hardhat 2; `npm run bench -- suite-hardhat3` drops this line when it copies the file into its Hardhat 3 project and type-checks it there.
/**
 * The Hardhat 3 form of bench/suites/counter.ts, shared by the Hardhat 3 suite files: counts
 * the transactions a suite sends on its network connection and, once it has run, prints the
 * line the benchmark (bench/suite-hardhat3.ts) reads:
 *
 *   [bench-suite] {"suite":"erc20","network":"nativekit","tests":39,"sent":51,"rejected":0,...}
 *
 * In Hardhat 3 a test file makes its own connection (`await network.create()`), so the counter
 * wraps that connection's provider. Its `request` is what hardhat-ethers, the network helpers
 * and the matchers call (`send` and `sendAsync` call `request`), so only it is wrapped.
 *
 * `providerInitMs` is measured from this module's evaluation: the suite file imports it last,
 * so that is just before the file's body runs and calls `network.create()` (Hardhat's own
 * network creates its simulator there; nativekit's plugin creates its engine on the first
 * request), to the answer of the `eth_chainId` the `before` hook sends.
 */
import { performance } from "node:perf_hooks";

import type { NetworkConnection } from "hardhat/types/network";

const fileStarted = performance.now();

export const RESULT_MARKER = "[bench-suite]";

export interface SuiteResultLine {
  suite: string;
  /** The connection's network name: "nativekit", or "default" (Hardhat 3's own simulated network). */
  network: string;
  /** Tests the file registered (mocha's count, before any ran). */
  tests: number;
  /** eth_sendTransaction / eth_sendRawTransaction requests answered with a hash. */
  sent: number;
  /** ... answered with an error. */
  rejected: number;
  /** eth_estimateGas requests. */
  estimates: number;
  /** From the file's start (network.create()) to the network's first answer. */
  providerInitMs: number;
  /** From then to the end of the file's last test: the tests' own time. */
  testsMs: number;
  /** The class of the connection's provider: the plugin's own (InProcessProvider) on nativekit, Hardhat's EdrProvider on its network. */
  provider: string;
}

const TX_METHODS = new Set(["eth_sendTransaction", "eth_sendRawTransaction"]);

/**
 * Wraps `connection.provider.request` to count transactions and registers the hooks that print
 * the result line. Call it inside the file's top `describe`.
 */
export function countTransactions(suite: string, connection: NetworkConnection): void {
  const provider = connection.provider;
  const counts = { sent: 0, rejected: 0, estimates: 0 };
  const request = provider.request.bind(provider);
  provider.request = async (args: { method: string; params?: unknown[] | object }) => {
    if (args.method === "eth_estimateGas") counts.estimates++;
    if (!TX_METHODS.has(args.method)) return request(args);
    try {
      const result = await request(args);
      counts.sent++;
      return result;
    } catch (e) {
      counts.rejected++;
      throw e;
    }
  };

  let tests = 0;
  let providerInitMs = 0;
  let testsStarted = 0;
  before(async function () {
    tests = this.test?.parent?.total() ?? 0;
    await request({ method: "eth_chainId" });
    testsStarted = performance.now();
    providerInitMs = testsStarted - fileStarted;
  });
  after(() => {
    const testsMs = performance.now() - testsStarted;
    const line: SuiteResultLine = { suite, network: connection.networkName, tests, ...counts, providerInitMs, testsMs, provider: provider.constructor.name };
    console.log(`${RESULT_MARKER} ${JSON.stringify(line)}`);
  });
}
