/**
 * A bounded memo in two generations: when the young map has taken a generation's worth of
 * entries it becomes the old one and the previous old one is dropped, so an entry not read while
 * that much else was added is forgotten, and the memory stays below two generations. An entry
 * read from the old generation moves back to the young one.
 *
 * A generation is `generationLimit` entries, or, with `weigh`, that much of their summed weight
 * (the jump-analysis memo weighs code by its length). Keys compare as a Map's do: objects by
 * identity, strings by value. Plain Maps rather than WeakMaps: V8 traces WeakMap entries one by
 * one in every collection, which cost more than the memo saved.
 */
export class GenerationalMemo<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private youngWeight = 0;

  constructor(
    private readonly generationLimit: number,
    private readonly weigh: (key: K) => number = () => 1,
  ) {
    if (!Number.isInteger(generationLimit) || generationLimit < 1) throw new RangeError("generationLimit must be a positive integer");
  }

  get(key: K): V | undefined {
    const young = this.young.get(key);
    if (young !== undefined) return young;
    const old = this.old.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  set(key: K, value: V): void {
    const weight = this.weigh(key);
    if (this.youngWeight + weight > this.generationLimit && this.young.size > 0) {
      this.old = this.young;
      this.young = new Map();
      this.youngWeight = 0;
    }
    this.young.set(key, value);
    this.youngWeight += weight;
  }
}
