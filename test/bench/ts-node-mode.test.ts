import { execFileSync } from "node:child_process";
import path from "node:path";

import { expect } from "chai";

const MODULE = path.join(__dirname, "../../bench/ts-node-mode.ts");

/** What underTypeCheckingTsNode answers in a fresh Node.js process started with these arguments and environment. */
function answerIn(nodeArguments: string[], env: NodeJS.ProcessEnv = {}): string {
  const script = `console.log(require(${JSON.stringify(MODULE)}).underTypeCheckingTsNode())`;
  const cleaned = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("TS_NODE_")));
  return execFileSync(process.execPath, [...nodeArguments, "-e", script], { env: { ...cleaned, ...env }, encoding: "utf8" }).trim();
}

describe("bench: ts-node's mode", function () {
  this.timeout(60_000);

  it("is seen as type checking under plain ts-node/register", () => {
    expect(answerIn(["-r", "ts-node/register"])).to.equal("true");
  });

  it("is not under --transpile-only (TS_NODE_TRANSPILE_ONLY)", () => {
    expect(answerIn(["-r", "ts-node/register"], { TS_NODE_TRANSPILE_ONLY: "true" })).to.equal("false");
  });
});
