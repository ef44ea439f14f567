/** Request paths and URL hosts of the HTTP server: how a request target becomes a route key. */

/** The path of a request target, without query string. */
export function requestPath(target: string | undefined): string {
  if (target === undefined || target === "") return "/";
  const end = target.search(/[?#]/);
  const path = end === -1 ? target : target.slice(0, end);
  if (path.startsWith("/")) return path;
  // Absolute form (`http://host/path`), as sent through some proxies.
  try {
    return new URL(path).pathname;
  } catch {
    return path;
  }
}

/** Drops trailing slashes, so `/ext/bc/C/rpc/` serves `/ext/bc/C/rpc`. */
export function normalizePath(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed === "" ? "/" : trimmed;
}

/** The host to put in a URL: wildcard addresses are reached through loopback; IPv6 is bracketed. */
export function urlHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::" || host === "[::]") return "[::1]";
  if (host.includes(":") && !host.startsWith("[")) return `[${host}]`;
  return host;
}
