/**
 * Hardhat 3's `--coverage` and `--gas-stats` on the nativekit network next to Hardhat's own, in
 * the package journey's mocha-ethers project: a contract with branches and a test of it that runs
 * the same on both networks (no precompile), whose coverage table and gas statistics must be
 * the same on both; and the gas statistics of the project's AssetForwarder test (nativekit only:
 * its functions call the native-asset precompiles), which must list every function it calls.
 *
 * Hardhat's network runs the newest hardfork by default and the nativekit network Cancun, and
 * gas differs between them, so the comparison runs Hardhat's network on Cancun too (a config of
 * its own, made from the project's).
 */
import fs from "node:fs";
import path from "node:path";

/** Files by path in the project. */
type ProjectFiles = Record<string, string>;

/** The test file that runs on both networks. */
export const COVERAGE_GAS_TEST = "test/Tally.ts";

/** The config the comparison runs with: the project's, with Hardhat's network on Cancun. */
export const COVERAGE_GAS_CONFIG = "hardhat.cancun.config.ts";
/** The same with the chains in the engine thread. */
export const COVERAGE_GAS_THREAD_CONFIG = "hardhat.cancun.worker-thread.config.ts";

/** The contract whose coverage and gas both networks must report alike, as the tables name it. */
export const TALLY_SOURCE = "contracts/Tally.sol";
export const TALLY_FQN = "contracts/Tally.sol:Tally";

const TALLY_SOL = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Adds up amounts, capped per call: branches for coverage, functions for gas statistics.
contract Tally {
    uint256 public total;
    mapping(address => uint256) public counts;

    event Added(address indexed who, uint256 amount);

    function add(uint256 amount) external {
        require(amount > 0, "nothing to add");
        if (amount > 100) {
            total += 100;
        } else {
            total += amount;
        }
        counts[msg.sender] += 1;
        emit Added(msg.sender, amount);
    }

    function reset() external {
        total = 0;
    }

    /// Never called by the test: its lines stay uncovered on both networks.
    function halve() external {
        total = total / 2;
    }
}
`;

const TALLY_TEST = `import { expect } from "chai";
import { network } from "hardhat";

// The network --network names: nativekit, or Hardhat's own when none is named.
const { ethers } = await network.create();

describe("Tally", () => {
  it("adds amounts, capping each at 100, and counts the calls", async () => {
    const [alice] = await ethers.getSigners();
    const tally = await ethers.deployContract("Tally");
    await (await tally.add(5n)).wait();
    await expect(tally.add(500n)).to.emit(tally, "Added").withArgs(alice.address, 500n);
    expect(await tally.total()).to.equal(105n);
    expect(await tally.counts(alice.address)).to.equal(2n);
  });

  it("refuses nothing to add, and resets", async () => {
    const tally = await ethers.deployContract("Tally");
    await expect(tally.add(0n)).to.be.revertedWith("nothing to add");
    await (await tally.add(7n)).wait();
    await (await tally.reset()).wait();
    expect(await tally.total()).to.equal(0n);
  });
});
`;

export function hardhat3CoverageGasFiles(): ProjectFiles {
  return { [TALLY_SOURCE]: TALLY_SOL, [COVERAGE_GAS_TEST]: TALLY_TEST };
}

/** The project's config with Hardhat's own network (`default`) on Cancun, as the nativekit network runs. */
export function withCancunDefaultNetwork(config: string): string {
  const anchor = "nativekit: { loggingEnabled: false },";
  if (!config.includes(anchor)) throw new Error(`the project's hardhat.config.ts has no "${anchor}" to add the default network after`);
  return config.replace(anchor, `${anchor}\n  networks: { default: { type: "edr-simulated", hardfork: "cancun" } },`);
}

/** The project's config with the chains in the engine thread (`workerThread: true`). */
export function withWorkerThread(config: string): string {
  const anchor = "nativekit: { loggingEnabled: false }";
  if (!config.includes(anchor)) throw new Error(`the config has no "${anchor}" to extend`);
  return config.replace(anchor, "nativekit: { loggingEnabled: false, workerThread: true }");
}

/** The cells of a row of the tables Hardhat draws (║ borders, │ between cells), trimmed; a deployment row's first cell is empty. */
function cellsOf(line: string): string[] {
  const row = line.trim();
  if (!row.startsWith("║") || !row.endsWith("║")) return [];
  return row.slice(1, -1).split("│").map((cell) => cell.trim());
}

