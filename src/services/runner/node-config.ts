/**
 * The command line of one node. The runner's flags are the reference runner's manual-network
 * flags: `--public-ip=127.0.0.1 --http-port --staking-port --db-dir --network-id
 * [--bootstrap-ips --bootstrap-ids] --staking-tls-cert-file --staking-tls-key-file
 * --index-enabled=true` (and `--log-level` when the start request names one). The global and
 * per-node JSON configs are written after them as `--<name>=<value>` and replace the runner's
 * value of the same flag, as in the reference. Nativekit's own node (`bin/nativekit.js`) runs
 * under this Node.js as `nativekit.js node <flags>`; any other executable gets the flags alone.
 */
import fs from "node:fs";
import path from "node:path";
import { invalidArgument } from "./errors";
import type { NodeCommand } from "./node-process";
import type { NodePorts } from "./ports";
import { packageRoot } from "./protocol";

/** A flag's value as the JSON configs give it. */
export type FlagValue = string | number | boolean;
export type NodeFlags = Record<string, FlagValue>;

export const LOCAL_NETWORK_ID = 12345;
export const PUBLIC_IP = "127.0.0.1";

/** Where a node keeps its data. */
export interface NodeDirs {
  readonly dbDir: string;
  readonly logDir: string;
  readonly stakingDir: string;
}

export interface Bootstrapper {
  /** host:port of its staking port. */
  readonly ip: string;
  readonly id: string;
}

export interface NodeFlagInputs {
  readonly ports: NodePorts;
  readonly dirs: NodeDirs;
  readonly networkId: number;
  readonly bootstrappers: readonly Bootstrapper[];
  readonly staking: { readonly certFile: string; readonly keyFile: string };
  readonly logLevel?: string;
  /** The global config, then the node's own (later ones win). */
  readonly configs: readonly NodeFlags[];
}

/** nativekit's own node: the default executable. */
export function nativekitExecutable(): string {
  return path.join(packageRoot(), "bin", "nativekit.js");
}

/** Every flag of the node, in the order they are passed. */
export function nodeFlags(inputs: NodeFlagInputs): NodeFlags {
  const flags: NodeFlags = {
    "public-ip": PUBLIC_IP,
    "http-port": inputs.ports.httpPort,
    "staking-port": inputs.ports.stakingPort,
    "db-dir": inputs.dirs.dbDir,
    "network-id": inputs.networkId,
  };
  if (inputs.bootstrappers.length > 0) {
    flags["bootstrap-ips"] = inputs.bootstrappers.map((b) => b.ip).join(",");
    flags["bootstrap-ids"] = inputs.bootstrappers.map((b) => b.id).join(",");
  }
  flags["staking-tls-cert-file"] = inputs.staking.certFile;
  flags["staking-tls-key-file"] = inputs.staking.keyFile;
  flags["index-enabled"] = true;
  if (inputs.logLevel !== undefined && inputs.logLevel !== "") flags["log-level"] = inputs.logLevel;
  return Object.assign(flags, ...inputs.configs) as NodeFlags;
}

/** The HTTP and staking ports the flags finally name (a config may have replaced the runner's). */
export function portsOf(flags: NodeFlags): NodePorts {
  return { httpPort: Number(flags["http-port"]), stakingPort: Number(flags["staking-port"]) };
}

export function commandOf(execPath: string, flags: NodeFlags): NodeCommand {
  const args = Object.entries(flags).map(([name, value]) => `--${name}=${String(value)}`);
  if (path.resolve(execPath) === nativekitExecutable()) return { command: process.execPath, args: [execPath, "node", ...args] };
  return { command: execPath, args };
}

/** A JSON config (`globalNodeConfig`, a `customNodeConfigs` entry, `nodeConfig`) as flags. */
export function parseNodeConfig(text: string | undefined, what: string): NodeFlags {
  if (text === undefined || text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalidArgument(`${what} is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalidArgument(`${what} must be a JSON object of flag names and values`);
  const flags: NodeFlags = {};
  for (const [name, flag] of Object.entries(value)) {
    if (typeof flag !== "string" && typeof flag !== "number" && typeof flag !== "boolean") {
      throw invalidArgument(`${what}: the value of ${JSON.stringify(name)} must be a string, number or boolean`);
    }
    flags[name.replace(/^-+/, "")] = flag;
  }
  return flags;
}

/** Refuses an exec path that is not an executable file. */
export function checkExecPath(execPath: string): void {
  try {
    if (!fs.statSync(execPath).isFile()) throw new Error("not a file");
    fs.accessSync(execPath, fs.constants.X_OK);
  } catch {
    throw invalidArgument(`exec path ${JSON.stringify(execPath)} is not an executable file`);
  }
}
