/** The latency of an explorer's GET path under concurrent clients (median and p95), for the explorer benchmarks. */
import { performance } from "node:perf_hooks";

export interface LatencyMeasure {
  path: string;
  requests: number;
  clients: number;
  medianMs: number;
  p95Ms: number;
  /** The path's first request in this process, alone (the server's code and the data cold), when measured. */
  firstMs?: number;
}

/**
 * The time of one GET `url + path`, alone: taken for each path before any is timed under load,
 * so that the p95s are those of a server that has answered each path once (an explorer runs for
 * days), and the first answer, the cold one, is reported beside them rather than folded into
 * the p95 of whichever paths are timed first.
 */
export async function firstRequestMs(url: string, path: string): Promise<number> {
  const t = performance.now();
  const response = await fetch(`${url}${path}`);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
  return performance.now() - t;
}

/** Latency of GET `url + path` with `clients` concurrent clients, `requests` in all. */
export async function measureLatency(url: string, path: string, clients: number, requests: number): Promise<LatencyMeasure> {
  const times: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < requests) {
        next++;
        const t = performance.now();
        // A kept-alive socket the server closed as the request went out is reset before any
        // answer: the GET is sent again (timed from the first try), as an HTTP client would.
        const response = await fetch(`${url}${path}`).catch(() => fetch(`${url}${path}`));
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
        times.push(performance.now() - t);
      }
    }),
  );
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { path, requests: times.length, clients, medianMs: at(0.5), p95Ms: at(0.95) };
}
