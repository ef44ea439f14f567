import { expect } from "chai";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

describe("npm run demo", () => {
  it("takes an asset from the exchange chain through a wrapper and back on the embedded node, ending with balances that add up", async () => {
    const root = path.join(__dirname, "..", "..");
    const { stdout } = await run(process.execPath, [path.join(root, "node_modules", "hardhat", "internal", "cli", "cli.js"), "run", "scripts/demo.ts"], {
      cwd: root,
      timeout: 120_000,
    });
    expect(stdout).to.match(/1\. create the fixed-cap asset GOLD on the exchange chain/);
    expect(stdout).to.match(/cvm\.import \S+: Accepted/);
    expect(stdout).to.match(/wraps 400 000\.00 GOLD \(nativeAssetCall \+ deposit, one transaction\)/);
    expect(stdout).to.match(/xvm\.import \S+: Accepted/);
    expect(stdout).to.match(/= 1 000 000\.00 GOLD of 1 000 000\.00 GOLD created: adds up/);
    // One format for every amount, with its unit: no raw units ("export 60000000 of GOLD").
    expect(stdout).to.match(/^export 600 000\.00 GOLD from the exchange chain to C-local1/m);
    expect(stdout).not.to.match(/\d+ of (GOLD|AVAX)/);
    expect(stdout).to.match(/the wrapper holds exactly its token supply: yes/);
  });
});
