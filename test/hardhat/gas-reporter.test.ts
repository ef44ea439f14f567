import path from "node:path";

import { expect } from "chai";
import { TASK_TEST_RUN_MOCHA_TESTS } from "hardhat/builtin-tasks/task-names";
import type { ActionType, EthereumProvider, HardhatRuntimeEnvironment, RunSuperFunction } from "hardhat/types";

import { NATIVEKIT_NETWORK, resolveNativekitConfig } from "../../src/hardhat/config";
import { reportGasInProcess } from "../../src/hardhat/gas-reporter";
import { NativeHardhatProvider } from "../../src/hardhat/provider";

const ROOT = path.join(__dirname, "..", "..");

interface FakeTask {
  action: ActionType<{ parallel?: boolean }>;
  setAction(action: ActionType<{ parallel?: boolean }>): FakeTask;
}

interface ReporterOptions {
  enabled?: boolean;
  provider?: { getCode(address: string): Promise<string> };
  blockLimit?: number;
}

/** What eth-gas-reporter 1 gets from its mocha options: the recorder it hands the collector. */
interface Attachments {
  recordTransaction?: (receipt: { status: string; transactionHash: string }, tx: { hash: string }) => Promise<void>;
}

/**
 * An environment on the in-process nativekit network of this repository (where
 * hardhat-gas-reporter 1, the toolbox 5's, is installed), whose mocha subtask runs `action`.
 * `imported`: whether the config imports hardhat-gas-reporter (then it has its merge task).
 */
function environment(gasReporter: ReporterOptions | undefined, imported: boolean, action: ActionType<{ parallel?: boolean }>) {
  const task: FakeTask = {
    action,
    setAction(next) {
      this.action = next;
      return this;
    },
  };
  const nativekit = resolveNativekitConfig({ loggingEnabled: false });
  const provider = new NativeHardhatProvider(nativekit) as unknown as EthereumProvider;
  const env = {
    tasks: { [TASK_TEST_RUN_MOCHA_TESTS]: task, ...(imported ? { "gas-reporter:merge": {} } : {}) },
    network: { name: NATIVEKIT_NETWORK, config: { url: "http://nativekit.in-process.invalid" }, provider },
    config: { paths: { configFile: path.join(ROOT, "hardhat.config.ts") }, mocha: {}, nativekit, ...(gasReporter === undefined ? {} : { gasReporter }) },
  } as unknown as HardhatRuntimeEnvironment;
  return { env, task, provider };
}

const noSuper = (() => Promise.resolve()) as unknown as RunSuperFunction<{ parallel?: boolean }>;

describe("REPORT_GAS=true npx hardhat test on the nativekit network (hardhat-gas-reporter 1)", function () {
  this.timeout(60_000);

  it("before the tests, the network's provider records each mined transaction the tests fetch into the reporter, and the reporter reads the chain through it", async () => {
    const recorded: string[] = [];
    let options: ReporterOptions | undefined;
    const { env, task, provider } = environment({ enabled: true }, true, async (_args, started) => {
      options = (started.config as { gasReporter?: ReporterOptions }).gasReporter;
      // What eth-gas-reporter's mocha reporter does once mocha makes it.
      (started.config.mocha as { attachments: Attachments }).attachments.recordTransaction = async (receipt) => {
        recorded.push(receipt.transactionHash);
      };
      const [from] = (await started.network.provider.send("eth_accounts", [])) as string[];
      const hash = (await started.network.provider.send("eth_sendTransaction", [{ from, to: from, value: "0x1" }])) as string;
      await started.network.provider.send("eth_getTransactionByHash", [hash]); // what ethers' wait() asks
      recorded.push(`fetched ${hash}`);
    });
    reportGasInProcess(env);
    await task.action({}, env, noSuper);
    expect(env.network.provider).to.not.equal(provider);
    expect(recorded).to.have.length(2);
    expect(recorded[1]).to.equal(`fetched ${recorded[0]}`);
    expect(options!.blockLimit).to.equal(15_000_000);
    expect(await options!.provider!.getCode("0x0000000000000000000000000000000000000001")).to.equal("0x");
  });

  it("with gas reporting off, or a parallel run (which version 1 skips), the tests run on the network's provider as it is", async () => {
    for (const [options, args] of [[{ enabled: false }, {}], [{ enabled: true }, { parallel: true }]] as const) {
      const { env, task, provider } = environment({ ...options }, true, async () => {});
      reportGasInProcess(env);
      await task.action({ ...args }, env, noSuper);
      expect(env.network.provider).to.equal(provider);
      expect((env.config as { gasReporter?: ReporterOptions }).gasReporter).to.deep.equal(options);
    }
  });

  it("installed but not imported by the config, hardhat-gas-reporter changes nothing", async () => {
    const { env, task, provider } = environment(undefined, false, async () => {});
    reportGasInProcess(env);
    await task.action({}, env, noSuper);
    expect(env.network.provider).to.equal(provider);
    expect(env.config.mocha).to.deep.equal({});
  });

  it("the subtask is made to collect once, however many environments are made: each transaction is recorded once", async () => {
    const recorded: string[] = [];
    const { env, task } = environment({ enabled: true }, true, async (_args, started) => {
      (started.config.mocha as { attachments: Attachments }).attachments.recordTransaction = async (receipt) => {
        recorded.push(receipt.transactionHash);
      };
      const [from] = (await started.network.provider.send("eth_accounts", [])) as string[];
      const hash = (await started.network.provider.send("eth_sendTransaction", [{ from, to: from, value: "0x1" }])) as string;
      await started.network.provider.send("eth_getTransactionByHash", [hash]);
    });
    reportGasInProcess(env);
    reportGasInProcess(env);
    await task.action({}, env, noSuper);
    expect(recorded).to.have.length(1);
  });
});
