/**
 * The runner's command line as users run it: `nativekit network-runner` as a process, and
 * `nativekit network start|uris|status|health|stop` as processes talking to it (stand-in nodes
 * keep it quick), then the runner's own exit on SIGTERM ending every node, and `start --spawn`.
 * Besides the first start, `nativekit network` runs in-process (the same command without a
 * Node.js start-up per call); the runners are real processes.
 */
import { expect } from "chai";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { runNetworkCommand } from "../../../src/cli/network-command";
import { freePort } from "../../../src/services/runner/ports";
import { alive } from "../../helpers/processes";
import { expectGone, REFERENCE_NODE_STAND_IN, startTestRunner } from "./helpers";

const BIN = path.join(__dirname, "..", "..", "..", "bin", "nativekit.js");

/** Runs `nativekit <args>` to its end: exit code and output. */
async function nativekit(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], { timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The pids of the processes whose parent is `pid` (from /proc). */
function childPids(pid: number): number[] {
  return fs.readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      return Number(stat.replace(/^.*\) /s, "").split(" ")[1]) === pid ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

/** Runs `nativekit network <args>` in this process (the same command, without a Node.js start-up). */
async function run(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await runNetworkCommand(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

interface RunnerProcess {
  readonly child: ChildProcess;
  readonly gatewayUrl: string;
  output(): string;
  exited: Promise<number | null>;
}

async function startRunnerProcess(extraArgs: readonly string[] = []): Promise<RunnerProcess> {
  const child = spawn(process.execPath, [BIN, "network-runner", "--port", "0", "--grpc-gateway-port", "0", ...extraArgs], { stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  child.stdout!.on("data", (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const deadline = Date.now() + 60_000;
  let match: RegExpExecArray | null = null;
  while ((match = /HTTP gateway on (http:\/\/\S+)/.exec(text)) === null) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the runner did not start:\n${text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, gatewayUrl: match[1]!, output: () => text, exited };
}

describe("network runner: command line", function () {
  this.timeout(180_000);
  let dataDir: string;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "runner-cli-"));
  });
  afterEach(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("starts a network through a running runner, prints its uris and status, and stops it", async () => {
    const runner = await startRunnerProcess(["--log-level", "debug", "--log-dir", path.join(dataDir, "runner-logs")]);
    try {
      const endpoint = ["--endpoint", runner.gatewayUrl];
      const started = await nativekit(["network", "start", ...endpoint, "--num-nodes", "2", "--exec-path", REFERENCE_NODE_STAND_IN, "--dynamic-ports", "--root-data-dir", dataDir]);
      expect(started.stderr).to.equal("");
      expect(started.code).to.equal(0);
      expect(started.stdout).to.match(/^started 2 nodes in [\d.]+ s\nhealthy: true\n/);
      expect(started.stdout).to.match(/^node1 {2}http:\/\/127\.0\.0\.1:\d+ {2}NodeID-\w+$/m);
      const nodePids = childPids(runner.child.pid!);
      expect(nodePids).to.have.length(2);

      // The other commands run in-process: each `nativekit` process pays the CLI's start-up again.
      const uris = await run(["uris", ...endpoint]);
      const lines = uris.stdout.trimEnd().split("\n");
      expect(lines).to.have.length(2);
      expect(lines).to.deep.equal([...lines].sort());
      for (const uri of lines) expect(started.stdout).to.contain(`  ${uri}  `);

      const status = await run(["status", ...endpoint, "--json"]);
      expect((JSON.parse(status.stdout) as { clusterInfo: { nodeNames: string[] } }).clusterInfo.nodeNames).to.deep.equal(["node1", "node2"]);
      expect((await run(["health", ...endpoint])).code).to.equal(0);

      const stopped = await run(["stop", ...endpoint]);
      expect(stopped.stdout).to.equal("stopped 2 nodes\n");
      expectGone(nodePids);
      const runnerLog = fs.readFileSync(path.join(dataDir, "runner-logs", "runner.log"), "utf8");
      expect(runnerLog).to.match(/ DEBUG ControlService\.Start answered in \d+ ms$/m);
      expect(runnerLog).to.match(/ INFO stopped the network \(pids /m);
    } finally {
      runner.child.kill("SIGTERM");
      expect(await runner.exited).to.equal(0);
    }
  });

  it("ends every node when the runner gets SIGTERM", async () => {
    const runner = await startRunnerProcess();
    const started = await run(["start", "--endpoint", runner.gatewayUrl, "--num-nodes", "2", "--exec-path", REFERENCE_NODE_STAND_IN, "--dynamic-ports", "--root-data-dir", dataDir]);
    expect(started.code, started.stderr).to.equal(0);
    const nodePids = childPids(runner.child.pid!);
    expect(nodePids).to.have.length(2);
    runner.child.kill("SIGTERM");
    expect(await runner.exited).to.equal(0);
    expectGone(nodePids);
    expect(runner.output()).to.contain("nativekit network-runner stopped");
  });

  it("starts a detached runner process first with start --spawn, on the endpoint's port", async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    const started = await run(["start", "--spawn", "--endpoint", endpoint, "--runner-port", "0", "--num-nodes", "1", "--exec-path", REFERENCE_NODE_STAND_IN, "--dynamic-ports", "--root-data-dir", dataDir]);
    const runnerPid = Number(/started a runner \(pid (\d+)\)/.exec(started.stdout)?.[1]);
    expect(runnerPid, started.stderr).to.be.greaterThan(0);
    try {
      expect(started.code, started.stderr).to.equal(0);
      expect(started.stdout).to.contain(`at ${endpoint}`);
      expect(started.stdout).to.match(/^node1 {2}http/m);
    } finally {
      const nodePids = childPids(runnerPid);
      process.kill(runnerPid, "SIGTERM");
      while (alive(runnerPid)) await new Promise((r) => setTimeout(r, 50));
      expectGone(nodePids);
      const logFile = /its log: (\S+)/.exec(started.stdout)?.[1];
      if (logFile !== undefined) fs.rmSync(logFile, { force: true });
    }
  });

  describe("in-process", () => {
    it("says no runner answers, and how to start one, when none does", async () => {
      const { code, stderr } = await run(["status", "--endpoint", `http://127.0.0.1:${await freePort()}`]);
      expect(code).to.equal(1);
      expect(stderr).to.contain('start one with "nativekit network-runner" or pass --spawn');
    });

    it("prints the runner's refusal: status before a start is not bootstrapped", async () => {
      const runner = await startTestRunner();
      try {
        const { code, stderr } = await run(["status", "--endpoint", runner.server.gatewayUrl!]);
        expect(code).to.equal(1);
        expect(stderr).to.equal("error: the runner refused status: not bootstrapped\n");
      } finally {
        await runner.close();
      }
    });

    it("answers stop without a network plainly", async () => {
      const runner = await startTestRunner();
      try {
        expect(await run(["stop", "--endpoint", runner.server.gatewayUrl!])).to.deep.equal({ code: 0, stdout: "no network was started\n", stderr: "" });
      } finally {
        await runner.close();
      }
    });

    it("refuses an unknown subcommand with the usage", async () => {
      const { code, stderr } = await run(["launch"]);
      expect(code).to.equal(2);
      expect(stderr).to.contain('unknown network command "launch"');
      expect(stderr).to.contain("Usage: nativekit network <command>");
    });

    it("refuses a --num-nodes that is not a number", async () => {
      const { code, stderr } = await run(["start", "--num-nodes", "many"]);
      expect(code).to.equal(2);
      expect(stderr).to.contain('invalid --num-nodes "many"');
    });
  });
});
