/**
 * CPU time spent by a process and its children (a PostgreSQL server: its postmaster and each
 * backend), read from Linux's /proc, so a benchmark can say what its work costs in CPU and not
 * only how long it took on a machine shared with other jobs. Elsewhere it answers undefined.
 * Children that exited in between are not counted (a server's connections stay open).
 */
import fs from "node:fs";

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

export function processTreeCpuMs(pid: number): number | undefined {
  if (!fs.existsSync("/proc/self/stat")) return undefined;
  let ticks = 0;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // After the command's closing parenthesis: state, ppid, ..., utime (14th field), stime (15th).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(entry) === pid || Number(fields[1]) === pid) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}
