import { expect } from "chai";
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";

import { type NativekitConfig, resolveNativekitConfig } from "../../src/hardhat/config";
import type { ThreadChain } from "../../src/hardhat/hardhat3/engine-thread";
import { sourceEngineThread } from "../helpers/engine-thread";
import { refusal } from "../helpers/refusal";

const REPO_ROOT = path.join(__dirname, "..", "..");
const quiet = (extra: Parameters<typeof resolveNativekitConfig>[0] = {}): NativekitConfig => resolveNativekitConfig({ loggingEnabled: false, ...extra });
/** Init code that reverts with the four bytes 0xdeadbeef: PUSH4 deadbeef, PUSH1 0, MSTORE, PUSH1 4, PUSH1 28, REVERT. */
const REVERTING_INIT_CODE = "0x63deadbeef6000526004601cfd";
/** Hardhat's console.log address, and the call data of `console.log("hello")` (log(string)). */
const CONSOLE_ADDRESS = "0x000000000000000000636F6e736F6c652e6c6f67";
const LOG_HELLO = "0x41304fac" + (32).toString(16).padStart(64, "0") + (5).toString(16).padStart(64, "0") + Buffer.from("hello").toString("hex").padEnd(64, "0");

describe("Hardhat 3 engine thread", function () {
  this.timeout(60_000);
  // One thread for the file (under ts-node, a thread transpiles the engine when it starts).
  const logged: string[] = [];
  const thread = sourceEngineThread((line) => logged.push(line));
  after(async () => thread.terminate());

  const accounts = async (chain: ThreadChain) => (await chain.request("eth_accounts", [])) as string[];

  it("opens a chain in the thread that answers requests with the config's options", async () => {
    const chain = await thread.open(quiet({ chainId: 4321 }));
    expect(await chain.request("eth_chainId", [])).to.equal("0x10e1");
    expect(await accounts(chain)).to.have.length(20);
  });

  it("gives every open a fresh chain of its own", async () => {
    const first = await thread.open(quiet());
    const second = await thread.open(quiet());
    const [from] = await accounts(first);
    await first.request("eth_sendTransaction", [{ from, to: from, value: "0x1" }]);
    expect(await first.request("eth_blockNumber", [])).to.equal("0x1");
    expect(await second.request("eth_blockNumber", [])).to.equal("0x0");
  });

  it("carries a JSON-RPC error across with its code, message and data", async () => {
    const chain = await thread.open(quiet());
    const [from] = await accounts(chain);
    const error = (await refusal(chain.request("eth_call", [{ from, data: REVERTING_INIT_CODE }]))) as Error & { code?: number; data?: unknown };
    expect(error.code).to.equal(3);
    expect(error.message).to.equal("execution reverted");
    expect(error.data).to.equal("0xdeadbeef");
    const unknown = (await refusal(chain.request("nativekit_noSuchMethod", []))) as Error & { code?: number };
    expect(unknown.code).to.equal(-32601);
  });

  it("refuses requests to a chain after it is closed, and keeps the others", async () => {
    const closed = await thread.open(quiet());
    const other = await thread.open(quiet());
    closed.close();
    expect((await refusal(closed.request("eth_blockNumber", []))).message).to.match(/chain \d+ is closed/);
    expect(await other.request("eth_blockNumber", [])).to.equal("0x0");
  });

  it("fails a chain's open with the engine's reason when its options are wrong", async () => {
    const config = quiet({ assetBalances: [{ account: 99, assetId: "0x" + "c3".repeat(32), amount: 1n }] });
    expect((await refusal(thread.open(config))).message).to.match(/assetBalances\[0\]\.account is index 99, but there are only 20 accounts/);
  });

  it("forwards the engine's log lines (Solidity's console.log) when logging is on, and none when it is off", async () => {
    for (const loggingEnabled of [false, true]) {
      const chain = await thread.open(resolveNativekitConfig({ loggingEnabled }));
      const [from] = await accounts(chain);
      await chain.request("eth_call", [{ from, to: CONSOLE_ADDRESS, data: LOG_HELLO }]);
      expect(logged).to.deep.equal(loggingEnabled ? ["hello"] : []);
    }
  });

  it("fails what waits on a thread that stops, and starts a new thread for the next open", async () => {
    const stopping = sourceEngineThread();
    try {
      const chain = await stopping.open(quiet());
      const waiting = refusal(chain.request("eth_blockNumber", []));
      await stopping.terminate();
      expect((await waiting).message).to.match(/engine thread stopped: the engine thread was terminated/);
      expect((await refusal(chain.request("eth_blockNumber", []))).message).to.match(/chain is gone: the engine thread it lived in stopped/);
      const next = await stopping.open(quiet());
      expect(await next.request("eth_blockNumber", [])).to.equal("0x0");
    } finally {
      await stopping.terminate();
    }
  });

  it("hands a connection the chain prepared ahead, built before the open", async () => {
    const config = quiet();
    thread.prepare(config);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const openedAt = Math.floor(Date.now() / 1000);
    const chain = await thread.open(config);
    const genesis = (await chain.request("eth_getBlockByNumber", ["0x0", false])) as { timestamp: string };
    expect(Number(genesis.timestamp)).to.be.at.most(openedAt - 1);
  });

  it("never hands a chain prepared for one config to a connection of another", async () => {
    thread.prepare(quiet({ chainId: 1111 }));
    const chain = await thread.open(quiet({ chainId: 2222 }));
    expect(await chain.request("eth_chainId", [])).to.equal("0x8ae");
  });

  it("refuses to start from the sources without a way to start the worker, naming the build", async () => {
    const { EngineThread } = await import("../../src/hardhat/hardhat3/engine-thread");
    expect(() => new EngineThread().prepare(quiet())).to.throw(/engine-thread-worker\.js is missing: it runs from the built package \(npm run build\)/);
  });

  describe("in a process of its own", () => {
    const runScript = (script: string) =>
      promisify(execFile)(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", script], { cwd: REPO_ROOT, encoding: "utf8", timeout: 60_000 });
    const header = `const { sourceEngineThread } = require("./test/helpers/engine-thread"); const { resolveNativekitConfig } = require("./src/hardhat/config");`;

    it("loads the engine in the thread, not on the thread that opened the chain", async () => {
      const { stdout } = await runScript(`${header}
        (async () => {
          const chain = await sourceEngineThread().open(resolveNativekitConfig({ loggingEnabled: false }));
          await chain.request("eth_blockNumber", []);
          console.log(JSON.stringify(Object.keys(require.cache).filter((f) => f.endsWith("/src/engine/engine.ts") || f.includes("@ethereumjs"))));
        })();`);
      expect(JSON.parse(stdout.trim())).to.deep.equal([]);
    });

    it("keeps the process alive while an answer is awaited, and lets it exit once nothing waits", async () => {
      const started = Date.now();
      const { stdout } = await runScript(`${header}
        (async () => {
          const chain = await sourceEngineThread().open(resolveNativekitConfig({ loggingEnabled: false }));
          console.log("answer", await chain.request("eth_chainId", []));
        })();`);
      expect(stdout.trim()).to.equal("answer 0xa868");
      // The idle thread holds nothing open: the process ends with its script, not at the 60 s timeout.
      expect(Date.now() - started).to.be.below(30_000);
    });

    it("lets a process that only prepared the thread (a task that fails before it connects) exit at once", async () => {
      const started = Date.now();
      const { stdout } = await runScript(`${header}
        sourceEngineThread().prepare(resolveNativekitConfig({ loggingEnabled: false }));
        console.log("prepared");`);
      expect(stdout.trim()).to.equal("prepared");
      expect(Date.now() - started).to.be.below(30_000);
    });
  });
});
