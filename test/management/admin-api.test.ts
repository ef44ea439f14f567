import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { type ManagedTestNode, startManagedNode, temporaryDirectory } from "./node";
import { startedCliNode } from "../helpers/cli-node";

const ADMIN = "/ext/bc/C/admin";

describe("contract-chain admin API (/ext/bc/C/admin, --chainevm-admin-api-enabled)", () => {
  let dir: string;
  let log: string[];
  let node: ManagedTestNode;
  beforeEach(async () => {
    dir = temporaryDirectory("profiles");
    log = [];
    node = await startManagedNode({ adminApiEnabled: true, indexEnabled: true, profileDir: dir, log: (line) => log.push(line) });
  });
  afterEach(async () => {
    await node.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("is not served when the flag is off", async () => {
    const other = await startManagedNode({});
    try {
      const response = await fetch(`${other.url}${ADMIN}`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":1,"method":"admin.getVMConfig","params":{}}' });
      expect(response.status).to.equal(404);
    } finally {
      await other.close();
    }
  });

  it("says where profiles are written when the node starts", () => {
    expect(log).to.include(`admin API at ${ADMIN}: profiles are written to ${dir}`);
  });

  it("setLogLevel warn stops the info lines (every JSON-RPC call) from being logged", async () => {
    await node.call("/ext/info", "info.getNetworkID");
    expect(log).to.include("info.getNetworkID");
    expect(await node.call(ADMIN, "admin.setLogLevel", { level: "warn" })).to.deep.equal({ success: true });
    log.length = 0;
    await node.call("/ext/info", "info.getNetworkName");
    expect(log).to.deep.equal([]);
  });

  it("setLogLevel debug adds a line per accepted block", async () => {
    await node.sendC();
    expect(log.filter((line) => line.startsWith("C: accepted block"))).to.deep.equal([]);
    await node.call(ADMIN, "admin.setLogLevel", { level: "debug" });
    await node.sendC();
    expect(log.filter((line) => line.startsWith("C: accepted block"))).to.have.length(1);
  });

  it("refuses an unknown level in the reference's words and keeps the level", async () => {
    expect(await node.failure(ADMIN, "admin.setLogLevel", { level: "loud" })).to.deep.equal({ code: -32000, message: "failed to parse log level: unknown level: loud " });
    log.length = 0;
    await node.call("/ext/info", "info.getNetworkID");
    expect(log).to.include("info.getNetworkID");
  });

  it("startCPUProfiler then stopCPUProfiler writes cpu.cpuprofile, a V8 CPU profile", async () => {
    expect(await node.call(ADMIN, "admin.startCPUProfiler")).to.deep.equal({ success: true });
    await node.sendX();
    expect(await node.call(ADMIN, "admin.stopCPUProfiler")).to.deep.equal({ success: true });
    const profile = JSON.parse(fs.readFileSync(path.join(dir, "cpu.cpuprofile"), "utf8")) as { nodes: unknown[]; startTime: number; endTime: number };
    expect(profile.nodes.length).to.be.greaterThan(0);
    expect(profile.endTime).to.be.greaterThan(profile.startTime);
  });

  it("startCPUProfiler twice: cpu profiler already running", async () => {
    await node.call(ADMIN, "admin.startCPUProfiler");
    expect(await node.failure(ADMIN, "admin.startCPUProfiler")).to.deep.equal({ code: -32000, message: "cpu profiler already running" });
    await node.call(ADMIN, "admin.stopCPUProfiler");
  });

  it("stopCPUProfiler without a start: cpu profiler doesn't exist", async () => {
    expect(await node.failure(ADMIN, "admin.stopCPUProfiler")).to.deep.equal({ code: -32000, message: "cpu profiler doesn't exist" });
  });

  it("memoryProfile writes mem.heapsnapshot, a V8 heap snapshot of the node's process", async function () {
    // A node of its own: the test runner's heap, holding every chain the suite made, would take minutes to snapshot.
    this.timeout(180_000);
    const child = await startedCliNode(["--chainevm-admin-api-enabled", "--silent"]);
    let profiles: string;
    try {
      profiles = /profiles in ([^)\s]+)\)/.exec(child.output())![1]!;
      expect(await child.call(ADMIN, "admin.memoryProfile", {})).to.deep.equal({ success: true });
    } finally {
      await child.stop();
    }
    const file = path.join(profiles, "mem.heapsnapshot");
    const head = Buffer.alloc(64);
    const fd = fs.openSync(file, "r");
    fs.readSync(fd, head, 0, 64, 0);
    fs.closeSync(fd);
    expect(head.toString("utf8")).to.match(/^\{"snapshot":\{"meta":/);
    fs.rmSync(path.dirname(profiles), { recursive: true, force: true });
  });

  it("lockProfile writes lock.json: the event-loop delay and what keeps the process busy", async () => {
    expect(await node.call(ADMIN, "admin.lockProfile")).to.deep.equal({ success: true });
    const report = JSON.parse(fs.readFileSync(path.join(dir, "lock.json"), "utf8")) as { eventLoopDelayMs: { p99: number }; activeResources: string[]; note: string };
    expect(report.eventLoopDelayMs.p99).to.be.a("number");
    expect(report.activeResources).to.be.an("array");
    expect(report.note).to.match(/no mutexes/);
  });

  it("getVMConfig answers the contract chain's configuration", async () => {
    const { config } = await node.call<{ config: Record<string, unknown> }>(ADMIN, "admin.getVMConfig");
    expect(config).to.include({ "admin-api-enabled": true, "chain-id": 43112, "log-level": "info", "index-enabled": true });
  });
});
