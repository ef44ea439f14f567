/**
 * The flags of `nativekit node`: their table (name, kind, default, help), the parser that turns
 * the command line into the node's options, and the usage text listing every flag with its
 * default. Boolean flags take `--flag`, `--flag=true` or `--flag=false`, as the reference node's.
 */
import { isIP } from "node:net";
import { parseArgs } from "node:util";

import { isCb58 } from "../encoding";
import { DEFAULT_HOST, DEFAULT_MAX_BODY_BYTES, DEFAULT_PORT } from "../node/http-server";
import { DEFAULT_MAX_BATCH_SIZE, DEFAULT_MAX_JSON_DEPTH } from "../rpc/framing";
import { DEFAULT_IPCS_PATH } from "../node/ipcs/chain-ipcs";
import { DEFAULT_PUBLIC_IP, DEFAULT_STAKING_PORT } from "../node/management";
import { LOG_LEVELS, parseLogLevel, type LogLevel } from "../node/logger";

/**
 * Default `--api-max-blocks-per-request`: the reference node's operators set this flag to bound
 * logs queries (its default, 0, is no limit); 2048 blocks is what indexers commonly page by and
 * takes this node well under a second to scan, while a query over the whole of a long chain,
 * which made every other client wait for seconds, is refused.
 */
export const DEFAULT_API_MAX_BLOCKS_PER_REQUEST = 2048;
/**
 * Default `--api-max-logs-per-request`: 10000 logs is the result limit public providers answer
 * with (-32005 "query returned more than 10000 results"), so clients already page by it; the
 * answer stays a few megabytes.
 */
export const DEFAULT_API_MAX_LOGS_PER_REQUEST = 10_000;

/** Default directory of the IPC sockets (`--ipcs-path`). */

/**
 * Options the `node` subcommand passes to the engine factory: only the flags given. The index,
 * IPC, admin and manual-network flags are parsed and passed on for the APIs that use them.
 */
export interface CreateNodeOptions {
  /** Chain ID asked for with `--chain-id`; absent means the engine's default. */
  chainId?: number;
  /** `--rpc-gas-cap`: the most gas an eth_call or eth_estimateGas runs with. */
  rpcGasCap?: number;
  /** `--rpc-evm-timeout`, in milliseconds: longest an eth_call or eth_estimateGas may run (0: no limit). */
  rpcEvmTimeoutMs?: number;
  /** `--api-max-blocks-per-request`: most blocks one eth_getLogs / eth_getFilterLogs may span. */
  apiMaxBlocksPerRequest?: number;
  /** `--api-max-logs-per-request`: most logs one eth_getLogs / eth_getFilterLogs may return. */
  apiMaxLogsPerRequest?: number;
  /** `--api-max-json-depth`: deepest nesting of arrays and objects accepted in a request, checked before parsing. */
  apiMaxJsonDepth?: number;
  /** `--batch-request-limit`: most requests in one JSON-RPC batch. */
  batchRequestLimit?: number;
  /** `--api-max-body-bytes`: largest request body accepted, in bytes. */
  apiMaxBodyBytes?: number;
  /** `--api-auth-required`: every API but /ext/auth needs a bearer token. */
  apiAuthRequired?: boolean;
  /** `--api-auth-password-file`: the file holding the auth password. */
  apiAuthPasswordFile?: string;
  /** `--db-dir`: the node's data directory. */
  dbDir?: string;
  /** `--accepted-cache-size`: contract-chain blocks kept decoded in memory with `--db-dir` (the rest read from it). */
  acceptedCacheSize?: number;
  /** `--trie-clean-cache`: megabytes of state trie nodes kept in memory with `--db-dir`. */
  trieCleanCache?: number;
  /** `--load-state`: anvil's state JSON written over the contract chain's state at start. */
  loadState?: string;
  /** `--dump-state`: where the contract chain's state is written, as anvil's JSON, when the node stops. */
  dumpState?: string;
  /** `--staking-dir`: where the staking certificate and keys are kept (default `<db-dir>/staking`). */
  stakingDir?: string;
  /** `--staking-tls-cert-file` / `--staking-tls-key-file`: the staking certificate and key (PEM). */
  stakingTlsCertFile?: string;
  stakingTlsKeyFile?: string;
  /** `--index-enabled`: index every accepted container. */
  indexEnabled?: boolean;
  /** `--index-allow-incomplete`: allow starting without the index after running with it. */
  indexAllowIncomplete?: boolean;
  /** `--api-ipcs-enabled`: serve the IPC API. */
  apiIpcsEnabled?: boolean;
  /** `--ipcs-path`: directory of the IPC sockets (default /tmp). */
  ipcsPath?: string;
  /** `--chainevm-admin-api-enabled`: serve the contract chain's admin API. */
  chainEvmAdminApiEnabled?: boolean;
  /** `--vault`: serve the multisig vault (/v1/multisig) on the node's port. */
  vault?: boolean;
  /** `--explorer`: follow this node's indexes and serve the explorer under /explorer on the node's port (turns on --index-enabled). */
  explorer?: boolean;
  /** `--log-level`: the least severe level the node's log keeps (trace … crit; default info). */
  logLevel?: LogLevel;
  /** `--log-dir`: the node's log is also written to `<dir>/main.log`. */
  logDir?: string;
  /** Manual-network flags: the node's public IP and staking port, its network and bootstrappers. */
  publicIp?: string;
  stakingPort?: number;
  networkId?: number;
  bootstrapIps?: string[];
  bootstrapIds?: string[];
  /** `--genesis-file`: a JSON file with the genesis keys that apply (the platform chain's `initialMultisigAddresses`). */
  genesisFile?: string;
  /** `--fork-url`: fork this remote contract chain (see the README's Forking section). */
  forkUrl?: string;
  /** `--fork-block-number`: the block to fork from (default the remote's latest final block). */
  forkBlockNumber?: number;
  /** `--fork-header K:V` (repeatable): headers sent to the fork's remote. */
  forkHeaders?: string[];
  /** `--fork-cache-dir`: where the fork's remote answers are cached. */
  forkCacheDir?: string;
  /** `--fork-precompiles active|deprecated`: force the precompiles' behaviour on the fork. */
  forkPrecompiles?: string;
  /** `--fork-requests-per-second`: at most this many requests per second to the remote. */
  forkRequestsPerSecond?: number;
}

