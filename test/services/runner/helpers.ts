/**
 * Fixtures of the network runner's tests: a runner on free ports (stopped by the test), its
 * gateway client, a gRPC client made from the same proto, the reference-node stand-in, and the
 * checks every test repeats (a refusal's code and message; no node process left behind).
 */
import * as grpc from "@grpc/grpc-js";
import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRunnerClient, type RunnerClient, RunnerRequestError, type StartRequest } from "../../../src/clients/runner";
import { startRunnerServer, type RunnerServer } from "../../../src/services/runner";
import { runnerProtocol } from "../../../src/services/runner/protocol";
import { alive } from "../../helpers/processes";

/** A stand-in for a reference node binary: records its flags, answers health and getNodeID. */
export const REFERENCE_NODE_STAND_IN = path.join(__dirname, "..", "..", "fixtures", "reference-node-stand-in");

export interface TestRunner {
  readonly server: RunnerServer;
  readonly client: RunnerClient;
  /** A directory under which the runner puts its networks (removed by `close`). */
  readonly dataDir: string;
  /** The runner's log lines so far. */
  readonly logs: string[];
  /** Stops the runner (and its network) and checks no node process it started is left. */
  close(): Promise<void>;
}

export async function startTestRunner(): Promise<TestRunner> {
  const logs: string[] = [];
  const server = await startRunnerServer({ port: 0, gatewayPort: 0, log: (level, message) => logs.push(`${level} ${message}`) });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "runner-test-"));
  const seen = new Set<number>();
  const remember = setInterval(() => [...server.control.nodePids, ...server.control.startingPids].forEach((pid) => seen.add(pid)), 50);
  return {
    server,
    client: createRunnerClient({ url: server.gatewayUrl! }),
    dataDir,
    logs,
    close: async () => {
      clearInterval(remember);
      server.control.nodePids.forEach((pid) => seen.add(pid));
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      expectGone([...seen]);
    },
  };
}

/** Every pid in `pids` names no process. */
export function expectGone(pids: readonly number[]): void {
  expect(pids.filter(alive), "node processes still running").to.deep.equal([]);
}

/** `promise` is refused by the gateway with this gRPC code, HTTP status and message (a prefix of it). */
export async function expectRefusal(promise: Promise<unknown>, code: number, status: number, message: string): Promise<RunnerRequestError> {
  let error: unknown;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  expect(error, `expected the refusal "${message}"`).to.be.instanceOf(RunnerRequestError);
  const refusal = error as RunnerRequestError;
  expect(refusal.message.startsWith(message), `"${refusal.message}" should start with "${message}"`).to.equal(true);
  expect({ code: refusal.code, status: refusal.status }).to.deep.equal({ code, status });
  return refusal;
}

/** A gRPC client of both services; `call` sends one unary request, `stream` collects pushes. */
export interface GrpcTestClient {
  call<T>(service: "PingService" | "ControlService", method: string, request?: Record<string, unknown>): Promise<T>;
  openStream(method: string, request: Record<string, unknown>): grpc.ClientReadableStream<unknown>;
  close(): void;
}

export function grpcClient(address: string): GrpcTestClient {
  const protocol = runnerProtocol();
  const credentials = grpc.credentials.createInsecure();
  const clients = {
    PingService: new protocol.PingClient(address, credentials),
    ControlService: new protocol.ControlClient(address, credentials),
  };
  return {
    call: <T>(service: keyof typeof clients, method: string, request: Record<string, unknown> = {}) =>
      new Promise<T>((resolve, reject) => {
        const fn = clients[service][method] as (request: unknown, callback: (error: grpc.ServiceError | null, response: T) => void) => void;
        fn.call(clients[service], request, (error, response) => (error === null ? resolve(response) : reject(error)));
      }),
    openStream: (method, request) => (clients.ControlService[method] as (request: unknown) => grpc.ClientReadableStream<unknown>).call(clients.ControlService, request),
    close: () => {
      clients.PingService.close();
      clients.ControlService.close();
    },
  };
}

/** `promise` fails with this gRPC status code and a message starting with `message`. */
export async function expectGrpcRefusal(promise: Promise<unknown>, code: grpc.status, message: string): Promise<void> {
  let error: unknown;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  const status = error as grpc.ServiceError | undefined;
  expect(status?.code, `expected gRPC code ${code}, got ${String(error)}`).to.equal(code);
  expect(status!.details.startsWith(message), `"${status!.details}" should start with "${message}"`).to.equal(true);
}

/** The flags a node process received, as the stand-in recorded them in its db dir. */
export function standInArguments(dbDir: string): string[] {
  return JSON.parse(fs.readFileSync(path.join(dbDir, "arguments.json"), "utf8")) as string[];
}

/** A start of `numNodes` stand-in nodes on free ports under the runner's data dir. */
export function standInStart(runner: TestRunner, numNodes: number, extra: Partial<StartRequest> = {}) {
  return runner.client.start({ execPath: REFERENCE_NODE_STAND_IN, numNodes, dynamicPorts: true, rootDataDir: runner.dataDir, ...extra });
}
