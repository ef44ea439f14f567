import * as fs from "node:fs";
import * as path from "node:path";

import { expect } from "chai";
import hre from "hardhat";

import { ERC20_SUITE, WRAPPED_SUITE, checkSuiteOutput, parseSuiteOutput, runSuiteOnce } from "../../bench/suite";
import { REPO_ROOT } from "../../bench/peers";

const countIts = (file: string): number => (fs.readFileSync(path.join(REPO_ROOT, file), "utf8").match(/^\s*it\(/gm) ?? []).length;

// The suite benchmark's machinery (`npm run bench -- suite`), in a tiny form: its result
// checks, and one short run of the ERC-20 file on each network. Results are checked, not times.
describe("bench: the suite benchmark", function () {
  this.timeout(120_000);

  it("keeps its suite files out of npm test and knows how many tests each has", () => {
    const tests = path.relative(REPO_ROOT, hre.config.paths.tests);
    for (const suite of [ERC20_SUITE, WRAPPED_SUITE]) {
      expect(suite.file.startsWith(tests + path.sep), `${suite.file} is under ${tests}/`).to.equal(false);
      expect(countIts(suite.file), suite.file).to.equal(suite.tests);
    }
  });

  it("reads mocha's summary and the file's result line", () => {
    const output = [
      "  SuiteToken",
      "\u001b[32m    ✔ works\u001b[0m",
      '[bench-suite] {"suite":"erc20","network":"hardhat","tests":39,"sent":51,"rejected":15,"estimates":0,"providerInitMs":1,"testsMs":2}',
      "",
      "  37 passing (3s)",
      "  1 pending",
      "  1 failing",
    ].join("\n");
    const parsed = parseSuiteOutput(output);
    expect(parsed).to.deep.include({ passing: 37, failing: 1, pending: 1 });
    expect(parsed.result).to.deep.include({ suite: "erc20", network: "hardhat", tests: 39, sent: 51, rejected: 15 });
    expect(parseSuiteOutput("  0 passing (1ms)\n").result).to.equal(undefined);
  });

  for (const network of ["nativekit", "hardhat"] as const) {
    it(`runs the ERC-20 file's faucet tests with \`hardhat test --network ${network}\` and checks them`, async () => {
      const run = await runSuiteOnce(ERC20_SUITE, network, { grep: "faucet", expected: 5 });
      expect(run.passing).to.equal(5);
      expect(run.result.network).to.equal(network);
      expect(run.result.tests).to.equal(ERC20_SUITE.tests);
      // 5 fixture deployments is 1 (loadFixture deploys once), 4 tests claim twice and 1 once,
      // and the two that are refused are mined reverting and reported: both networks give
      // signers a fixed gas limit, so no eth_estimateGas precedes a send.
      expect(run.result.sent).to.equal(8);
      expect(run.result.rejected).to.equal(2);
      expect(run.result.estimates).to.equal(0);
    });
  }

  it("refuses a run that is not all passing on the named network, whatever its exit code", () => {
    const line = (network: string, tests = 39, sent = 8) =>
      `[bench-suite] {"suite":"erc20","network":"${network}","tests":${tests},"sent":${sent},"rejected":0,"estimates":8,"providerInitMs":1,"testsMs":2}`;
    const ok = { code: 0, signal: null };
    const check = (exit: { code: number | null; signal: NodeJS.Signals | null }, output: string, expected = 5) =>
      checkSuiteOutput(ERC20_SUITE, "nativekit", expected, exit, output).problems;
    expect(check(ok, `${line("nativekit")}\n  5 passing (1s)\n`)).to.deep.equal([]);
    expect(check(ok, `${line("nativekit")}\n  4 passing (1s)\n`)).to.deep.equal(["4 passing, expected 5"]);
    expect(check({ code: 1, signal: null }, `${line("nativekit")}\n  5 passing (1s)\n  1 failing\n`, 5)).to.deep.equal(["exit code 1", "1 failing"]);
    expect(check(ok, `${line("nativekit")}\n  4 passing (1s)\n  1 pending\n`, 4)).to.deep.equal(["1 pending"]);
    expect(check(ok, `${line("hardhat")}\n  5 passing (1s)\n`)).to.deep.equal(['ran on network "hardhat"']);
    expect(check(ok, `${line("nativekit", 38, 0)}\n  5 passing (1s)\n`)).to.deep.equal(["the file has 38 tests, expected 39", "sent no transaction"]);
    expect(check({ code: null, signal: "SIGTERM" }, "  5 passing (1s)\n")).to.deep.equal(["killed by SIGTERM", 'no "[bench-suite]" line']);
  });
});
