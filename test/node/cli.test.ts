import { expect } from "chai";
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import WebSocket from "ws";

import { type CliDeps, type CliNode, type CreateNodeOptions, formatCoin, runCli, type SignalName } from "../../src/cli/cli";

const ACCOUNT = {
  address: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC",
  privateKey: "0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027",
  balanceWei: 50_000_000n * 10n ** 18n,
};

/** Fake dependencies: a node without engine, captured output and a signal we fire by hand. */
function fakeDeps() {
  const out: string[] = [];
  const err: string[] = [];
  const createCalls: CreateNodeOptions[] = [];
  let closed = 0;
  let signalHandler: ((s: SignalName) => void) | undefined;
  let unsubscribed = false;
  const deps: CliDeps = {
    async createNode(options): Promise<CliNode> {
      createCalls.push(options);
      return {
        chainId: options.chainId ?? 43112,
        accounts: [ACCOUNT],
        routes: {
          "/ext/bc/C/rpc": async (method) => (method === "eth_chainId" ? "0xa868" : null),
          "/ext/bc/C/cvm": async () => null,
        },
        wsRoutes: {
          "/ext/bc/C/ws": () => ({ dispatch: async (method) => (method === "eth_chainId" ? "0xa868" : null), close() {} }),
        },
        async close() {
          closed++;
        },
      };
    },
    stdout: (s) => out.push(s),
    stderr: (s) => err.push(s),
    onSignal(handler) {
      signalHandler = handler;
      return () => {
        unsubscribed = true;
      };
    },
  };
  return {
    deps,
    stdout: () => out.join(""),
    stderr: () => err.join(""),
    createCalls,
    closed: () => closed,
    unsubscribed: () => unsubscribed,
    signal(name: SignalName) {
      if (signalHandler === undefined) throw new Error("no signal handler registered");
      signalHandler(name);
    },
  };
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("nativekit CLI (runCli)", () => {
  it("prints the package version for --version", async () => {
    const f = fakeDeps();
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "../../package.json"), "utf8")) as { version: string };
    expect(await runCli(["--version"], f.deps)).to.equal(0);
    expect(f.stdout()).to.equal(`nativekit ${pkg.version}\n`);
  });

  it("prints the usage for --help and help, exit code 0", async () => {
    for (const arg of ["--help", "help"]) {
      const f = fakeDeps();
      expect(await runCli([arg], f.deps)).to.equal(0);
      expect(f.stdout()).to.contain("Usage: nativekit <command>");
      expect(f.stdout()).to.contain("node");
    }
  });

  it("prints the node usage for node --help without starting anything", async () => {
    const f = fakeDeps();
    expect(await runCli(["node", "--help"], f.deps)).to.equal(0);
    expect(f.stdout()).to.contain("--port <n>");
    expect(f.createCalls).to.have.length(0);
  });

  it("help <command> prints that command's usage (loaded with the command) and starts nothing", async () => {
    const commands = [
      ["vault", "../../src/cli/vault-command", "VAULT_USAGE"],
      ["explorer", "../../src/cli/explorer-command", "EXPLORER_USAGE"],
      ["network-runner", "../../src/cli/network-runner-command", "NETWORK_RUNNER_USAGE"],
      ["network", "../../src/cli/network-command", "NETWORK_USAGE"],
      ["x-to-c", "../../src/cli/transfer-command", "TRANSFER_USAGE"],
      ["c-to-x", "../../src/cli/transfer-command", "TRANSFER_USAGE"],
    ] as const;
    for (const [command, module, usage] of commands) {
      const f = fakeDeps();
      expect(await runCli(["help", command], f.deps), command).to.equal(0);
      const expected = ((await import(module)) as Record<string, string>)[usage];
      expect(expected, usage).to.be.a("string").and.not.equal("");
      expect(f.stdout(), command).to.equal(expected);
      expect(f.createCalls).to.have.length(0);
    }
  });

  it("rejects an unknown command with exit code 2 and the usage", async () => {
    const f = fakeDeps();
    expect(await runCli(["serve"], f.deps)).to.equal(2);
    expect(f.stderr()).to.contain('unknown command "serve"');
    expect(f.stderr()).to.contain("Usage:");
  });

  it("rejects a non-numeric port with exit code 2, naming the flag, without creating the node", async () => {
    const f = fakeDeps();
    expect(await runCli(["node", "--port", "abc"], f.deps)).to.equal(2);
    expect(f.stderr()).to.contain('invalid --port "abc"');
    expect(f.stderr()).to.contain("0 to 65535");
    expect(f.stderr()).to.contain("Usage: nativekit node");
    expect(f.createCalls).to.have.length(0);
  });

  it("rejects a port above 65535 and a negative port", async () => {
    for (const port of ["65536", "-1", "1.5"]) {
      const f = fakeDeps();
      expect(await runCli(["node", `--port=${port}`], f.deps), port).to.equal(2);
      expect(f.stderr()).to.contain("invalid --port");
    }
  });

  it("rejects --port without a value", async () => {
    const f = fakeDeps();
    expect(await runCli(["node", "--port"], f.deps)).to.equal(2);
    expect(f.stderr()).to.contain("--port needs a value");
  });

  it("rejects an empty host", async () => {
    const f = fakeDeps();
    expect(await runCli(["node", "--host", ""], f.deps)).to.equal(2);
    expect(f.stderr()).to.contain("the host must not be empty");
  });

  it("rejects an unknown flag with exit code 2, naming the flag and printing the usage", async () => {
    const f = fakeDeps();
    expect(await runCli(["node", "--fork", "http://x"], f.deps)).to.equal(2);
    expect(f.stderr()).to.contain("unknown option --fork");
    expect(f.stderr()).to.contain("Usage: nativekit node");
    expect(f.createCalls).to.have.length(0);
  });

  it("rejects a stray positional argument", async () => {
    const f = fakeDeps();
    expect(await runCli(["node", "9650"], f.deps)).to.equal(2);
    expect(f.stderr()).to.contain('unexpected argument "9650"');
  });

  it("passes --chain-id to the node factory", async () => {
    const f = fakeDeps();
    const run = runCli(["node", "--port", "0", "--chain-id", "99999", "--silent"], f.deps);
    await waitFor(() => f.stdout().includes("listening"), "the ready line");
    expect(f.createCalls).to.deep.equal([{ chainId: 99999 }]);
    expect(f.stdout()).to.contain("(chain id 99999)");
    f.signal("SIGTERM");
    expect(await run).to.equal(0);
  });

  it("with --log-dir writes the node's log to <dir>/main.log, also when --silent keeps it off the terminal", async () => {
    const f = fakeDeps();
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-log-")), "logs");
    const run = runCli(["node", "--port", "0", "--silent", "--log-dir", dir], f.deps);
    await waitFor(() => f.stdout().includes("Stop with Ctrl+C"), "the banner");
    const rpcUrl = /listening on (\S+) /.exec(f.stdout())![1]!;
    await fetch(rpcUrl, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }) });
    f.signal("SIGTERM");
    expect(await run).to.equal(0);
    expect(fs.readFileSync(path.join(dir, "main.log"), "utf8")).to.equal("eth_chainId\n");
    expect(f.stdout()).to.not.contain("\neth_chainId\n");
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  it("prints the ready line, the accounts with a public-key warning and next steps, serves, and stops cleanly on SIGINT", async () => {
    const f = fakeDeps();
    const run = runCli(["node", "--port", "0"], f.deps);
    await waitFor(() => f.stdout().includes("Stop with Ctrl+C"), "the banner");

    const out = f.stdout();
    const ready = /^nativekit node listening on (http:\/\/127\.0\.0\.1:(\d+)\/ext\/bc\/C\/rpc) \(chain id 43112\)$/m.exec(out);
    expect(ready, out).to.not.equal(null);
    const rpcUrl = ready![1];
    expect(out.indexOf("nativekit node listening")).to.equal(0);
    expect(out).to.contain(`Account #0: ${ACCOUNT.address} (50000000 coin)`);
    expect(out).to.contain(`Private Key: ${ACCOUNT.privateKey}`);
    expect(out).to.contain("publicly known test keys");
    expect(out).to.contain(`Connect a wallet or ethers.JsonRpcProvider to ${rpcUrl}`);

    const res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
    });
    expect(await res.json()).to.deep.equal({ jsonrpc: "2.0", id: 1, result: "0xa868" });
    expect(f.stdout()).to.contain("\neth_chainId\n");

    f.signal("SIGINT");
    expect(await run).to.equal(0);
    expect(f.stdout()).to.contain("Received SIGINT, stopping nativekit node");
    expect(f.stdout()).to.match(/nativekit node stopped\n$/);
    expect(f.closed()).to.equal(1);
    expect(f.unsubscribed()).to.equal(true);
    let refused = false;
    try {
      await fetch(rpcUrl, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    } catch {
      refused = true;
    }
    expect(refused, "the port still answers after the stop").to.equal(true);
  });

  it("serves the node's WebSocket paths, lists them among the endpoints, and closes them on SIGINT", async () => {
    const f = fakeDeps();
    const run = runCli(["node", "--port", "0", "--silent"], f.deps);
    await waitFor(() => f.stdout().includes("Stop with Ctrl+C"), "the banner");
    const wsUrl = /^ {2}(ws:\/\/127\.0\.0\.1:\d+\/ext\/bc\/C\/ws)$/m.exec(f.stdout())?.[1];
    expect(wsUrl, f.stdout()).to.be.a("string");

    const client = new WebSocket(wsUrl!);
    await new Promise<void>((resolve, reject) => {
      client.once("open", () => resolve());
      client.once("error", reject);
    });
    const answer = new Promise<unknown>((resolve) => client.once("message", (data) => resolve(JSON.parse(String(data)))));
    client.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }));
    expect(await answer).to.deep.equal({ jsonrpc: "2.0", id: 1, result: "0xa868" });

    const closed = new Promise<number>((resolve) => client.once("close", (code) => resolve(code)));
    f.signal("SIGINT");
    expect(await run).to.equal(0);
    expect(await closed).to.equal(1001);
  });

  it("prints a clear message and exits 1 when the port is in use, without a stack trace", async () => {
    const blocker = http.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const f = fakeDeps();
      expect(await runCli(["node", "--port", String(port)], f.deps)).to.equal(1);
      expect(f.stderr()).to.equal(
        `error: port ${port} is already in use; pass --port 0 for a free port or another number\n`,
      );
      expect(f.stdout()).to.equal("");
      expect(f.closed(), "the engine is released").to.equal(1);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it("formats wei balances as whole coins, keeping significant decimals", () => {
    expect(formatCoin(50_000_000n * 10n ** 18n)).to.equal("50000000");
    expect(formatCoin(15n * 10n ** 17n)).to.equal("1.5");
    expect(formatCoin(1n)).to.equal("0.000000000000000001");
    expect(formatCoin(0n)).to.equal("0");
  });
});
