/**
 * hardhat-gas-reporter on the nativekit network.
 *
 * Version 2 (hardhat-toolbox 6's) wraps every network's provider when Hardhat builds it and
 * needs nothing here (provider-placement.ts keeps its wrapper over the engine).
 *
 * Version 1 (hardhat-toolbox 5's) collects gas in one of two ways, chosen when the tests start
 * (its override of the subtask that runs mocha). On the network named "hardhat" it wraps
 * `hre.network.provider` in its data collector, which records each mined transaction the tests
 * wait for, and gives its mocha reporter an in-process API over that provider. On any other
 * network its reporter asks the network's `url` synchronously, block by block — and the
 * nativekit network's URL is a placeholder nothing listens on: the run then ends with
 * "Uncaught error outside test suite" and a table without methods. (Its `fast` option, meant to
 * choose the first way anywhere, is dropped by its reporter's config before it is read.)
 *
 * So on the nativekit network, when gas reporting is on, the subtask first does what version 1
 * does on Hardhat's network, with version 1's own classes: the collector around the network's
 * provider (hardhat-ethers binds the provider at its first use, after this: see
 * fixed-gas-signers.ts), its in-process API and the block gas limit as reporter options, and
 * the attachments through which the reporter hands the collector its recorder. Version 1 then
 * takes its other way, which with those options runs on that provider.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import { TASK_TEST_RUN_MOCHA_TESTS } from "hardhat/builtin-tasks/task-names";
import type { ActionType, EIP1193Provider, EthereumProvider, HardhatRuntimeEnvironment, TaskDefinition } from "hardhat/types";
import { DEFAULT_BLOCK_GAS_LIMIT } from "../engine/defaults";

/** A task hardhat-gas-reporter adds (both versions). */
const GAS_REPORTER_TASK = "gas-reporter:merge";

/** hardhat-gas-reporter 1's options (the toolbox's `gasReporter`), as far as this file uses them. */
interface GasReporterOptions {
  enabled?: boolean;
  /** Its reporter's in-process API over the network (what it sets up on Hardhat's network). */
  provider?: unknown;
  /** The block gas limit its table shows and measures deployments against. */
  blockLimit?: number;
}

/** hardhat-gas-reporter 1's data collection classes (its dist/src/providers). */
interface GasReporterProviders {
  EGRDataCollectionProvider: new (provider: EIP1193Provider, mochaConfig: object) => EIP1193Provider;
  EGRAsyncApiProvider: new (provider: EthereumProvider) => object;
}

type BackwardsCompatibilityAdapter = new (provider: EIP1193Provider) => EthereumProvider;

/** The major version of `name` as the project resolves it, or undefined when it is not installed. */
function installedMajor(projectRequire: NodeJS.Require, name: string): number | undefined {
  try {
    const { version } = JSON.parse(fs.readFileSync(projectRequire.resolve(`${name}/package.json`), "utf8")) as { version?: unknown };
    return typeof version === "string" ? Number.parseInt(version, 10) : undefined;
  } catch {
    return undefined;
  }
}

/** What hardhat-gas-reporter 1 does on Hardhat's network before the tests, done on this one. */
function collectThroughTheProvider(hre: HardhatRuntimeEnvironment, projectRequire: NodeJS.Require, options: GasReporterOptions): void {
  const { EGRDataCollectionProvider, EGRAsyncApiProvider } = projectRequire("hardhat-gas-reporter/dist/src/providers") as GasReporterProviders;
  // The adapter hardhat-gas-reporter 1 itself puts around its collector.
  const { BackwardsCompatibilityProviderAdapter } = projectRequire("hardhat/internal/core/providers/backwards-compatibility") as {
    BackwardsCompatibilityProviderAdapter: BackwardsCompatibilityAdapter;
  };
  const mocha = hre.config.mocha as { attachments?: object };
  mocha.attachments = {};
  hre.network.provider = new BackwardsCompatibilityProviderAdapter(new EGRDataCollectionProvider(hre.network.provider, mocha));
  options.provider ??= new EGRAsyncApiProvider(hre.network.provider);
  options.blockLimit ??= Number(hre.config.nativekit.engine.blockGasLimit ?? DEFAULT_BLOCK_GAS_LIMIT);
}

/** The test runs already made to set gas collection up first. */
const prepared = new WeakSet<TaskDefinition>();

/**
 * Makes hardhat-gas-reporter 1, if the project has it, collect gas through the nativekit
 * network's provider. Done on the mocha subtask's definition once every plugin is loaded (an
 * environment extension), so that it runs before hardhat-gas-reporter's override of that
 * subtask whichever of the two plugins is imported first.
 */
export function reportGasInProcess(hre: HardhatRuntimeEnvironment): void {
  // Installed is not enough: the config must import it (the toolbox does), which adds its task.
  if (hre.tasks[GAS_REPORTER_TASK] === undefined) return;
  const projectRequire = createRequire(hre.config.paths.configFile);
  if (installedMajor(projectRequire, "hardhat-gas-reporter") !== 1) return;
  const task = hre.tasks[TASK_TEST_RUN_MOCHA_TESTS];
  if (task === undefined || prepared.has(task)) return;
  prepared.add(task);
  const action: ActionType<{ parallel?: boolean }> = task.action;
  task.setAction(async (args: { parallel?: boolean }, env, runSuper) => {
    const config = env.config as { gasReporter?: GasReporterOptions };
    // Version 1's defaults: on unless its config says otherwise; it skips parallel runs.
    if ((config.gasReporter?.enabled ?? true) && args.parallel !== true) collectThroughTheProvider(env, projectRequire, (config.gasReporter ??= {}));
    return action(args, env, runSuper);
  });
}
