/**
 * The runner over gRPC, with a grpc-js client made from the same proto and stand-in nodes: every
 * method answers the same messages as the gateway, refusals arrive as gRPC statuses with the
 * reference's messages, and StreamStatus pushes the cluster until cancelled.
 */
import { status as GrpcStatus } from "@grpc/grpc-js";
import { expect } from "chai";
import type { ClusterInfoResponse, StartResponse, UrisResponse } from "../../../src/clients/runner";
import { alive } from "../../helpers/processes";
import { startRunnerServer } from "../../../src/services/runner";
import { expectGrpcRefusal, grpcClient, type GrpcTestClient, REFERENCE_NODE_STAND_IN, startTestRunner, type TestRunner } from "./helpers";

describe("network runner: gRPC", function () {
  this.timeout(60_000);
  let runner: TestRunner;
  let client: GrpcTestClient;

  beforeEach(async () => {
    runner = await startTestRunner();
    client = grpcClient(runner.server.grpcAddress);
  });
  afterEach(async () => {
    client.close();
    await runner.close();
  });

  const start = (numNodes?: number) =>
    client.call<StartResponse>("ControlService", "Start", { execPath: REFERENCE_NODE_STAND_IN, dynamicPorts: true, rootDataDir: runner.dataDir, ...(numNodes === undefined ? {} : { numNodes }) });

  it("answers Ping with the runner's pid", async () => {
    expect(await client.call("PingService", "Ping")).to.deep.equal({ pid: process.pid });
  });

  it("answers RPCVersion 1", async () => {
    expect(await client.call("ControlService", "RPCVersion")).to.deep.equal({ version: 1 });
  });

  it("refuses calls before a start with FAILED_PRECONDITION \"not bootstrapped\"", async () => {
    for (const method of ["Status", "URIs", "Health", "WaitForHealthy", "AddNode", "RemoveNode", "RestartNode", "PauseNode", "ResumeNode"]) {
      await expectGrpcRefusal(client.call("ControlService", method, { name: "node1" }), GrpcStatus.FAILED_PRECONDITION, "not bootstrapped");
    }
  });

  it("refuses numNodes 0 with INVALID_ARGUMENT \"not enough nodes specified for start\"", async () => {
    await expectGrpcRefusal(start(0), GrpcStatus.INVALID_ARGUMENT, "not enough nodes specified for start");
  });

  it("answers Stop before any start with no cluster", async () => {
    expect(await client.call("ControlService", "Stop")).to.deep.equal({ clusterInfo: null });
  });

  it("runs a network through every method: start, health, uris, status, add, pause, resume, restart, remove, wait, stop", async () => {
    const started = await start(2);
    expect(started.clusterInfo!.nodeNames).to.deep.equal(["node1", "node2"]);
    expect(started.clusterInfo!.healthy).to.equal(true);
    await expectGrpcRefusal(start(1), GrpcStatus.FAILED_PRECONDITION, "already bootstrapped");

    const health = await client.call<ClusterInfoResponse>("ControlService", "Health");
    expect(health.clusterInfo!.healthy).to.equal(true);
    const { uris } = await client.call<UrisResponse>("ControlService", "URIs");
    expect(uris).to.deep.equal(Object.values(started.clusterInfo!.nodeInfos).map((n) => n.uri).sort());
    const status = await client.call<ClusterInfoResponse>("ControlService", "Status");
    expect(status.clusterInfo!.nodeInfos.node1).to.deep.equal(started.clusterInfo!.nodeInfos.node1);

    const added = await client.call<ClusterInfoResponse>("ControlService", "AddNode", { name: "node3" });
    expect(added.clusterInfo!.nodeNames).to.deep.equal(["node1", "node2", "node3"]);

    const paused = await client.call<ClusterInfoResponse>("ControlService", "PauseNode", { name: "node3" });
    expect(paused.clusterInfo!.nodeInfos.node3!.paused).to.equal(true);
    const resumed = await client.call<ClusterInfoResponse>("ControlService", "ResumeNode", { name: "node3" });
    expect(resumed.clusterInfo!.nodeInfos.node3!.paused).to.equal(false);

    const pidsBeforeRestart = runner.server.control.nodePids;
    const restarted = await client.call<ClusterInfoResponse>("ControlService", "RestartNode", { name: "node2" });
    expect(restarted.clusterInfo!.nodeInfos.node2!.id).to.equal(started.clusterInfo!.nodeInfos.node2!.id);
    expect(pidsBeforeRestart.filter(alive)).to.have.length(2);

    await expectGrpcRefusal(client.call("ControlService", "RemoveNode", { name: "node9" }), GrpcStatus.NOT_FOUND, "node not found");
    const removed = await client.call<ClusterInfoResponse>("ControlService", "RemoveNode", { name: "node3" });
    expect(removed.clusterInfo!.nodeNames).to.deep.equal(["node1", "node2"]);

    const waited = await client.call<ClusterInfoResponse>("ControlService", "WaitForHealthy");
    expect(waited.clusterInfo!.healthy).to.equal(true);

    const pids = runner.server.control.nodePids;
    const stopped = await client.call<ClusterInfoResponse>("ControlService", "Stop");
    expect(stopped.clusterInfo!.healthy).to.equal(false);
    expect(pids.filter(alive)).to.deep.equal([]);
  });

  it("streams the cluster on StreamStatus: one update at once, more each push interval, until cancelled", async () => {
    await start(1);
    const stream = client.openStream("StreamStatus", { pushInterval: String(50_000_000) });
    const updates: ClusterInfoResponse[] = [];
    await new Promise<void>((resolve, reject) => {
      stream.on("data", (update: ClusterInfoResponse) => {
        updates.push(update);
        if (updates.length === 3) resolve();
      });
      stream.on("error", (error: { code?: number }) => (error.code === GrpcStatus.CANCELLED ? undefined : reject(error)));
    });
    stream.cancel();
    expect(updates[0]!.clusterInfo!.nodeNames).to.deep.equal(["node1"]);
    expect(updates[0]!.clusterInfo!.healthy).to.equal(true);
  });

  it("serves gRPC alone with the gateway disabled", async () => {
    const server = await startRunnerServer({ port: 0, disableGateway: true });
    const alone = grpcClient(server.grpcAddress);
    try {
      expect(server.gatewayUrl).to.equal(undefined);
      expect(await alone.call("PingService", "Ping")).to.deep.equal({ pid: process.pid });
    } finally {
      alone.close();
      await server.close();
    }
  });

  it("ends open status streams when the runner closes", async () => {
    const stream = client.openStream("StreamStatus", { pushInterval: String(1_000_000_000) });
    const first = new Promise((resolve) => stream.once("data", resolve));
    const ended = new Promise((resolve) => {
      stream.on("end", resolve);
      stream.on("error", resolve);
    });
    expect(await first).to.deep.equal({ clusterInfo: null });
    await runner.server.close();
    await ended;
  });
});
