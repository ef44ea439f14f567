/**
 * The runner over its HTTP gateway, with stand-in nodes (a reference binary cannot run here):
 * every ControlService method, the reference's refusals in the gateway's error shape, the exact
 * flags each node process receives, and the processes it leaves behind (none).
 */
import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { alive } from "../../helpers/processes";
import type { StartResponse } from "../../../src/clients/runner";
import { expectRefusal, REFERENCE_NODE_STAND_IN, standInArguments, standInStart, startTestRunner, type TestRunner } from "./helpers";

const FAILED_PRECONDITION = 9;
const INVALID_ARGUMENT = 3;
const NOT_FOUND = 5;
const ALREADY_EXISTS = 6;

function decodeConfig(base64: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(base64, "base64").toString("utf8")) as Record<string, unknown>;
}

/** The state letter of a process in /proc (T: stopped by a signal). */
function processState(pid: number): string {
  return fs.readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "")[0]!;
}

/**
 * The process's state once `settled` holds of it, or after 2 s: a signal is delivered
 * asynchronously, so a process running on another core shows as stopped a moment after SIGSTOP.
 */
async function processStateOnce(pid: number, settled: (state: string) => boolean): Promise<string> {
  for (let i = 0; i < 200 && !settled(processState(pid)); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return processState(pid);
}

describe("network runner: gateway", function () {
  this.timeout(60_000);
  describe("before a start", () => {
    let runner: TestRunner;
    beforeEach(async () => {
      runner = await startTestRunner();
    });
    afterEach(async () => {
      await runner.close();
    });

    it("answers ping with the runner's pid", async () => {
      expect(await runner.client.ping()).to.deep.equal({ pid: process.pid });
    });

    it("answers rpcversion 1", async () => {
      expect(await runner.client.rpcVersion()).to.deep.equal({ version: 1 });
    });

    for (const [method, call] of [
      ["status", (r: TestRunner) => r.client.status()],
      ["uris", (r: TestRunner) => r.client.uris()],
      ["health", (r: TestRunner) => r.client.health()],
      ["waitforhealthy", (r: TestRunner) => r.client.waitForHealthy()],
      ["addnode", (r: TestRunner) => r.client.addNode({ name: "node9" })],
      ["removenode", (r: TestRunner) => r.client.removeNode("node1")],
      ["restartnode", (r: TestRunner) => r.client.restartNode({ name: "node1" })],
      ["pausenode", (r: TestRunner) => r.client.pauseNode("node1")],
      ["resumenode", (r: TestRunner) => r.client.resumeNode("node1")],
    ] as const) {
      it(`refuses ${method} with "not bootstrapped"`, async () => {
        await expectRefusal(call(runner), FAILED_PRECONDITION, 400, "not bootstrapped");
      });
    }

    it("answers stop without error and a null clusterInfo", async () => {
      expect(await runner.client.stop()).to.deep.equal({ clusterInfo: null });
    });

    it("refuses numNodes 0 with \"not enough nodes specified for start\"", async () => {
      await expectRefusal(standInStart(runner, 0), INVALID_ARGUMENT, 400, "not enough nodes specified for start");
    });

    it("refuses an exec path that is not an executable file", async () => {
      await expectRefusal(standInStart(runner, 1, { execPath: path.join(runner.dataDir, "missing") }), INVALID_ARGUMENT, 400, "exec path");
    });

    it("sends refusals as {code, message, details: []}", async () => {
      const response = await fetch(`${runner.server.gatewayUrl}/v1/control/uris`, { method: "POST", body: "{}" });
      expect(response.status).to.equal(400);
      expect(await response.json()).to.deep.equal({ code: FAILED_PRECONDITION, message: "not bootstrapped", details: [] });
    });

    it("answers an unknown path with 404 and the served methods", async () => {
      const response = await fetch(`${runner.server.gatewayUrl}/v1/control/nosuch`, { method: "POST", body: "{}" });
      expect(response.status).to.equal(404);
      expect(((await response.json()) as { message: string }).message).to.contain("/v1/control/start");
    });

    it("refuses a body that is not JSON", async () => {
      const response = await fetch(`${runner.server.gatewayUrl}/v1/control/start`, { method: "POST", body: "{" });
      expect(response.status).to.equal(400);
      expect(((await response.json()) as { code: number }).code).to.equal(INVALID_ARGUMENT);
    });

    it("fails a start whose node exits, naming the node and quoting its log", async () => {
      const refusal = await expectRefusal(standInStart(runner, 2, { globalNodeConfig: JSON.stringify({ "stand-in-fail": true }) }), 2, 500, "node");
      expect(refusal.message).to.match(/^node[12] exited \(code 1\) before it was healthy/);
      expect(refusal.message).to.contain("refusing to start as asked");
      await expectRefusal(runner.client.status(), FAILED_PRECONDITION, 400, "not bootstrapped");
    });
  });

  describe("a started three-node network (shared by these read-only tests)", () => {
    let runner: TestRunner;
    let started: StartResponse;
    before(async () => {
      runner = await startTestRunner();
      started = await standInStart(runner, 3, { globalNodeConfig: JSON.stringify({ "log-format": "json" }) });
    });
    after(async () => {
      await runner.close();
    });

    it("starts numNodes nodes named node1…, each healthy with its own NodeID, dirs and pid", () => {
      const { clusterInfo, chainIds } = started;
      expect(chainIds).to.deep.equal([]);
      expect(clusterInfo!.nodeNames).to.deep.equal(["node1", "node2", "node3"]);
      expect(clusterInfo!.healthy).to.equal(true);
      expect(clusterInfo!.pid).to.equal(process.pid);
      expect(clusterInfo!.networkId).to.equal(12345);
      expect(clusterInfo!.rootDataDir).to.match(new RegExp(`^${runner.dataDir}/network-runner-root-data/network_\\d{8}_\\d{6}_\\d{3}$`));
      const infos = Object.values(clusterInfo!.nodeInfos);
      expect(new Set(infos.map((n) => n.id)).size).to.equal(3);
      for (const info of infos) {
        expect(info.id).to.match(/^NodeID-[1-9A-HJ-NP-Za-km-z]+$/);
        expect(info.dbDir).to.equal(path.join(clusterInfo!.rootDataDir, info.name, "db"));
        expect(info.logDir).to.equal(path.join(clusterInfo!.rootDataDir, info.name, "logs"));
        expect(info.execPath).to.equal(REFERENCE_NODE_STAND_IN);
        expect(info.paused).to.equal(false);
      }
      expect(runner.server.control.nodePids).to.have.length(3);
    });

    it("passes the manual-network flags: node1 without bootstrap flags, the others bootstrapping from node1", () => {
      const { clusterInfo } = started;
      const staking = (name: string) => path.join(clusterInfo!.rootDataDir, name, "staking");
      const node1 = clusterInfo!.nodeInfos.node1!;
      const stakingPort1 = decodeConfig(node1.config)["staking-port"];
      expect(standInArguments(node1.dbDir)).to.deep.equal([
        "--public-ip=127.0.0.1",
        `--http-port=${new URL(node1.uri).port}`,
        `--staking-port=${stakingPort1}`,
        `--db-dir=${node1.dbDir}`,
        "--network-id=12345",
        `--staking-tls-cert-file=${staking("node1")}/staker.crt`,
        `--staking-tls-key-file=${staking("node1")}/staker.key`,
        "--index-enabled=true",
        "--log-format=json",
      ]);
      for (const name of ["node2", "node3"]) {
        const node = clusterInfo!.nodeInfos[name]!;
        expect(standInArguments(node.dbDir)).to.deep.equal([
          "--public-ip=127.0.0.1",
          `--http-port=${new URL(node.uri).port}`,
          `--staking-port=${decodeConfig(node.config)["staking-port"]}`,
          `--db-dir=${node.dbDir}`,
          "--network-id=12345",
          `--bootstrap-ips=127.0.0.1:${stakingPort1}`,
          `--bootstrap-ids=${node1.id}`,
          `--staking-tls-cert-file=${staking(name)}/staker.crt`,
          `--staking-tls-key-file=${staking(name)}/staker.key`,
          "--index-enabled=true",
          "--log-format=json",
        ]);
      }
    });

    it("gives every node its own ports", () => {
      const ports = Object.values(started.clusterInfo!.nodeInfos).flatMap((n) => {
        const config = decodeConfig(n.config);
        return [config["http-port"], config["staking-port"]];
      });
      expect(new Set(ports).size).to.equal(6);
    });

    it("emits every field of the cluster info, populated or not", async () => {
      const response = await fetch(`${runner.server.gatewayUrl}/v1/control/status`, { method: "POST" });
      const { clusterInfo } = (await response.json()) as { clusterInfo: Record<string, unknown> & { nodeInfos: Record<string, Record<string, unknown>> } };
      expect(Object.keys(clusterInfo).sort()).to.deep.equal(
        ["attachedPeerInfos", "customChains", "customChainsHealthy", "healthy", "logRootDir", "networkId", "nodeInfos", "nodeNames", "pid", "rootDataDir", "subnets"].sort(),
      );
      expect(Object.keys(clusterInfo.nodeInfos.node1!).sort()).to.deep.equal(
        ["config", "dbDir", "execPath", "id", "logDir", "name", "paused", "pluginDir", "uri", "whitelistedSubnets"].sort(),
      );
      expect(clusterInfo.nodeInfos.node1!.pluginDir).to.equal("");
    });

    it("refuses a second start with \"already bootstrapped\"", async () => {
      await expectRefusal(standInStart(runner, 1), FAILED_PRECONDITION, 400, "already bootstrapped");
    });

    it("answers uris sorted, one per node", async () => {
      const { uris } = await runner.client.uris();
      expect(uris).to.deep.equal(Object.values(started.clusterInfo!.nodeInfos).map((n) => n.uri).sort());
      expect(uris).to.have.length(3);
    });

    it("answers health, status and waitforhealthy healthy while every node is", async () => {
      expect((await runner.client.health()).clusterInfo!.healthy).to.equal(true);
      expect((await runner.client.status()).clusterInfo!.healthy).to.equal(true);
      expect((await runner.client.waitForHealthy()).clusterInfo!.healthy).to.equal(true);
    });

    it("refuses to add a node under a name in use", async () => {
      await expectRefusal(runner.client.addNode({ name: "node1" }), ALREADY_EXISTS, 409, 'node name "node1" is already in use');
    });

    it("refuses a node name that is not a plain name", async () => {
      await expectRefusal(runner.client.addNode({ name: "../escape" }), INVALID_ARGUMENT, 400, "invalid node name");
    });

    for (const [method, call] of [
      ["removenode", (r: TestRunner) => r.client.removeNode("node7")],
      ["restartnode", (r: TestRunner) => r.client.restartNode({ name: "node7" })],
      ["pausenode", (r: TestRunner) => r.client.pauseNode("node7")],
      ["resumenode", (r: TestRunner) => r.client.resumeNode("node7")],
    ] as const) {
      it(`refuses ${method} of an unknown node with "node not found"`, async () => {
        await expectRefusal(call(runner), NOT_FOUND, 404, "node not found");
      });
    }

    it("streams the cluster: one status at once, then one per push interval", async () => {
      const received: (string[] | undefined)[] = [];
      const stream = await runner.client.streamStatus(50, (status) => received.push(status.clusterInfo?.nodeNames));
      while (received.length < 3) await new Promise((r) => setTimeout(r, 20));
      stream.close();
      expect(received[0]).to.deep.equal(["node1", "node2", "node3"]);
    });
  });

  describe("changing a network", () => {
    let runner: TestRunner;
    beforeEach(async () => {
      runner = await startTestRunner();
    });
    afterEach(async () => {
      await runner.close();
    });

    it("reports each node's flags as its config (base64 JSON)", async () => {
      const { clusterInfo } = await standInStart(runner, 1, { networkId: 1337, logLevel: "debug" });
      const node1 = clusterInfo!.nodeInfos.node1!;
      expect(decodeConfig(node1.config)).to.include({ "network-id": 1337, "log-level": "debug", "http-port": Number(new URL(node1.uri).port) });
      expect(standInArguments(node1.dbDir)).to.include.members(["--network-id=1337", "--log-level=debug"]);
    });

    it("puts the nodes' log directories under logRootDir when given", async () => {
      const logRootDir = path.join(runner.dataDir, "all-logs");
      const { clusterInfo } = await standInStart(runner, 1, { logRootDir });
      expect(clusterInfo!.logRootDir).to.equal(logRootDir);
      expect(clusterInfo!.nodeInfos.node1!.logDir).to.equal(path.join(logRootDir, "node1"));
      expect(fs.readFileSync(path.join(logRootDir, "node1", "output.log"), "utf8")).to.contain("listening on");
    });

    it("names the nodes after customNodeConfigs and gives each its own flags", async () => {
      const { clusterInfo } = await standInStart(runner, 5, { customNodeConfigs: { beta: JSON.stringify({ "http-host": "127.0.0.1" }), alpha: "{}" } });
      expect(clusterInfo!.nodeNames).to.deep.equal(["alpha", "beta"]);
      expect(standInArguments(clusterInfo!.nodeInfos.beta!.dbDir)).to.include("--http-host=127.0.0.1");
      expect(standInArguments(clusterInfo!.nodeInfos.alpha!.dbDir)).not.to.include("--http-host=127.0.0.1");
    });

    it("accepts the proto's snake_case field names", async () => {
      const response = await fetch(`${runner.server.gatewayUrl}/v1/control/start`, {
        method: "POST",
        body: JSON.stringify({ exec_path: REFERENCE_NODE_STAND_IN, num_nodes: 1, dynamic_ports: true, root_data_dir: runner.dataDir }),
      });
      expect(response.status).to.equal(200);
      expect(((await response.json()) as { clusterInfo: { nodeNames: string[] } }).clusterInfo.nodeNames).to.deep.equal(["node1"]);
    });

    it("shows a node that died unexpectedly as unhealthy in status, health and the stream; waitforhealthy refuses at once", async () => {
      const { clusterInfo } = await standInStart(runner, 2);
      const victim = runner.server.control.nodePids[1]!;
      process.kill(victim, "SIGKILL");
      while (alive(victim)) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 100));
      expect((await runner.client.status()).clusterInfo!.healthy).to.equal(false);
      const streamed = await new Promise<boolean | undefined>((resolve) => {
        void runner.client.streamStatus(1000, (status) => resolve(status.clusterInfo?.healthy)).then((stream) => setTimeout(() => stream.close(), 50));
      });
      expect(streamed, "the status stream shows it too").to.equal(false);
      expect((await runner.client.health()).clusterInfo!.healthy).to.equal(false);
      await expectRefusal(runner.client.waitForHealthy(), FAILED_PRECONDITION, 400, "the network cannot become healthy: node2 exited");
      expect(runner.logs.some((l) => l.startsWith("warn") && l.includes("exited unexpectedly"))).to.equal(true);
      expect(clusterInfo!.nodeNames).to.have.length(2);
    });

    it("brings a node that died back with restartnode: the network is healthy again", async () => {
      await standInStart(runner, 2);
      const victim = runner.server.control.nodePids[1]!;
      process.kill(victim, "SIGKILL");
      while (alive(victim)) await new Promise((r) => setTimeout(r, 20));
      const { clusterInfo } = await runner.client.restartNode({ name: "node2" });
      expect(clusterInfo!.healthy).to.equal(true);
      expect(runner.server.control.nodePids).to.have.length(2);
    });

    it("adds a node under the given name, bootstrapping from node1", async () => {
      const { clusterInfo: before } = await standInStart(runner, 2);
      const { clusterInfo } = await runner.client.addNode({ name: "extra", nodeConfig: JSON.stringify({ "http-host": "127.0.0.1" }) });
      expect(clusterInfo!.nodeNames).to.deep.equal(["extra", "node1", "node2"]);
      expect(clusterInfo!.healthy).to.equal(true);
      const args = standInArguments(clusterInfo!.nodeInfos.extra!.dbDir);
      expect(args).to.include(`--bootstrap-ids=${before!.nodeInfos.node1!.id}`);
      expect(args).to.include("--http-host=127.0.0.1");
      expect(runner.server.control.nodePids).to.have.length(3);
    });

    it("names an added node without a name after the next free nodeN", async () => {
      await standInStart(runner, 1);
      expect((await runner.client.addNode({})).clusterInfo!.nodeNames).to.deep.equal(["node1", "node2"]);
    });

    it("removes a node: its process ends and it leaves the cluster", async () => {
      await standInStart(runner, 2);
      const pids = runner.server.control.nodePids;
      const { clusterInfo } = await runner.client.removeNode("node2");
      expect(clusterInfo!.nodeNames).to.deep.equal(["node1"]);
      expect(alive(pids[1]!)).to.equal(false);
      expect(alive(pids[0]!)).to.equal(true);
    });


    it("restarts a node in a new process on the same db dir, ports and NodeID", async () => {
      const { clusterInfo: before } = await standInStart(runner, 2);
      const oldPid = runner.server.control.nodePids[1]!;
      const { clusterInfo } = await runner.client.restartNode({ name: "node2" });
      expect(clusterInfo!.nodeInfos.node2).to.deep.equal(before!.nodeInfos.node2);
      expect(alive(oldPid)).to.equal(false);
      expect(runner.server.control.nodePids).to.have.length(2);
      expect(runner.server.control.nodePids).not.to.include(oldPid);
      expect(clusterInfo!.healthy).to.equal(true);
    });

    it("restarts a node with another executable when given one", async () => {
      await standInStart(runner, 1);
      const copy = path.join(runner.dataDir, "other-stand-in.js");
      fs.copyFileSync(REFERENCE_NODE_STAND_IN, copy);
      fs.chmodSync(copy, 0o755);
      const { clusterInfo } = await runner.client.restartNode({ name: "node1", execPath: copy });
      expect(clusterInfo!.nodeInfos.node1!.execPath).to.equal(copy);
    });

    it("pauses a node with SIGSTOP and resumes it with SIGCONT", async () => {
      await standInStart(runner, 2);
      const pid = runner.server.control.nodePids[1]!;
      const paused = await runner.client.pauseNode("node2");
      expect(paused.clusterInfo!.nodeInfos.node2!.paused).to.equal(true);
      expect(await processStateOnce(pid, (state) => state === "T")).to.equal("T");
      expect((await runner.client.health()).clusterInfo!.healthy, "a paused node is left out of health").to.equal(true);
      await expectRefusal(runner.client.pauseNode("node2"), FAILED_PRECONDITION, 400, 'node "node2" is already paused');
      const resumed = await runner.client.resumeNode("node2");
      expect(resumed.clusterInfo!.nodeInfos.node2!.paused).to.equal(false);
      expect(await processStateOnce(pid, (state) => state !== "T")).not.to.equal("T");
      await expectRefusal(runner.client.resumeNode("node2"), FAILED_PRECONDITION, 400, 'node "node2" is not paused');
    });

    it("stops a paused node too: stop ends every process", async () => {
      await standInStart(runner, 2);
      const pids = runner.server.control.nodePids;
      await runner.client.pauseNode("node1");
      const { clusterInfo } = await runner.client.stop();
      expect(clusterInfo!.healthy).to.equal(false);
      expect(pids.filter(alive)).to.deep.equal([]);
      await expectRefusal(runner.client.status(), FAILED_PRECONDITION, 400, "not bootstrapped");
      expect(await runner.client.stop(), "a second stop answers the stopped cluster").to.deep.equal({ clusterInfo });
    });

    it("fails a start whose nodes stay unhealthy past healthTimeoutMs, with DEADLINE_EXCEEDED", async () => {
      const refusal = await expectRefusal(
        standInStart(runner, 1, { globalNodeConfig: JSON.stringify({ "stand-in-healthy": false }), healthTimeoutMs: 3000 }),
        4,
        504,
        "node1 was not healthy in time",
      );
      expect(refusal.message).to.contain("listening on");
      expect(runner.server.control.nodePids).to.deep.equal([]);
    });

    it("stops the nodes of a start still waiting for health when the runner closes", async () => {
      const start = standInStart(runner, 2, { globalNodeConfig: JSON.stringify({ "stand-in-healthy": false }) }).then(
        () => "started",
        (error: Error) => error.message,
      );
      while (runner.server.control.startingPids.length < 2) await new Promise((r) => setTimeout(r, 20));
      const pids = runner.server.control.startingPids;
      await runner.server.close();
      expect(await start).to.match(/node[12] exited \(.+\) before it was healthy|stopped while its nodes were starting|fetch failed|other side closed/);
      expect(pids.filter(alive)).to.deep.equal([]);
    });

    it("starts again after a stop", async () => {
      await standInStart(runner, 1);
      await runner.client.stop();
      expect((await standInStart(runner, 2)).clusterInfo!.nodeNames).to.deep.equal(["node1", "node2"]);
    });

  });
});
