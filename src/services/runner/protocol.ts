/**
 * The runner's protocol: the `.proto` file shipped with the package (`proto/rpcpb/rpc.proto`),
 * loaded with @grpc/proto-loader so that every message is a plain object in the protobuf JSON
 * shape — lowerCamelCase names, 64-bit integers as decimal strings, bytes as base64, every field
 * present (defaults filled in) except unset `optional` ones. The gRPC server, the HTTP gateway and
 * the handlers all work on that one shape, so the gateway's JSON is what gRPC carries.
 */
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import fs from "node:fs";
import path from "node:path";

/** The proto file, relative to the package's root. */
const PROTO_FILE = path.join("proto", "rpcpb", "rpc.proto");

const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: false,
  longs: String,
  enums: String,
  bytes: String,
  defaults: true,
  arrays: true,
  objects: true,
  oneofs: false,
};

/** The root of the nativekit package: the nearest folder above this file holding the proto file. */
export function packageRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, PROTO_FILE)) && fs.existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`cannot find ${PROTO_FILE} above ${__dirname}`);
  }
}

export function protoPath(): string {
  return path.join(packageRoot(), PROTO_FILE);
}

export interface RunnerProtocol {
  readonly ping: grpc.ServiceDefinition;
  readonly control: grpc.ServiceDefinition;
  /** Client constructors of both services (for tests and tools speaking gRPC). */
  readonly PingClient: grpc.ServiceClientConstructor;
  readonly ControlClient: grpc.ServiceClientConstructor;
}

let loaded: RunnerProtocol | undefined;

/** The two services, loaded once. */
export function runnerProtocol(): RunnerProtocol {
  if (loaded !== undefined) return loaded;
  const definition = protoLoader.loadSync(protoPath(), LOADER_OPTIONS);
  const rpcpb = grpc.loadPackageDefinition(definition).rpcpb as grpc.GrpcObject;
  const PingClient = rpcpb.PingService as grpc.ServiceClientConstructor;
  const ControlClient = rpcpb.ControlService as grpc.ServiceClientConstructor;
  loaded = { ping: PingClient.service, control: ControlClient.service, PingClient, ControlClient };
  return loaded;
}

/**
 * `value` as the message `method` takes (or answers, with `direction` "response"): through the
 * protobuf encoder and decoder, so unknown names are dropped, types converted and defaults filled
 * in exactly as for a message received over gRPC. Throws on values the encoder refuses.
 */
export function normalizeMessage(method: grpc.MethodDefinition<unknown, unknown>, direction: "request" | "response", value: unknown): Record<string, unknown> {
  if (direction === "request") return method.requestDeserialize(method.requestSerialize(value)) as Record<string, unknown>;
  return method.responseDeserialize(method.responseSerialize(value)) as Record<string, unknown>;
}
