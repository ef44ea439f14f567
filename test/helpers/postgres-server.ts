/**
 * A throwaway PostgreSQL server for tests of the real-server path: a fresh data directory made
 * by `initdb` in a temporary directory, `postgres` on a free port of 127.0.0.1 with its unix
 * socket in that directory, stopped by its pid (and checked gone), the directory removed.
 *
 * Binaries looked for: `initdb` and `postgres` in /usr/lib/postgresql/<major>/bin (Debian's
 * `postgresql` package; the highest major present), else on PATH. Absent binaries fail the test
 * with a message saying so; nothing is skipped. PostgreSQL refuses to run as root: as root the
 * server runs as the OS user `postgres` (created by the package) through `su`.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export interface PostgresServer {
  /** `postgres://vault@127.0.0.1:<port>/postgres` (trust authentication, local only). */
  url: string;
  /** The postmaster's pid (a new one after `resume`). */
  readonly pid: number;
  /** Stops the server, keeping its data (a database that goes away). */
  pause(): Promise<void>;
  /** Starts it again on the same port and data (the database comes back). */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

const DEBIAN_ROOT = "/usr/lib/postgresql";
const OS_USER = "postgres";

/** The directory holding initdb and postgres, or an Error saying what is missing. */
export function findPostgresBinaries(): string {
  const candidates: string[] = [];
  if (fs.existsSync(DEBIAN_ROOT)) {
    const majors = fs.readdirSync(DEBIAN_ROOT).filter((d) => /^\d+$/.test(d)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...majors.map((m) => path.join(DEBIAN_ROOT, m, "bin")));
  }
  candidates.push(...(process.env.PATH ?? "").split(path.delimiter).filter((d) => d !== ""));
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, "initdb")) && fs.existsSync(path.join(dir, "postgres")));
  if (found === undefined) {
    throw new Error(`PostgreSQL server binaries not found: the vault's real-server tests need initdb and postgres in ${DEBIAN_ROOT}/<major>/bin or on PATH (Debian: apt-get install postgresql)`);
  }
  return found;
}

export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = findPostgresBinaries();
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-pg-"));
  const data = path.join(dir, "data");
  if (asRoot) {
    try {
      execFileSync("id", [OS_USER], { stdio: "ignore" });
    } catch {
      throw new Error(`running as root, the PostgreSQL test server needs the OS user "${OS_USER}" (created by Debian's postgresql package)`);
    }
    execFileSync("chown", [OS_USER, dir]);
  }
  const run = (command: string, args: string[]): ChildProcess => {
    const line = [command, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
    return asRoot ? spawn("su", [OS_USER, "-s", "/bin/sh", "-c", `exec ${line}`], { stdio: ["ignore", "pipe", "pipe"] }) : spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  };
  await finished(run(path.join(bin, "initdb"), ["-D", data, "-U", "vault", "--auth=trust", "-E", "UTF8", "--no-locale"]), "initdb");
  const port = await freePort();
  const launch = async (): Promise<number> => {
    const server = run(path.join(bin, "postgres"), ["-D", data, "-k", dir, "-h", "127.0.0.1", "-p", String(port), "-c", "fsync=off"]);
    let log = "";
    server.stdout?.on("data", (c: Buffer) => (log += c.toString()));
    server.stderr?.on("data", (c: Buffer) => (log += c.toString()));
    return waitForServer(data, () => log, server);
  };
  const halt = async (pid: number): Promise<void> => {
    // The postmaster's own pid (su, when used, is only its parent): a fast shutdown, then a wait.
    signal(pid, "SIGINT");
    for (let i = 0; i < 100 && alive(pid); i++) await sleep(100);
    if (alive(pid)) signal(pid, "SIGKILL");
    for (let i = 0; i < 50 && alive(pid); i++) await sleep(100);
    if (alive(pid)) throw new Error(`the PostgreSQL test server (pid ${pid}) did not stop`);
  };
  let pid = await launch();
  let running = true;
  return {
    url: `postgres://vault@127.0.0.1:${port}/postgres`,
    get pid() {
      return pid;
    },
    pause: async () => {
      await halt(pid);
      running = false;
    },
    resume: async () => {
      pid = await launch();
      running = true;
    },
    stop: async () => {
      if (running) await halt(pid);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitForServer(data: string, log: () => string, child: ChildProcess): Promise<number> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`postgres exited (${child.exitCode}):\n${log()}`);
    if (log().includes("ready to accept connections")) {
      const pid = Number(fs.readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]);
      if (Number.isInteger(pid) && pid > 0) return pid;
    }
    await sleep(100);
  }
  throw new Error(`postgres did not start within 30 s:\n${log()}`);
}

function finished(child: ChildProcess, name: string): Promise<void> {
  let output = "";
  child.stdout?.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (output += c.toString()));
  return new Promise((resolve, reject) => child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${name} failed (${code}):\n${output}`)))));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
