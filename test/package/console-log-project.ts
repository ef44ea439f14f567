/**
 * Solidity's console.log in a user's project, on the nativekit network next to Hardhat's own:
 * a contract that logs through `hardhat/console.sol` and a test that calls it, for a Hardhat 2
 * project and a Hardhat 3 one. The package journey runs the test on both networks with logging
 * on and compares the logged lines.
 */
/** Files by path in the project. */
type ProjectFiles = Record<string, string>;

/** The test file's path in each project (run alone, so only its lines are compared). */
export const CONSOLE_LOG_TEST = "test/Shouter.ts";

const SHOUTER_SOL = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import "hardhat/console.sol";

contract Shouter {
    event Shouted(uint256 n);

    function shout(uint256 n) external {
        console.log("shouting %s from %s", n, msg.sender);
        console.log("above forty:", n > 40);
        console.log("as bytes32:");
        console.logBytes32(bytes32(n));
        emit Shouted(n);
    }
}
`;

/** What each network prints for the test's call (the first account calls shout(42)). */
export const CONSOLE_LOG_EXPECTED_LINES = [
  "shouting 42 from 0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
  "above forty: true",
  "as bytes32:",
  "0x000000000000000000000000000000000000000000000000000000000000002a",
];

/** The logged lines in a run's output, in order. */
export function consoleLogLines(output: string): string[] {
  const markers = [/^shouting /, /^above forty: /, /^as bytes32:$/, /^0x[0-9a-f]{64}$/];
  return output
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => markers.some((marker) => marker.test(line)));
}

export function hardhat2ConsoleLogFiles(): ProjectFiles {
  return {
    "contracts/Shouter.sol": SHOUTER_SOL,
    [CONSOLE_LOG_TEST]: `import { expect } from "chai";
import { ethers } from "hardhat";

describe("Shouter", () => {
  it("logs through console.log and emits", async () => {
    const shouter = await ethers.deployContract("Shouter");
    await expect(shouter.shout(42)).to.emit(shouter, "Shouted").withArgs(42);
  });
});
`,
  };
}

export function hardhat3ConsoleLogFiles(): ProjectFiles {
  return {
    "contracts/Shouter.sol": SHOUTER_SOL,
    [CONSOLE_LOG_TEST]: `import { expect } from "chai";
import { network } from "hardhat";

const { ethers } = await network.create();

describe("Shouter", () => {
  it("logs through console.log and emits", async () => {
    const shouter = await ethers.deployContract("Shouter");
    await expect(shouter.shout(42)).to.emit(shouter, "Shouted").withArgs(42);
  });
});
`,
  };
}

/** The project's config with nativekit's logging on (the projects keep it off for quiet output). */
export function withLoggingOn(config: string): string {
  const on = config.replace("nativekit: { loggingEnabled: false }", "nativekit: { loggingEnabled: true }");
  if (on === config) throw new Error("the project's hardhat.config.ts has no nativekit: { loggingEnabled: false } to turn on");
  return on;
}