export interface NodeArgs {
  port: number;
  host: string;
  silent: boolean;
  options: CreateNodeOptions;
}

type Kind = "boolean" | "string" | "path" | "port" | "integer" | "duration" | "ip" | "ip-list" | "node-id-list" | "url" | "block" | "header" | "precompiles" | "log-level";

interface Flag {
  kind: Kind;
  /** The option it sets (or a field of `NodeArgs`). */
  key: keyof CreateNodeOptions | "port" | "host" | "silent";
  defaultText: string;
  help: string;
}

const FLAGS: Readonly<Record<string, Flag>> = {
  port: { kind: "port", key: "port", defaultText: String(DEFAULT_PORT), help: "HTTP port, 0 for any free port" },
  "http-port": { kind: "port", key: "port", defaultText: String(DEFAULT_PORT), help: "same as --port (the reference node's name)" },
  host: { kind: "string", key: "host", defaultText: DEFAULT_HOST, help: "interface to listen on; 0.0.0.0 exposes the node and its public test keys" },
  "chain-id": { kind: "integer", key: "chainId", defaultText: "43112", help: "chain ID of the contract chain" },
  "rpc-gas-cap": { kind: "integer", key: "rpcGasCap", defaultText: "50000000", help: "the most gas an eth_call or eth_estimateGas runs with; a request for more runs with this (the reference node's rpc-gas-cap)" },
  "rpc-evm-timeout": { kind: "duration", key: "rpcEvmTimeoutMs", defaultText: "5s", help: "longest an eth_call or eth_estimateGas may run (Go duration: 500ms, 5s, 1m; 0 for no limit); past it the call answers \"execution aborted\" (the reference node's rpc-evm-timeout)" },
  "api-max-blocks-per-request": { kind: "integer", key: "apiMaxBlocksPerRequest", defaultText: String(DEFAULT_API_MAX_BLOCKS_PER_REQUEST), help: "most blocks one eth_getLogs or eth_getFilterLogs may span; a wider query is refused (-32005)" },
  "api-max-logs-per-request": { kind: "integer", key: "apiMaxLogsPerRequest", defaultText: String(DEFAULT_API_MAX_LOGS_PER_REQUEST), help: "most logs one eth_getLogs or eth_getFilterLogs may return; a query matching more is refused (-32005)" },
  "batch-request-limit": { kind: "integer", key: "batchRequestLimit", defaultText: String(DEFAULT_MAX_BATCH_SIZE), help: "most requests in one JSON-RPC batch (the reference's batch-request-limit); a larger batch is refused (-32600)" },
  "api-max-body-bytes": { kind: "integer", key: "apiMaxBodyBytes", defaultText: String(DEFAULT_MAX_BODY_BYTES), help: "largest request body accepted, in bytes; a larger one is refused with HTTP 413 before it is read" },
  "api-max-json-depth": { kind: "integer", key: "apiMaxJsonDepth", defaultText: String(DEFAULT_MAX_JSON_DEPTH), help: "deepest nesting of arrays and objects in a request, checked before parsing it; deeper is refused (-32600)" },
  silent: { kind: "boolean", key: "silent", defaultText: "false", help: "do not print the JSON-RPC methods called" },
  "api-auth-required": { kind: "boolean", key: "apiAuthRequired", defaultText: "false", help: "every API but /ext/auth needs Authorization: Bearer <token>" },
  "api-auth-password-file": { kind: "path", key: "apiAuthPasswordFile", defaultText: "(none)", help: "file holding the auth password (trimmed); required with --api-auth-required" },
  "load-state": { kind: "path", key: "loadState", defaultText: "(none)", help: "at start, write the accounts of this state file (anvil's JSON, from --dump-state or anvil_dumpState) over the contract chain's state" },
  "dump-state": { kind: "path", key: "dumpState", defaultText: "(none)", help: "when the node stops, write the contract chain's state to this file as anvil's JSON (what --load-state reads)" },
  "db-dir": { kind: "path", key: "dbDir", defaultText: "(none: in memory)", help: "keep the chains, atomic memory, keystore, index and auth here across restarts (LevelDB)" },
  "accepted-cache-size": { kind: "integer", key: "acceptedCacheSize", defaultText: "256", help: "with --db-dir, contract-chain blocks (with their receipts) kept in memory; others are read from the directory when asked for" },
  "trie-clean-cache": { kind: "integer", key: "trieCleanCache", defaultText: "256", help: "with --db-dir, megabytes of state trie nodes kept in memory; others are read from the directory when needed" },
  "staking-dir": { kind: "path", key: "stakingDir", defaultText: "<db-dir>/staking, else one per process", help: "where the staking certificate and keys are kept" },
  "staking-tls-cert-file": { kind: "path", key: "stakingTlsCertFile", defaultText: "<staking-dir>/staker.crt", help: "staking TLS certificate (PEM); its hash is the node ID" },
  "staking-tls-key-file": { kind: "path", key: "stakingTlsKeyFile", defaultText: "<staking-dir>/staker.key", help: "key of the staking certificate (PEM)" },
  "index-enabled": { kind: "boolean", key: "indexEnabled", defaultText: "false", help: "index every accepted container (/ext/index/...)" },
  "index-allow-incomplete": { kind: "boolean", key: "indexAllowIncomplete", defaultText: "false", help: "start even though an index is, or would become, incomplete (with --db-dir)" },
  "api-ipcs-enabled": { kind: "boolean", key: "apiIpcsEnabled", defaultText: "false", help: "serve the IPC API (/ext/ipcs)" },
  "ipcs-path": { kind: "path", key: "ipcsPath", defaultText: DEFAULT_IPCS_PATH, help: "directory of the IPC sockets" },
  "chainevm-admin-api-enabled": { kind: "boolean", key: "chainEvmAdminApiEnabled", defaultText: "false", help: "serve the contract chain's admin API (/ext/bc/C/admin)" },
  vault: { kind: "boolean", key: "vault", defaultText: "false", help: "serve the multisig vault (/v1/multisig) on this port; its database under --db-dir, else in memory" },
  explorer: { kind: "boolean", key: "explorer", defaultText: "false", help: "serve the explorer under /explorer on this port (turns on --index-enabled); its database under --db-dir, else in memory" },
  "log-level": { kind: "log-level", key: "logLevel", defaultText: "info", help: `least severe level of the node's log kept: ${LOG_LEVELS.join(", ")}` },
  "log-dir": { kind: "path", key: "logDir", defaultText: "(none)", help: "also write the node's log to <dir>/main.log (created if missing)" },
  "public-ip": { kind: "ip", key: "publicIp", defaultText: DEFAULT_PUBLIC_IP, help: "public IP this node reports (info.getNodeIP)" },
  "staking-port": { kind: "port", key: "stakingPort", defaultText: String(DEFAULT_STAKING_PORT), help: "port of the peer network (TLS with the staking certificate); given, the node listens there for peers" },
  "network-id": { kind: "integer", key: "networkId", defaultText: "12345", help: "network ID: what info.getNetworkID and info.getNetworkName report and whose hrp the X and P addresses use (local for 12345, avax 1, fuji 5, custom for an unnamed ID); peers of another network are refused" },
  "bootstrap-ips": { kind: "ip-list", key: "bootstrapIps", defaultText: "(none)", help: "comma-separated host:port (staking ports) of the nodes to follow: the node then applies their accepted containers and forwards transactions to them" },
  "genesis-file": { kind: "path", key: "genesisFile", defaultText: "(none)", help: "JSON genesis: initialMultisigAddresses [{alias?, addresses, threshold, memo}] on the platform chain" },
  "fork-url": { kind: "url", key: "forkUrl", defaultText: "(none: no fork)", help: "fork the contract chain served at this JSON-RPC URL" },
  "fork-block-number": { kind: "block", key: "forkBlockNumber", defaultText: "the remote's latest final block", help: "block to fork from (pin it: the cache is per block)" },
  "fork-header": { kind: "header", key: "forkHeaders", defaultText: "(none)", help: "header K:V sent to the fork's remote; repeat for several" },
  "fork-cache-dir": { kind: "path", key: "forkCacheDir", defaultText: ".nativekit/fork-cache", help: "where the fork's immutable remote answers are cached" },
  "fork-precompiles": { kind: "precompiles", key: "forkPrecompiles", defaultText: "the remote chain's", help: "force the native-asset precompiles: active or deprecated" },
  "fork-requests-per-second": { kind: "integer", key: "forkRequestsPerSecond", defaultText: "(no limit)", help: "at most this many requests per second to the fork's remote" },
  "bootstrap-ids": { kind: "node-id-list", key: "bootstrapIds", defaultText: "(none)", help: "comma-separated NodeID-... of those nodes, in the same order" },
};

