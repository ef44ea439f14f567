/**
 * Long work on the event loop in slices: a node serving a large answer (ten thousand logs) gives
 * other clients' requests a turn every few milliseconds instead of holding the loop for the
 * whole answer.
 */
import { type JsonText, jsonArrayText } from "../rpc/json-text";
import { EXECUTION_SLICE_MS } from "./execution-budget";

/** Items mapped between two looks at the clock. */
const ITEMS_PER_CLOCK_LOOK = 256;

/**
 * The JSON text of an array whose items `toJson` writes, a slice at a time: for an answer of
 * thousands of items, where one `JSON.stringify` of the whole would hold the event loop for tens
 * of milliseconds.
 */
export async function jsonArrayInSlices<T>(items: readonly T[], toJson: (item: T, index: number) => string): Promise<JsonText> {
  return jsonArrayText(await mapInSlices(items, toJson));
}

/**
 * A loop's turns of the event loop: `next()` waits for one once about 10 ms of work have passed
 * since the last (for a loop of awaited steps that never wait for I/O, such as mining blocks).
 */
export class TimeSlices {
  private sliceEnd = performance.now() + EXECUTION_SLICE_MS;

  async next(): Promise<void> {
    if (performance.now() < this.sliceEnd) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.sliceEnd = performance.now() + EXECUTION_SLICE_MS;
  }
}

/** `items.map(map)`, with a turn of the event loop after each slice of about 10 ms of work. */
async function mapInSlices<T, U>(items: readonly T[], map: (item: T, index: number) => U): Promise<U[]> {
  const out: U[] = new Array<U>(items.length);
  let sliceEnd = performance.now() + EXECUTION_SLICE_MS;
  for (let i = 0; i < items.length; i++) {
    out[i] = map(items[i]!, i);
    if ((i + 1) % ITEMS_PER_CLOCK_LOOK === 0 && performance.now() >= sliceEnd) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceEnd = performance.now() + EXECUTION_SLICE_MS;
    }
  }
  return out;
}
