/**
 * The health API of the node (path /ext/health): health.health, health.readiness and
 * health.liveness as JSON-RPC, and the same reports to GET (`/ext/health`, and
 * `/ext/health/{health,readiness,liveness}`), answered 200 when healthy and 503 when not.
 *
 * A report is `{checks: {<name>: result}, healthy}`; a result is `{message, timestamp,
 * duration, contiguousFailures, timeOfFirstFailure}` (plus `error` while failing), as the
 * reference node writes it: `timestamp` and `timeOfFirstFailure` in RFC 3339 (the latter null
 * while the check passes), `duration` in nanoseconds.
 *
 * Checks run when a report is asked for (no background timer); each keeps its failure count
 * between runs.
 */
import type { GetHandler } from "./http-server";
import { RpcApi, type NamedParams } from "../rpc";
import { PATHS } from "../network/paths";

export type HealthKind = "health" | "readiness" | "liveness";

const HEALTH_KINDS: readonly HealthKind[] = ["health", "readiness", "liveness"];

export interface HealthCheck {
  name: string;
  /** The reports this check is part of. */
  kinds: readonly HealthKind[];
  /** Resolves to the check's message when healthy; throws when not. */
  run(): Promise<unknown>;
}

export interface HealthResult {
  message: unknown;
  error?: string;
  timestamp: string;
  duration: number;
  contiguousFailures: number;
  timeOfFirstFailure: string | null;
}

export interface HealthReport {
  checks: Record<string, HealthResult>;
  healthy: boolean;
}

export class HealthMonitor {
  private readonly failures = new Map<string, { count: number; since: Date }>();

  constructor(
    private readonly checks: readonly HealthCheck[],
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Runs the checks of one report and tells their results. */
  async report(kind: HealthKind): Promise<HealthReport> {
    const chosen = this.checks.filter((c) => c.kinds.includes(kind));
    const results = await Promise.all(chosen.map((c) => this.run(c)));
    const checks: Record<string, HealthResult> = {};
    chosen.forEach((c, i) => (checks[c.name] = results[i]!));
    return { checks, healthy: results.every((r) => r.error === undefined) };
  }

  private async run(check: HealthCheck): Promise<HealthResult> {
    const started = process.hrtime.bigint();
    const timestamp = this.clock();
    let message: unknown = null;
    let error: string | undefined;
    try {
      message = (await check.run()) ?? null;
    } catch (thrown) {
      error = thrown instanceof Error ? thrown.message : String(thrown);
    }
    const duration = Number(process.hrtime.bigint() - started);
    if (error === undefined) {
      this.failures.delete(check.name);
      return { message, timestamp: timestamp.toISOString(), duration, contiguousFailures: 0, timeOfFirstFailure: null };
    }
    const previous = this.failures.get(check.name);
    const failure = { count: (previous?.count ?? 0) + 1, since: previous?.since ?? timestamp };
    this.failures.set(check.name, failure);
    return {
      message,
      error,
      timestamp: timestamp.toISOString(),
      duration,
      contiguousFailures: failure.count,
      timeOfFirstFailure: failure.since.toISOString(),
    };
  }
}

export function createHealthApi(monitor: HealthMonitor): RpcApi {
  return new RpcApi().namedMethods(monitor, {
    "health.health": health,
    "health.readiness": readiness,
    "health.liveness": liveness,
  });
}

/** {tags?}: every check's result. */
function health(monitor: HealthMonitor, params: NamedParams): Promise<HealthReport> {
  return reportTagged(monitor, params, "health");
}

/** {tags?}: whether the node is ready to serve (its chains answer). */
function readiness(monitor: HealthMonitor, params: NamedParams): Promise<HealthReport> {
  return reportTagged(monitor, params, "readiness");
}

/** {tags?}: whether the node itself runs. */
function liveness(monitor: HealthMonitor, params: NamedParams): Promise<HealthReport> {
  return reportTagged(monitor, params, "liveness");
}

function reportTagged(monitor: HealthMonitor, params: NamedParams, kind: HealthKind): Promise<HealthReport> {
  // Every check of this node belongs to the primary network, so tags narrow nothing.
  params.stringArray("tags");
  return monitor.report(kind);
}

/** The GET answers: `/ext/health` (the health report) and `/ext/health/<kind>`; 200 or 503. */
export function healthGetRoutes(monitor: HealthMonitor): Record<string, GetHandler> {
  const answer = (kind: HealthKind): GetHandler => async () => {
    const report = await monitor.report(kind);
    return { status: report.healthy ? 200 : 503, body: report };
  };
  const routes: Record<string, GetHandler> = { [PATHS.health]: answer("health") };
  for (const kind of HEALTH_KINDS) routes[`${PATHS.health}/${kind}`] = answer(kind);
  return routes;
}
