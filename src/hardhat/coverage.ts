/**
 * `npx hardhat coverage` (solidity-coverage 0.8) on the nativekit network.
 *
 * solidity-coverage runs the tests on the default network (it refuses `--network`) when that
 * network is already set up for instrumented code: contracts of any size, a block gas limit and
 * a transaction gas limit far above the usual (every statement of the instrumented code costs
 * gas), a gas price of 1 and a base fee of 0 — the values of its API (`solidity-coverage/api`:
 * `gasLimit`, `gasLimitNumber`, `gasPrice`), compared with the network's config. Otherwise it
 * starts a fresh Hardhat network and points `hre.network` at it, and a suite on the nativekit
 * network fails (its transactions keep the instrumented code's gas limit against the nativekit
 * network's 15 000 000 block gas limit, and nothing is collected).
 *
 * So when the coverage task starts on the nativekit network, the network's config and the
 * engine's options (the engine starts at the first request, after this) are given those values.
 * solidity-coverage then keeps the network and collects its hits from the EVM's step events,
 * which the engine emits where solidity-coverage looks for them on Hardhat's network (see
 * hardhat-node-events.ts).
 */
import { createRequire } from "node:module";
import type { ActionType, HardhatRuntimeEnvironment, TaskDefinition } from "hardhat/types";

/** The task solidity-coverage adds. */
const COVERAGE_TASK = "coverage";

/** What solidity-coverage's API (`new API(config, hardfork)`) says a network for coverage needs. */
interface CoverageGas {
  /** Gas limit of a transaction that names none. */
  gasLimit: number;
  /** Block gas limit. */
  gasLimitNumber: number;
  gasPrice: number;
}

type CoverageApi = new (config: object, hardfork?: string) => CoverageGas;

/** The fields of the network's config that solidity-coverage compares (HttpNetworkConfig has some of them). */
interface CoverageNetworkConfig {
  allowUnlimitedContractSize?: boolean;
  blockGasLimit?: number;
  gas: number | "auto";
  gasPrice: number | "auto";
  initialBaseFeePerGas?: number;
}

/** solidity-coverage's API class as the project resolves it, or undefined without solidity-coverage. */
function coverageApi(configFile: string): CoverageApi | undefined {
  let resolved: string;
  try {
    resolved = createRequire(configFile).resolve("solidity-coverage/api");
  } catch {
    return undefined;
  }
  return createRequire(configFile)(resolved) as CoverageApi;
}

/** Gives the nativekit network (its config and its engine's options) solidity-coverage's values. */
function setUpForCoverage(hre: HardhatRuntimeEnvironment): void {
  const Api = coverageApi(hre.config.paths.configFile);
  if (Api === undefined) return; // a `coverage` task of another plugin: not ours to prepare for
  // solidity-coverage makes its API with the Hardhat network's hardfork (which sets the gas limit).
  const { gasLimit, gasLimitNumber, gasPrice } = new Api({}, hre.config.networks.hardhat.hardfork);
  const network = hre.network.config as CoverageNetworkConfig;
  network.allowUnlimitedContractSize = true;
  network.blockGasLimit = gasLimitNumber;
  network.gas = gasLimit;
  network.gasPrice = gasPrice;
  network.initialBaseFeePerGas = 0;
  const engine = hre.config.nativekit.engine;
  engine.allowUnlimitedContractSize = true;
  engine.blockGasLimit = BigInt(gasLimitNumber);
  engine.minBaseFeePerGas = 0n;
}

/** The coverage tasks already made to set the network up first. */
const prepared = new WeakSet<TaskDefinition>();

/**
 * Makes the `coverage` task, if the project has one, set up the nativekit network before its
 * own action runs. Done on the task's definition once every plugin is loaded (an environment
 * extension), not by overriding the task: solidity-coverage's task does not call the one it
 * overrides, so an override of ours would be lost whenever the toolbox is imported after
 * nativekit.
 */
export function runCoverageOnNativekit(hre: HardhatRuntimeEnvironment): void {
  const task = hre.tasks[COVERAGE_TASK];
  if (task === undefined || prepared.has(task)) return;
  prepared.add(task);
  const action: ActionType<unknown> = task.action;
  task.setAction(async (args, env, runSuper) => {
    setUpForCoverage(env);
    return action(args, env, runSuper);
  });
}
