/**
 * The latency of a cheap request while something else loads the node: the hostile-input tests
 * assert that one client's expensive request does not make everyone else wait.
 */

/** The median time, in milliseconds, of `count` calls of `call` made one after another. */
export async function medianLatencyMs(call: () => Promise<unknown>, count = 20): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
    // A turn of the event loop between calls, so whatever loads the node gets its turn too.
    await new Promise((resolve) => setImmediate(resolve));
  }
  times.sort((a, b) => a - b);
  const middle = Math.floor(times.length / 2);
  return times.length % 2 === 1 ? times[middle]! : (times[middle - 1]! + times[middle]!) / 2;
}

/**
 * Runs `hostile` over and over, `clients` at a time, while `measure` runs; resolves with what
 * `measure` gave once the hostile requests in flight have ended. Their failures are ignored (a
 * refusal is what the tests expect of them); what they answered is the caller's to check.
 */
export async function whileHammered<T>(hostile: () => Promise<unknown>, measure: () => Promise<T>, clients = 2): Promise<T> {
  let done = false;
  const hammer = async () => {
    while (!done) {
      await hostile().catch(() => undefined);
      // An in-process provider may answer with promises alone: without a turn of the event loop
      // between requests, the loop would starve the timers and the measurement it runs beside.
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const hammers = Array.from({ length: clients }, hammer);
  // Let the first hostile requests reach the node before measuring.
  await new Promise((resolve) => setTimeout(resolve, 50));
  try {
    return await measure();
  } finally {
    done = true;
    await Promise.all(hammers);
  }
}
