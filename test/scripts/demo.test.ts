import { expect } from "chai";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

describe("npm run demo", () => {
  it("wraps, transfers and unwraps on the embedded simulator, ending with balances that add up", async () => {
    const root = path.join(__dirname, "..", "..");
    const { stdout } = await run(process.execPath, [path.join(root, "node_modules", "hardhat", "internal", "cli", "cli.js"), "run", "scripts/demo.ts"], {
      cwd: root,
      timeout: 120_000,
    });
    expect(stdout).to.match(/3\. alice wraps 600/);
    expect(stdout).to.match(/5\. bob unwraps 150/);
    expect(stdout).to.match(/adds up/);
    expect(stdout).to.match(/equals its token supply: yes/);
  });
});