export const NODE_USAGE = `Usage: nativekit node [options]

Start a local simulation of a node (exchange chain, contract chain, keystore, info, health and,
with --api-auth-required, auth), with funded test accounts, serving JSON-RPC 2.0 over HTTP on the
node's usual paths (/ext/bc/C/rpc, /ext/bc/X, /ext/info, ...). Boolean flags take --flag,
--flag=true or --flag=false.

Options:
${Object.entries(FLAGS)
  .map(([name, flag]) => {
    const value = flag.kind === "boolean" ? "[=true|false]" : ` <${flag.kind === "path" ? "path" : flag.kind.endsWith("list") ? "list" : flag.kind === "port" || flag.kind === "integer" ? "n" : flag.kind === "duration" ? "duration" : "value"}>`;
    return `  --${name}${value}\n      ${flag.help} (default ${flag.defaultText})`;
  })
  .join("\n")}
  --help, -h
      show this help
`;

/** Parses the arguments of `nativekit node`: the options, "help", or an error message. */
export function parseNodeArgs(args: readonly string[]): NodeArgs | "help" | { error: string } {
  const { tokens } = parseArgs({
    args: [...args],
    strict: false,
    allowPositionals: true,
    tokens: true,
    options: {
      ...Object.fromEntries(Object.entries(FLAGS).map(([name, flag]) => [name, { type: flag.kind === "boolean" ? "boolean" : "string" }])),
      help: { type: "boolean", short: "h" },
    } as Record<string, { type: "boolean" | "string"; short?: string }>,
  });

  const result: NodeArgs = { port: DEFAULT_PORT, host: DEFAULT_HOST, silent: false, options: {} };
  const values: Record<string, unknown> = {};
  for (const token of tokens) {
    if (token.kind === "positional") return { error: `unexpected argument "${token.value}"` };
    if (token.kind === "option-terminator") continue;
    const { name, rawName } = token;
    if (name === "help") return "help";
    const flag = FLAGS[name];
    if (flag === undefined) {
      return { error: `unknown option ${rawName}` };
    }
    const value = token.value;
    let parsed: unknown;
    if (flag.kind === "boolean") {
      if (value === undefined) parsed = true;
      else if (value === "true" || value === "false") parsed = value === "true";
      else return { error: `invalid ${rawName}=${JSON.stringify(value)}: expected true or false` };
    } else {
      // Without a value, or with the next option taken as its value (`--port --host x`).
      if (value === undefined || (!token.inlineValue && value.startsWith("--"))) return { error: `${rawName} needs a value` };
      const checked = parseValue(flag.kind, value, rawName);
      if (checked instanceof Refusal) return { error: checked.message };
      parsed = checked;
    }
    // A repeatable flag collects its values.
    values[flag.key] = flag.kind === "header" ? [...((values[flag.key] as string[] | undefined) ?? []), parsed as string] : parsed;
  }

  const { port, host, silent, ...options } = values;
  if (port !== undefined) result.port = port as number;
  if (host !== undefined) result.host = host as string;
  if (silent !== undefined) result.silent = silent as boolean;
  result.options = options as CreateNodeOptions;
  return checkTogether(result);
}

