import * as fs from "node:fs";
import * as inspector from "node:inspector";
import * as os from "node:os";
import * as path from "node:path";
import { monitorEventLoopDelay, type IntervalHistogram } from "node:perf_hooks";
import * as v8 from "node:v8";

/**
 * The profiles `admin.*` writes, into one directory, each under a fixed name (a new profile
 * replaces the previous one, as the reference node's `utils/profiler` does with `cpu.profile`,
 * `mem.profile` and `lock.profile`). A Node process cannot write Go's pprof files; it writes what
 * its own tools open:
 *
 *   cpu.cpuprofile     V8 CPU profile (node:inspector Profiler), from startCPUProfiler to
 *                      stopCPUProfiler; Chrome DevTools (Performance) and VS Code open it
 *   mem.heapsnapshot   V8 heap snapshot (v8.writeHeapSnapshot); Chrome DevTools (Memory) opens it
 *   lock.json          a JavaScript process has no mutexes to profile: what it can honestly report
 *                      about waiting instead — the event-loop delay histogram since the profiler
 *                      was created (how long ready work waited for the single thread), the active
 *                      handles and requests keeping the process alive, and resource usage
 */
const PROFILE_FILES = { cpu: "cpu.cpuprofile", memory: "mem.heapsnapshot", lock: "lock.json" } as const;

/** Default directory: `<tmp>/nativekit-<pid>/profiles`. */
export function defaultProfileDir(): string {
  return path.join(os.tmpdir(), `nativekit-${process.pid}`, "profiles");
}

export class ProfilerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProfilerError";
  }
}

export class Profiler {
  private cpuSession: inspector.Session | undefined;
  private readonly loopDelay: IntervalHistogram;
  private readonly since = new Date();

  constructor(readonly directory: string = defaultProfileDir()) {
    this.loopDelay = monitorEventLoopDelay({ resolution: 10 });
    this.loopDelay.enable();
  }

  get cpuProfilerRunning(): boolean {
    return this.cpuSession !== undefined;
  }

  async startCpuProfiler(): Promise<void> {
    if (this.cpuSession !== undefined) throw new ProfilerError("cpu profiler already running");
    const session = new inspector.Session();
    this.cpuSession = session;
    try {
      session.connect();
      await post(session, "Profiler.enable");
      await post(session, "Profiler.start");
    } catch (error) {
      this.cpuSession = undefined;
      session.disconnect();
      throw error;
    }
  }

  /** Stops the CPU profiler and writes its profile; returns the file written. */
  async stopCpuProfiler(): Promise<string> {
    const session = this.cpuSession;
    if (session === undefined) throw new ProfilerError("cpu profiler doesn't exist");
    this.cpuSession = undefined;
    try {
      const { profile } = (await post(session, "Profiler.stop")) as { profile: object };
      return this.write(PROFILE_FILES.cpu, JSON.stringify(profile));
    } finally {
      session.disconnect();
    }
  }

  /** Writes a heap snapshot; returns the file written. */
  memoryProfile(): string {
    const file = this.file(PROFILE_FILES.memory);
    v8.writeHeapSnapshot(file);
    return file;
  }

  /** Writes the waiting report (see the file's comment); returns the file written. */
  lockProfile(): string {
    const h = this.loopDelay;
    const ms = (ns: number) => Number.isFinite(ns) ? ns / 1e6 : 0;
    const report = {
      note: "A Node.js process runs JavaScript on one thread and has no mutexes: this reports how long ready work waited for that thread (event-loop delay) and what keeps the process busy, instead of Go's mutex contention profile.",
      since: this.since.toISOString(),
      at: new Date().toISOString(),
      eventLoopDelayMs: {
        samples: h.count,
        min: ms(h.min),
        mean: ms(h.mean),
        stddev: ms(h.stddev),
        p50: ms(h.percentile(50)),
        p90: ms(h.percentile(90)),
        p99: ms(h.percentile(99)),
        max: ms(h.max),
      },
      activeResources: process.getActiveResourcesInfo(),
      resourceUsage: process.resourceUsage(),
      memoryUsage: process.memoryUsage(),
    };
    return this.write(PROFILE_FILES.lock, JSON.stringify(report, null, 2));
  }

  /** Stops a running CPU profile without writing it, and the event-loop monitor. */
  close(): void {
    this.cpuSession?.disconnect();
    this.cpuSession = undefined;
    this.loopDelay.disable();
  }

  private file(name: string): string {
    fs.mkdirSync(this.directory, { recursive: true });
    return path.join(this.directory, name);
  }

  private write(name: string, text: string): string {
    const file = this.file(name);
    fs.writeFileSync(file, text);
    return file;
  }
}

function post(session: inspector.Session, method: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    session.post(method, (error, result) => (error === null ? resolve(result) : reject(error)));
  });
}
