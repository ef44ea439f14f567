/**
 * The toolbox's coverage and gas reports in a user's Hardhat 2 project, on the nativekit network
 * next to Hardhat's own: `npx hardhat coverage` (solidity-coverage) and `REPORT_GAS=true npx
 * hardhat test` (hardhat-gas-reporter).
 *
 * The project gets Hardhat 2's sample contract and test (Lock, from the installed hardhat's
 * sample project, as `npx hardhat init` writes them) and a contract whose state-changing method
 * reads a balance through the nativeAssetBalance precompile, with a test that leaves one of its
 * branches and one of its functions unrun. Then:
 *
 * - coverage: the whole suite on the nativekit network passes under coverage, and its table
 *   gives Lock, the precompile-calling contracts and the partly run one the figures expected;
 *   Lock's table row and its hit counts (coverage.json) are those of Lock's test run under
 *   coverage on Hardhat's network (solidity-coverage refuses `--network`: a second config makes
 *   Hardhat's network the default);
 * - gas: the whole suite on the nativekit network lists the methods its tests send transactions
 *   to, the precompile-calling ones included, and the contracts they deploy; the rows of Lock
 *   and Shouter (console.log) are those of their tests run on Hardhat's network. The table is
 *   read in the layout of hardhat-gas-reporter 1 (the toolbox 5's) and 2 (the toolbox 6's).
 *
 * Strings, not files under test/: this repository's `hardhat test` and `tsc` take every .ts file
 * under test/, and these belong to the user's project.
 */
import fs from "node:fs";
import path from "node:path";

/** Files by path in the project. */
export type ProjectFiles = Record<string, string>;

/** Runs `npx hardhat <args>` in the project with `env` added, and returns the output of a run that exited 0 (else throws). */
export type RunHardhat = (args: string[], env?: Record<string, string>) => Promise<string>;

/** The config that makes Hardhat's network the default: solidity-coverage runs on the default network. */
export const HARDHAT_NETWORK_CONFIG = "hardhat.hardhat-network.config.ts";

const ASSET_TALLY_SOL = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {NativeAssets} from "nativekit/contracts/NativeAssets.sol";

/// Notes accounts' balances of one native asset, and pays out what it holds.
contract AssetTally {
    uint256 public immutable assetID;
    mapping(address => uint256) public lastSeen;

    error NothingHeld(address account);

    constructor(uint256 assetID_) {
        assetID = assetID_;
    }

    /// Notes \`account\`'s balance of the asset (the nativeAssetBalance precompile).
    function record(address account) external returns (uint256 balance) {
        balance = NativeAssets.assetBalance(account, assetID);
        if (balance == 0) revert NothingHeld(account);
        lastSeen[account] = balance;
    }

    /// Pays \`amount\` of the asset to \`to\` (the nativeAssetCall precompile).
    function pay(address to, uint256 amount) external {
        NativeAssets.assetCall(to, assetID, amount, "");
    }
}
`;

// Only record() with a balance: NothingHeld's branch and pay() stay unrun, so the coverage
// table's figures for this file show what was run, not just that something was.
const ASSET_TALLY_TEST = `import { expect } from "chai";
import { ethers, network } from "hardhat";

const ASSET = "0x" + "7b".repeat(32);

describe("AssetTally on the nativekit network", function () {
  it("notes an account's balance of the asset (nativeAssetBalance)", async function () {
    const [alice] = await ethers.getSigners();
    await network.provider.send("nativekit_setAssetBalance", [alice.address, ASSET, ethers.toQuantity(700n)]);
    const tally = await ethers.deployContract("AssetTally", [ASSET]);
    await (await tally.record(alice.address)).wait();
    expect(await tally.lastSeen(alice.address)).to.equal(700n);
  });
});
`;

/** Hardhat 2's sample Lock contract and test, as the installed hardhat's `npx hardhat init` writes them. */
function hardhatSampleLock(): ProjectFiles {
  const sample = path.join(path.dirname(require.resolve("hardhat/package.json")), "sample-projects", "typescript");
  return {
    "contracts/Lock.sol": fs.readFileSync(path.join(sample, "contracts", "Lock.sol"), "utf8"),
    "test/Lock.ts": fs.readFileSync(path.join(sample, "test", "Lock.ts"), "utf8"),
  };
}

/** The project's config with Hardhat's network as the default network. */
function withHardhatNetworkDefault(config: string): string {
  const marker = "const config: HardhatUserConfig = {\n";
  if (!config.includes(marker)) throw new Error(`the project's hardhat.config.ts has no "${marker.trim()}" to add defaultNetwork to`);
  return config.replace(marker, `${marker}  defaultNetwork: "hardhat",\n`);
}

