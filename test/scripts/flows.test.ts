import { expect } from "chai";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const root = path.join(__dirname, "..", "..");
const hardhatCli = path.join(root, "node_modules", "hardhat", "internal", "cli", "cli.js");

async function hardhatRun(script: string, env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [hardhatCli, "run", script], { cwd: root, timeout: 120_000, env: { ...process.env, ...env } });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

describe("flow scripts on the in-process network", function () {
  this.timeout(120_000);

  it("scripts/deposit.ts deploys the wrapper and wraps the amount", async () => {
    const { stdout, code } = await hardhatRun("scripts/deposit.ts", { AMOUNT: "250" });
    expect(code).to.equal(0);
    expect(stdout).to.match(/Wrapped 0\.00025 WDEMO/);
    expect(stdout).to.match(/wrapped balance 250/);
  });

  it("scripts/withdraw.ts wraps then withdraws, ending where it started", async () => {
    const { stdout, code } = await hardhatRun("scripts/withdraw.ts", { AMOUNT: "70" });
    expect(code).to.equal(0);
    expect(stdout).to.match(/Unwrapped 0\.00007 WDEMO/);
    expect(stdout).to.match(/asset balance 1000000, wrapped balance 0/);
  });

  it("a bad AMOUNT is reported in the script's own terms, with a non-zero exit", async () => {
    const { stderr, code } = await hardhatRun("scripts/deposit.ts", { AMOUNT: "ten" });
    expect(code).to.not.equal(0);
    expect(stderr).to.match(/error: AMOUNT: "ten" is not a whole number/);
  });
});
