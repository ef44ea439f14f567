/**
 * Client of the local network runner's HTTP gateway (`nativekit network-runner`, or the
 * reference runner's gateway): each method posts its request to `/v1/ping` or
 * `/v1/control/<method>` and returns the response message; a refusal throws
 * {@link RunnerRequestError} with the gateway's `{code, message}`.
 *
 * ```ts
 * const runner = createRunnerClient({ url: "http://127.0.0.1:8081" });
 * const { clusterInfo } = await runner.start({ numNodes: 5 });
 * const { uris } = await runner.uris();
 * await runner.stop();
 * ```
 */
import type {
  AddNodeRequest,
  ClusterInfoResponse,
  PingResponse,
  RestartNodeRequest,
  RpcVersionResponse,
  StartRequest,
  StartResponse,
  UrisResponse,
} from "./runner-messages";
import type { FetchFunction } from "./transport";

export type * from "./runner-messages";

/** The reference runner's default gateway address. */
export const DEFAULT_RUNNER_URL = "http://127.0.0.1:8081";

export interface RunnerClientOptions {
  /** Base URL of the gateway, without a path (default http://127.0.0.1:8081). */
  url?: string;
  fetch?: FetchFunction;
  /** Time allowed for each call in milliseconds; default none (a start may take minutes). */
  timeoutMs?: number;
}

/** The gateway's refusal: HTTP status, gRPC code and message (e.g. 400, 9, "not bootstrapped"). */
export class RunnerRequestError extends Error {
  override readonly name = "RunnerRequestError";
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export interface RunnerClient {
  readonly url: string;
  ping(): Promise<PingResponse>;
  rpcVersion(): Promise<RpcVersionResponse>;
  /** Starts a network; omitted fields take the runner's defaults (5 nodes, nativekit's node…). */
  start(request?: Partial<StartRequest>): Promise<StartResponse>;
  health(): Promise<ClusterInfoResponse>;
  /** The nodes' base URLs, sorted. */
  uris(): Promise<UrisResponse>;
  status(): Promise<ClusterInfoResponse>;
  waitForHealthy(): Promise<ClusterInfoResponse>;
  addNode(request: Partial<AddNodeRequest>): Promise<ClusterInfoResponse>;
  removeNode(name: string): Promise<ClusterInfoResponse>;
  restartNode(request: { name: string } & Partial<RestartNodeRequest>): Promise<ClusterInfoResponse>;
  pauseNode(name: string): Promise<ClusterInfoResponse>;
  resumeNode(name: string): Promise<ClusterInfoResponse>;
  stop(): Promise<ClusterInfoResponse>;
  /**
   * Follows the cluster: `onStatus` gets one status now and one every `pushIntervalMs`. Resolves
   * once the stream is open; `close()` ends it.
   */
  streamStatus(pushIntervalMs: number, onStatus: (status: ClusterInfoResponse) => void): Promise<{ close(): void }>;
}

export function createRunnerClient(options: RunnerClientOptions = {}): RunnerClient {
  const url = (options.url ?? DEFAULT_RUNNER_URL).replace(/\/+$/, "");
  const fetchFn: FetchFunction = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  const post = async (path: string, body: unknown = {}, signal?: AbortSignal): Promise<Response> => {
    const response = await fetchFn(`${url}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal: signal ?? (options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs)),
    });
    if (!response.ok) throw await refusal(response);
    return response;
  };
  const call = async <T>(path: string, body: unknown = {}): Promise<T> => (await (await post(path, body)).json()) as T;
  const control = <T>(method: string, body: unknown = {}) => call<T>(`/v1/control/${method}`, body);

  return {
    url,
    ping: () => call("/v1/ping"),
    rpcVersion: () => control("rpcversion"),
    start: (request = {}) => control("start", request),
    health: () => control("health"),
    uris: () => control("uris"),
    status: () => control("status"),
    waitForHealthy: () => control("waitforhealthy"),
    addNode: (request) => control("addnode", request),
    removeNode: (name) => control("removenode", { name }),
    restartNode: (request) => control("restartnode", request),
    pauseNode: (name) => control("pausenode", { name }),
    resumeNode: (name) => control("resumenode", { name }),
    stop: () => control("stop"),
    streamStatus: async (pushIntervalMs, onStatus) => {
      const abort = new AbortController();
      const response = await post("/v1/control/streamstatus", { pushInterval: String(BigInt(Math.round(pushIntervalMs)) * 1_000_000n) }, abort.signal);
      if (response.body === null) throw new RunnerRequestError(response.status, 2, "the runner sent no status stream");
      void readLines(response.body, (line) => onStatus((JSON.parse(line) as { result: ClusterInfoResponse }).result)).catch(() => undefined);
      return { close: () => abort.abort() };
    },
  };
}

async function refusal(response: Response): Promise<RunnerRequestError> {
  const text = await response.text();
  let body: { code?: unknown; message?: unknown } | undefined;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    body = undefined;
  }
  return new RunnerRequestError(response.status, typeof body?.code === "number" ? body.code : 2, typeof body?.message === "string" ? body.message : text);
}

/** Calls `onLine` with each non-empty line of a streamed body. */
async function readLines(body: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n")) !== -1) {
      const line = buffer.slice(0, end).trim();
      buffer = buffer.slice(end + 1);
      if (line !== "") onLine(line);
    }
  }
}
