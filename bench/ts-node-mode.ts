/**
 * Whether this process runs under ts-node's type checker. The explorer benchmark runs the
 * explorer in the benchmark's own process, where the checker keeps the whole program's types in
 * the heap (about 250 MB): every major collection of the explorer's heap then marks them too, which set
 * the transaction lists' p95 (major collections come often, as each list answer is a 250 KB
 * string). A user's explorer carries none of that, so the benchmarks run with
 * `ts-node --transpile-only` (as `npm run bench` does), and say so when they do not.
 */
export function underTypeCheckingTsNode(): boolean {
  const service = (process as unknown as Record<symbol, { options?: { transpileOnly?: boolean } } | undefined>)[Symbol.for("ts-node.register.instance")];
  return service !== undefined && service.options?.transpileOnly !== true;
}