function rowsOf(output: string): string[][] {
  // Without the ANSI colours of a terminal.
  // eslint-disable-next-line no-control-regex
  return output.replace(/\u001b\[[0-9;]*m/g, "").split("\n").map(cellsOf).filter((cells) => cells.length > 0);
}

/** The coverage table's row of each file: its line and statement percentages and uncovered lines. */
export function coverageRows(output: string): Record<string, string[]> {
  const rows: Record<string, string[]> = {};
  for (const [file, ...cells] of rowsOf(output)) if (file!.endsWith(".sol") && cells.length === 3) rows[file!] = cells;
  return rows;
}

/** A contract's section of the gas statistics table: min, average, median, max and count of each function and of its deployments. */
export interface GasSection {
  functions: Record<string, string[]>;
  deployment: string[] | undefined;
  bytecodeSize: string | undefined;
}

/** The gas statistics of `fqn` in a run's output, or undefined when the table has no section for it. */
export function gasSection(output: string, fqn: string): GasSection | undefined {
  const rows = rowsOf(output);
  const start = rows.findIndex((cells) => cells.length === 1 && cells[0] === fqn);
  if (start === -1) return undefined;
  const section: GasSection = { functions: {}, deployment: undefined, bytecodeSize: undefined };
  for (const [name, ...cells] of rows.slice(start + 1)) {
    if (cells.length === 0) break; // the next contract's header
    if (name === "Function name" || name === "Deployment") continue;
    if (name === "Bytecode size") section.bytecodeSize = cells[0];
    else if (cells.length === 5 && name === "") section.deployment = cells;
    else if (cells.length === 5) section.functions[name!] = cells;
  }
  return section;
}

/** What the Tally test covers on either network: all of Tally.sol but halve()'s line. */
export const TALLY_COVERAGE = ["87.50", "90.00", "28"];
/** The functions the Tally test calls, with how often (the views by eth_call), and its deployments. */
export const TALLY_CALLS: Record<string, string> = { add: "3", counts: "1", reset: "1", total: "2" };
export const TALLY_DEPLOYMENTS = "2";

/** The functions of the project's AssetForwarder test the nativekit network must measure: they call the precompiles. */
export const ASSET_FORWARDER_FUNCTIONS = ["forward", "held", "wrap"];

/** How the journey runs Hardhat in the project: `npx hardhat <args>`, returning the output of a run that passed. */
export type RunHardhat = (args: string[]) => Promise<string>;

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/**
 * Runs the Tally test with `--coverage` and with `--gas-stats` on Hardhat's network and on the
 * nativekit network (on Hardhat's thread and in the engine thread), and the AssetForwarder test
 * with `--gas-stats` on the nativekit network; throws at the first difference. Writes the files it
 * needs into the project first (the mocha-ethers project, with the journey's hardhat.config.ts).
 * Returns the tables it compared, for the journey's log.
 */
export async function checkCoverageAndGasStats(project: string, hardhat: RunHardhat): Promise<string[]> {
  for (const [file, content] of Object.entries(hardhat3CoverageGasFiles())) {
    fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
    fs.writeFileSync(path.join(project, file), content);
  }
  const cancun = withCancunDefaultNetwork(fs.readFileSync(path.join(project, "hardhat.config.ts"), "utf8"));
  fs.writeFileSync(path.join(project, COVERAGE_GAS_CONFIG), cancun);
  fs.writeFileSync(path.join(project, COVERAGE_GAS_THREAD_CONFIG), withWorkerThread(cancun));
  const lcov = () => fs.readFileSync(path.join(project, "coverage", "lcov.info"), "utf8");
  const runs = [
    { name: "Hardhat's network", args: ["--config", COVERAGE_GAS_CONFIG] },
    { name: "the nativekit network", args: ["--config", COVERAGE_GAS_CONFIG, "--network", "nativekit"] },
    { name: "the nativekit network in the engine thread", args: ["--config", COVERAGE_GAS_THREAD_CONFIG, "--network", "nativekit"] },
  ];
  const shown: string[] = [];

  let expectedLcov: string | undefined;
  for (const { name, args } of runs) {
    const output = await hardhat([...args.slice(0, 2), "test", "mocha", COVERAGE_GAS_TEST, "--coverage", ...args.slice(2)]);
    const row = coverageRows(output)[TALLY_SOURCE];
    check(JSON.stringify(row) === JSON.stringify(TALLY_COVERAGE), `--coverage on ${name}: ${TALLY_SOURCE} reported ${JSON.stringify(row)}, expected ${JSON.stringify(TALLY_COVERAGE)}`);
    expectedLcov ??= lcov();
    check(lcov() === expectedLcov, `--coverage on ${name}: coverage/lcov.info differs from Hardhat's network's`);
    shown.push(`--coverage on ${name}: ${TALLY_SOURCE} ${row.join(" | ")}`);
  }

  let expectedGas: string | undefined;
  for (const { name, args } of runs) {
    const output = await hardhat([...args.slice(0, 2), "test", "mocha", COVERAGE_GAS_TEST, "--gas-stats", ...args.slice(2)]);
    const section = gasSection(output, TALLY_FQN);
    check(section !== undefined, `--gas-stats on ${name}: no section for ${TALLY_FQN}`);
    const calls = Object.fromEntries(Object.entries(section.functions).map(([fn, cells]) => [fn, cells[4]]));
    check(JSON.stringify(calls) === JSON.stringify(TALLY_CALLS), `--gas-stats on ${name}: calls ${JSON.stringify(calls)}, expected ${JSON.stringify(TALLY_CALLS)}`);
    check(section.deployment?.[4] === TALLY_DEPLOYMENTS, `--gas-stats on ${name}: deployments ${JSON.stringify(section.deployment)}`);
    expectedGas ??= JSON.stringify(section);
    check(JSON.stringify(section) === expectedGas, `--gas-stats on ${name}: ${JSON.stringify(section)}, on Hardhat's network ${expectedGas}`);
    shown.push(`--gas-stats on ${name}: ${JSON.stringify(section)}`);
  }

  const output = await hardhat(["test", "mocha", "test/AssetForwarder.ts", "--gas-stats", "--network", "nativekit"]);
  const forwarder = gasSection(output, "contracts/AssetForwarder.sol:AssetForwarder");
  check(forwarder !== undefined, "--gas-stats of the AssetForwarder test: no section for contracts/AssetForwarder.sol:AssetForwarder");
  const measured = Object.keys(forwarder.functions).sort();
  check(JSON.stringify(measured) === JSON.stringify(ASSET_FORWARDER_FUNCTIONS), `--gas-stats of the AssetForwarder test measured ${JSON.stringify(measured)}, expected ${JSON.stringify(ASSET_FORWARDER_FUNCTIONS)}`);
  check(forwarder.deployment !== undefined, "--gas-stats of the AssetForwarder test measured no deployment of AssetForwarder");
  shown.push(`--gas-stats of AssetForwarder (precompile calls) on the nativekit network: ${JSON.stringify(forwarder)}`);
  return shown;
}