/** Rules between flags. */
function checkTogether(result: NodeArgs): NodeArgs | { error: string } {
  const o = result.options;
  if (o.apiAuthRequired === true && o.apiAuthPasswordFile === undefined) {
    return { error: "--api-auth-required needs --api-auth-password-file <path>" };
  }
  if ((o.stakingTlsCertFile === undefined) !== (o.stakingTlsKeyFile === undefined)) {
    return { error: "--staking-tls-cert-file and --staking-tls-key-file must be given together" };
  }
  const ips = o.bootstrapIps?.length ?? 0;
  const ids = o.bootstrapIds?.length ?? 0;
  if (ips !== ids) return { error: `--bootstrap-ids names ${ids} node(s) but --bootstrap-ips ${ips}: give one ID per IP, in the same order` };
  const forkOnly = (["forkBlockNumber", "forkHeaders", "forkCacheDir", "forkPrecompiles", "forkRequestsPerSecond"] as const).filter((k) => o[k] !== undefined);
  if (o.forkUrl === undefined && forkOnly.length > 0) return { error: "the --fork-* options need --fork-url <url>" };
  return result;
}

/** A flag value refused, with the reason. */
class Refusal {
  constructor(readonly message: string) {}
}

function parseValue(kind: Kind, value: string, rawName: string): string | number | string[] | Refusal {
  const invalid = (expected: string) => new Refusal(`invalid ${rawName} ${JSON.stringify(value)}: expected ${expected}`);
  switch (kind) {
    case "port":
      return /^\d+$/.test(value) && Number(value) <= 65535 ? Number(value) : invalid("an integer from 0 to 65535");
    case "integer":
      return /^\d+$/.test(value) && Number(value) >= 1 && Number.isSafeInteger(Number(value))
        ? Number(value)
        : invalid(`a positive integer up to ${Number.MAX_SAFE_INTEGER}`);
    case "duration": {
      const ms = parseGoDuration(value);
      return ms !== undefined ? ms : invalid('a duration such as 5s, 500ms or 1m30s (0 for no limit)');
    }
    case "string":
    case "path":
      return value.trim() === "" ? new Refusal(`invalid ${rawName}: the ${kind === "path" ? "path" : "host"} must not be empty`) : value.trim();
    case "ip":
      return isIP(value) !== 0 ? value : invalid("an IP address such as 127.0.0.1");
    case "ip-list": {
      const list = splitList(value);
      return list.every(isHostPort) ? list : invalid('comma-separated IP:port pairs such as "127.0.0.1:9651"');
    }
    case "node-id-list": {
      const list = splitList(value);
      return list.every((id) => id.startsWith("NodeID-") && isCb58(id.slice("NodeID-".length), 20))
        ? list
        : invalid('comma-separated node IDs such as "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"');
    }
    case "url":
      return /^https?:\/\/\S+$/i.test(value) ? value : invalid("an http(s) URL such as https://api.avax.network/ext/bc/C/rpc");
    case "block":
      return /^\d+$/.test(value) && Number.isSafeInteger(Number(value)) ? Number(value) : invalid("a block number");
    case "header":
      return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+:.*$/.test(value) ? value : invalid('a header as Name:value, such as "x-api-key:secret"');
    case "precompiles":
      return value === "active" || value === "deprecated" ? value : invalid("active or deprecated");
    case "log-level":
      try {
        return parseLogLevel(value);
      } catch {
        return invalid(LOG_LEVELS.join(", "));
      }
    default:
      return invalid("a value");
  }
}

function splitList(value: string): string[] {
  return value.split(",").map((s) => s.trim()).filter((s) => s !== "");
}

function isHostPort(text: string): boolean {
  const at = text.lastIndexOf(":");
  if (at <= 0) return false;
  const host = text.slice(0, at).replace(/^\[(.*)\]$/, "$1");
  const port = text.slice(at + 1);
  return isIP(host) !== 0 && /^\d+$/.test(port) && Number(port) <= 65535;
}

const DURATION_UNITS_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A Go duration ("5s", "500ms", "1m30s", "0") in whole milliseconds; undefined when it is not one. */
export function parseGoDuration(text: string): number | undefined {
  if (text === "0") return 0;
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(text)) return undefined;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) total += Number(amount) * DURATION_UNITS_MS[unit!]!;
  return Number.isSafeInteger(Math.round(total)) ? Math.round(total) : undefined;
}
