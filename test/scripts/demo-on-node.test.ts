import { expect } from "chai";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { startedCliNode, type CliNode } from "../helpers/cli-node";
import { alive } from "../helpers/processes";

const run = promisify(execFile);
const root = path.join(__dirname, "..", "..");

describe("npm run demo against a running node (NATIVEKIT_NODE_URL)", function () {
  this.timeout(240_000);
  let node: CliNode;

  before(async () => {
    node = await startedCliNode(["--explorer", "--silent"]);
  });
  after(async () => {
    await node?.stop();
    expect(alive(node.pid)).to.equal(false);
  });

  it("runs the journey on that node, and the node's explorer shows the asset it created", async () => {
    const { stdout } = await run(process.execPath, [path.join(root, "node_modules", "hardhat", "internal", "cli", "cli.js"), "run", "--no-compile", "scripts/demo.ts"], {
      cwd: root,
      timeout: 180_000,
      env: { ...process.env, NATIVEKIT_NODE_URL: node.url },
    });
    expect(stdout).to.include(`on the node at ${node.url}`);
    const assetID = /1\. create the fixed-cap asset GOLD on the exchange chain: (\S+)/.exec(stdout)![1]!;
    expect(stdout).to.match(/= 1 000 000\.00 GOLD of 1 000 000\.00 GOLD created: adds up/);
    const deadline = Date.now() + 60_000;
    let answer: { symbol?: string; currentSupply?: string } = {};
    while (answer.symbol === undefined && Date.now() < deadline) {
      const response = await fetch(`${node.url}/explorer/v2/assets/${assetID}`);
      if (response.status === 200) answer = (await response.json()) as typeof answer;
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(answer).to.include({ symbol: "GOLD", currentSupply: "100000000" });
  });
});
