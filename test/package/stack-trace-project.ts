/**
 * Solidity stack traces in a user's project, on the nativekit network next to Hardhat's own: a
 * time lock that fails in the ways tests meet (a reason, a custom error, a panic, a failure in a
 * called contract), and a forwarder whose nativeAssetCall reaches a failing contract (only on
 * the nativekit network: Hardhat's has no precompiles). The test prints, for each failure, the
 * message and the Solidity frames of the error's stack, one `STACK <label> <json>` line each; the
 * package journey runs it on both networks and compares the lines.
 */
type ProjectFiles = Record<string, string>;

export const STACK_TRACE_TEST = "test/StackTraces.ts";

const TIME_LOCK_SOL = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {NativeAssets} from "nativekit/contracts/NativeAssets.sol";

contract TimeLock {
    error TooEarly(uint256 now_, uint256 unlockTime);

    uint256 public unlockTime = block.timestamp + 1 days;

    function withdraw() external view {
        require(block.timestamp >= unlockTime, "You can't withdraw yet");
    }

    function withdrawOrSay() external view {
        if (block.timestamp < unlockTime) revert TooEarly(block.timestamp, unlockTime);
    }

    function share(uint256 parts) external view returns (uint256) {
        return unlockTime / parts;
    }
}

contract TimeLockCaller {
    function withdrawFrom(TimeLock lock) external view {
        lock.withdraw();
    }

    function withdrawThroughPrecompile(TimeLock lock) external {
        NativeAssets.assetCall(address(lock), 0, 0, abi.encodeCall(TimeLock.withdraw, ()));
    }
}
`;

/** The test's body, shared by both majors: `ethers` is in scope. */
const TEST_BODY = `
/** The message and the Solidity frames (\`at C.f (contracts/...)\`) of an error's stack. */
function solidityLines(error: Error): string[] {
  const frames = (error.stack ?? "").split("\\n").map((line) => line.trim()).filter((line) => /^at \\S+ \\((contracts|nativekit|npm)\\/[^)]+\\)$/.test(line) || /^at <.*precompile>/.test(line));
  return [error.message, ...frames];
}

/** The first stack line after the Solidity frames: where the JavaScript stack starts. */
function firstJavaScriptFrame(error: Error): string {
  return (error.stack ?? "").split("\\n").slice(1).map((line) => line.trim()).find((line) => line.startsWith("at ") && !/\\((contracts|nativekit|npm)\\/|^at <|^at \\S+\\.\\S+$/.test(line)) ?? "";
}

async function printFailure(label: string, attempt: () => Promise<unknown>): Promise<void> {
  try {
    await attempt();
  } catch (error) {
    console.log(\`STACK \${label} \${JSON.stringify(solidityLines(error as Error))}\`);
    console.log(\`STACK-JS \${label} \${firstJavaScriptFrame(error as Error)}\`);
    return;
  }
  throw new Error(\`\${label} did not fail\`);
}

describe("stack traces", () => {
  it("prints each failure's Solidity stack", async () => {
    const lock = await ethers.deployContract("TimeLock");
    const caller = await ethers.deployContract("TimeLockCaller");
    await printFailure("reason", () => lock.withdraw());
    await printFailure("custom-error", () => lock.withdrawOrSay());
    await printFailure("panic", () => lock.share(0));
    await printFailure("nested", () => caller.withdrawFrom(lock));
    if ((await ethers.provider.getNetwork()).chainId === 43112n) {
      await printFailure("precompile", () => caller.withdrawThroughPrecompile(lock));
    }
  });
});
`;

/** The failures both networks print, with the same message and frames. */
export const SAME_STACK_TRACE_LABELS = ["reason", "custom-error", "panic", "nested"];

/**
 * The lines with what differs from run to run masked: the custom error's arguments are the
 * block's timestamp and the unlock time.
 */
export function comparableLines(lines: readonly string[] | undefined): string[] | undefined {
  return lines?.map((line) => line.replace(/TooEarly\(\d+, \d+\)/, "TooEarly(<now>, <unlock time>)"));
}

/** What only the nativekit network prints: the call through nativeAssetCall (Hardhat's network has no precompiles). */
export function precompileStackIsShown(lines: readonly string[] | undefined, sourceName = "contracts/TimeLock.sol"): boolean {
  if (lines === undefined) return false;
  return (
    lines[0] === "VM Exception while processing transaction: reverted with reason string 'You can't withdraw yet'" &&
    JSON.stringify(lines.slice(1, 3)) === JSON.stringify([`at TimeLock.withdraw (${sourceName}:12)`, "at <NativeAssetCall precompile>.<precompile>"]) &&
    /^at NativeAssets\.assetCall \((npm\/)?nativekit(@[^/]+)?\/contracts\/NativeAssets\.sol:\d+\)$/.test(lines[3] ?? "")
  );
}

/** `STACK <label> <json>` lines of a run's output, by label. */
export function stackTraceLines(output: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const line of output.split("\n")) {
    const match = line.trim().match(/^STACK (\S+) (\[.*\])$/);
    if (match !== null) found.set(match[1]!, JSON.parse(match[2]!) as string[]);
  }
  return found;
}

/** `STACK-JS <label> <frame>` lines: where each failure's JavaScript stack starts. */
export function javaScriptStackStarts(output: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of output.split("\n")) {
    const match = line.trim().match(/^STACK-JS (\S+) (.*)$/);
    if (match !== null) found.set(match[1]!, match[2]!);
  }
  return found;
}

export function hardhat2StackTraceFiles(): ProjectFiles {
  return {
    "contracts/TimeLock.sol": TIME_LOCK_SOL,
    [STACK_TRACE_TEST]: `import { ethers } from "hardhat";\n${TEST_BODY}`,
  };
}

export function hardhat3StackTraceFiles(): ProjectFiles {
  return {
    "contracts/TimeLock.sol": TIME_LOCK_SOL,
    [STACK_TRACE_TEST]: `import { network } from "hardhat";\n\nconst { ethers } = await network.create();\n${TEST_BODY}`,
  };
}