/** The files to add to the Hardhat 2 user project, given its hardhat.config.ts. */
export function hardhat2CoverageGasFiles(projectConfig: string): ProjectFiles {
  return {
    ...hardhatSampleLock(),
    "contracts/AssetTally.sol": ASSET_TALLY_SOL,
    "test/AssetTally.ts": ASSET_TALLY_TEST,
    [HARDHAT_NETWORK_CONFIG]: withHardhatNetworkDefault(projectConfig),
  };
}

/** Writes those files into the project at `project` (its hardhat.config.ts already there). */
export function addHardhat2CoverageGasFiles(project: string): void {
  const files = hardhat2CoverageGasFiles(fs.readFileSync(path.join(project, "hardhat.config.ts"), "utf8"));
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
    fs.writeFileSync(path.join(project, file), content);
  }
}

// ---------------------------------------------------------------------------------------------
// solidity-coverage's output

/** A file's row of the coverage table: % statements, % branches, % functions, % lines, uncovered lines. */
type CoverageRow = [string, string, string, string, string];

function withoutColours(output: string): string {
  return output.replace(/\x1b\[[0-9;]*m/g, "");
}

/** The coverage table's rows by file name (`Lock.sol`, and `contracts/` for the folder). */
export function coverageTable(output: string): Map<string, CoverageRow> {
  const rows = new Map<string, CoverageRow>();
  for (const line of withoutColours(output).split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    if (cells.length !== 7 || !/^\S+\.sol$|\/$/.test(cells[0]!)) continue;
    rows.set(cells[0]!, cells.slice(1, 6) as CoverageRow);
  }
  return rows;
}

/** The hit counts coverage.json holds for a source file (its path from the project): statements, branches, functions, lines. */
function hitsOf(project: string, file: string): unknown {
  const report = JSON.parse(fs.readFileSync(path.join(project, "coverage.json"), "utf8")) as Record<string, { s: unknown; b: unknown; f: unknown; l: unknown }>;
  const entry = report[file];
  if (entry === undefined) throw new Error(`coverage.json has no entry for ${file}`);
  return { s: entry.s, b: entry.b, f: entry.f, l: entry.l };
}

/**
 * What the nativekit network's coverage table must show for the project's files: all of what
 * the tests run. In AssetTally, record()'s `if` ran without its revert and pay() did not run:
 * statements 1 of 2 (solidity-coverage counts the `if` and pay()'s call), branches 1 of 2,
 * functions 2 of 3 (the constructor, record, not pay), lines 4 of 5 (not line 26, pay()'s).
 */
const EXPECTED_COVERAGE: Record<string, CoverageRow> = {
  "Lock.sol": ["100", "100", "100", "100", ""],
  "AssetForwarder.sol": ["100", "100", "100", "100", ""],
  "Shouter.sol": ["100", "100", "100", "100", ""],
  "AssetTally.sol": ["50", "50", "66.67", "80", "26"],
};

function expectRow(table: Map<string, CoverageRow>, file: string, expected: CoverageRow, where: string): void {
  const row = table.get(file);
  if (JSON.stringify(row) !== JSON.stringify(expected)) throw new Error(`${where}: ${file}'s coverage row is ${JSON.stringify(row)}, expected ${JSON.stringify(expected)}`);
}

/**
 * `npx hardhat coverage` on the nativekit network, then Lock's test under coverage on Hardhat's
 * network: throws unless both pass and the tables and hit counts agree as the header says.
 * Returns both tables, to print.
 */
export async function checkCoverage(run: RunHardhat, project: string): Promise<string> {
  const nativekit = await run(["coverage"]);
  if (!/^> network:\s+nativekit$/m.test(withoutColours(nativekit))) throw new Error("npx hardhat coverage did not run on the nativekit network");
  const nativekitTable = coverageTable(nativekit);
  for (const [file, row] of Object.entries(EXPECTED_COVERAGE)) expectRow(nativekitTable, file, row, "the nativekit network");
  const nativekitLockHits = hitsOf(project, "contracts/Lock.sol");

  const hardhat = await run(["--config", HARDHAT_NETWORK_CONFIG, "coverage", "--testfiles", "test/Lock.ts"]);
  if (!/^> network:\s+hardhat$/m.test(withoutColours(hardhat))) throw new Error("the coverage run with Hardhat's network as the default did not run on it");
  expectRow(coverageTable(hardhat), "Lock.sol", nativekitTable.get("Lock.sol")!, "Hardhat's network");
  const hardhatLockHits = hitsOf(project, "contracts/Lock.sol");
  if (JSON.stringify(hardhatLockHits) !== JSON.stringify(nativekitLockHits)) {
    throw new Error(`Lock.sol's hit counts differ: nativekit ${JSON.stringify(nativekitLockHits)}, Hardhat's network ${JSON.stringify(hardhatLockHits)}`);
  }
  const tableOf = (output: string) => withoutColours(output).split("\n").filter((line) => line.trimEnd().endsWith("|")).join("\n");
  return `nativekit:\n${tableOf(nativekit)}\nHardhat's network (test/Lock.ts):\n${tableOf(hardhat)}`;
}

// ---------------------------------------------------------------------------------------------
// hardhat-gas-reporter's output

/** A method's row of the gas table: min, max, avg, # calls ("-" for min and max when all calls cost the same). */
interface MethodGas {
  min: string;
  max: string;
  avg: string;
  calls: number;
}

export interface GasTable {
  /** By "Contract.method". */
  methods: Map<string, MethodGas>;
  /** Average gas of each contract's deployments, by contract name. */
  deployments: Map<string, string>;
}

/**
 * The gas table hardhat-gas-reporter prints after the tests. Version 1 (toolbox 5) gives each
 * method a row "Contract · method · min · max · avg · # calls · usd"; version 2 (toolbox 6) a row
 * for the contract, then "method · min · max · avg · # calls · usd" rows (a view's name marked
 * ◯, numbers with thousands separators). Deployments are "Contract · min · max · avg · % · usd" in both.
 */
export function gasTable(output: string): GasTable {
  const table: GasTable = { methods: new Map(), deployments: new Map() };
  const number = (cell: string) => cell.replace(/,/g, "");
  let section: "methods" | "deployments" | undefined;
  let contract = "";
  for (const line of withoutColours(output).split("\n")) {
    const cells = line
      .split(/[|·│]/)
      .map((cell) => cell.trim())
      .filter((_cell, i, all) => i > 0 && i < all.length - 1);
    if (cells[0] === "Methods") section = "methods";
    else if (cells[0] === "Deployments") section = "deployments";
    else if (cells[0] === "Key") section = undefined;
    else if (section === "methods" && cells.length === 2 && cells[1] === "") contract = cells[0]!;
    else if (section === "methods" && (cells.length === 7 || cells.length === 6) && !/^Contract/.test(cells[0]!)) {
      const [name, method, min, max, avg, calls] = cells.length === 7 ? cells : [contract, cells[0]!.replace(/^◯\s*/, ""), ...cells.slice(1)];
      table.methods.set(`${name}.${method}`, { min: number(min!), max: number(max!), avg: number(avg!), calls: Number(calls) });
    } else if (section === "deployments" && cells.length === 6) table.deployments.set(cells[0]!, number(cells[3]!));
  }
  return table;
}

/** Methods the suite sends transactions to that call the native-asset precompiles: Hardhat's network cannot run them. */
const PRECOMPILE_METHODS = ["AssetForwarder.forward", "AssetForwarder.wrap", "AssetTally.record"];
/** Contracts whose tests run on both networks: their rows must be the same on both. */
const ON_BOTH_NETWORKS = { tests: ["test/Lock.ts", "test/Shouter.ts"], methods: ["Lock.withdraw", "Shouter.shout"], deployments: ["Lock", "Shouter"] };
/**
 * Lock's constructor takes its unlock time, the latest block's timestamp plus a year, each network's
 * own clock: a zero byte in it costs 4 gas of calldata, a non-zero one 16. Of a 2026 timestamp's
 * four bytes the lower three can be zero (one second in 256, 256 seconds in 65,536, ...), so its
 * deployment may cost 12, 24 or 36 gas less on one network than on the other, and nothing else may differ.
 */
const TIME_BYTES_IN_CONSTRUCTOR: Record<string, number> = { Lock: 3 };
const CALLDATA_ZERO_BYTE_SAVING = 16 - 4;

function sameDeploymentGas(name: string, onNativekit: string | undefined, onHardhat: string | undefined): boolean {
  if (onNativekit === undefined || onHardhat === undefined) return false;
  const difference = Math.abs(Number(onNativekit) - Number(onHardhat));
  const timeBytes = TIME_BYTES_IN_CONSTRUCTOR[name] ?? 0;
  return difference % CALLDATA_ZERO_BYTE_SAVING === 0 && difference <= timeBytes * CALLDATA_ZERO_BYTE_SAVING;
}

/** Deployments the whole suite makes besides those (nativekit's wrapper, through the user's test). */
const DEPLOYED_ON_NATIVEKIT = ["AssetForwarder", "AssetTally", "WrappedNativeAsset"];

/**
 * `REPORT_GAS=true npx hardhat test` on the nativekit network, then Lock's and Shouter's tests
 * on Hardhat's network: throws unless the tables list what the header says. Returns both
 * tables, to print.
 */
export async function checkGasReport(run: RunHardhat): Promise<string> {
  const nativekitOutput = await run(["test"], { REPORT_GAS: "true" });
  const nativekit = gasTable(nativekitOutput);
  const hardhatOutput = await run(["test", ...ON_BOTH_NETWORKS.tests, "--network", "hardhat"], { REPORT_GAS: "true" });
  const hardhat = gasTable(hardhatOutput);

  // hardhat-gas-reporter 1 counts a transaction once each time the test fetches it (Shouter's
  // one shout() counts 2 on Hardhat's network too): the counts are compared, not predicted.
  const rows = (table: GasTable) => ({
    methods: ON_BOTH_NETWORKS.methods.map((method) => [method, table.methods.get(method)]),
    deployments: ON_BOTH_NETWORKS.deployments.map((name) => [name, table.deployments.get(name)]),
  });
  const differs = ON_BOTH_NETWORKS.methods.some((method) => JSON.stringify(nativekit.methods.get(method)) !== JSON.stringify(hardhat.methods.get(method)))
    || ON_BOTH_NETWORKS.deployments.some((name) => !sameDeploymentGas(name, nativekit.deployments.get(name), hardhat.deployments.get(name)));
  if (differs) throw new Error(`the gas tables differ: nativekit ${JSON.stringify(rows(nativekit))}, Hardhat's network ${JSON.stringify(rows(hardhat))}`);
  for (const method of [...ON_BOTH_NETWORKS.methods, ...PRECOMPILE_METHODS]) {
    const row = nativekit.methods.get(method);
    if (row === undefined) throw new Error(`the nativekit network's gas table does not list ${method} (it lists ${[...nativekit.methods.keys()].join(", ")})`);
    if (!(row.calls >= 1 && Number(row.avg) > 21_000)) throw new Error(`the nativekit network's gas table has ${method} as ${JSON.stringify(row)}`);
  }
  const missing = [...ON_BOTH_NETWORKS.deployments, ...DEPLOYED_ON_NATIVEKIT].filter((name) => !(Number(nativekit.deployments.get(name)) > 0));
  if (missing.length > 0) throw new Error(`the nativekit network's gas table lists no deployment of ${missing.join(", ")}`);
  const tableOf = (output: string) => withoutColours(output).split("\n").filter((line) => /^[|·]/.test(line)).join("\n");
  return `nativekit:\n${tableOf(nativekitOutput)}\nHardhat's network (${ON_BOTH_NETWORKS.tests.join(", ")}):\n${tableOf(hardhatOutput)}`;
}
