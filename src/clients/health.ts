/**
 * Client of the health API (`health.*` at `/ext/health`): the node's health, readiness and
 * liveness reports, each `{ healthy, checks }` with one result per check.
 */
import { PATHS } from "../network/paths";
import { checkTransport, Endpoint } from "./call";
import type { Reader } from "./internal";
import type { JsonValue } from "./json";
import type { Transport } from "./transport";
import type { RequestOptions } from "./types";

export const HEALTH_PATH = PATHS.health;

export interface HealthClientOptions {
  transport: Transport;
}

/** One check's last result. */
export interface HealthCheckResult {
  /** What the check reports (any JSON), null when it has nothing to say. */
  readonly message: JsonValue;
  /** Why the check fails; absent while it passes. */
  readonly error?: string;
  /** When the check ran (RFC 3339). */
  readonly timestamp: string;
  /** How long it ran, in nanoseconds. */
  readonly duration: number;
  /** Failures in a row (0 while it passes). */
  readonly contiguousFailures: number;
  /** When the current run of failures began; null while it passes. */
  readonly timeOfFirstFailure: string | null;
}

export interface HealthReport {
  readonly healthy: boolean;
  readonly checks: Readonly<Record<string, HealthCheckResult>>;
}

export interface HealthClient {
  readonly path: string;
  health(options?: RequestOptions): Promise<HealthReport>;
  readiness(options?: RequestOptions): Promise<HealthReport>;
  liveness(options?: RequestOptions): Promise<HealthReport>;
}

function readReport(r: Reader): HealthReport {
  const checks: Record<string, HealthCheckResult> = {};
  const members = r.get("checks");
  for (const name of Object.keys(members.object())) {
    const c = members.get(name);
    const error = c.maybe("error")?.string();
    const first = c.maybe("timeOfFirstFailure");
    checks[name] = {
      message: c.object().message ?? null,
      ...(error === undefined ? {} : { error }),
      timestamp: c.get("timestamp").string(),
      duration: c.get("duration").count(),
      contiguousFailures: c.get("contiguousFailures").count(),
      timeOfFirstFailure: first === undefined ? null : first.string(),
    };
  }
  return { healthy: r.get("healthy").boolean(), checks };
}

export function createHealthClient(options: HealthClientOptions): HealthClient {
  const health = new Endpoint(checkTransport("createHealthClient", options.transport), HEALTH_PATH, "health");
  return {
    path: health.path,
    health: (o) => health.call("health", () => ({}), readReport, o),
    readiness: (o) => health.call("readiness", () => ({}), readReport, o),
    liveness: (o) => health.call("liveness", () => ({}), readReport, o),
  };
}
