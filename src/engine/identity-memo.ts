/**
 * A bounded memo keyed by object identity, in two generations: when the young map has taken
 * `generationSize` entries it becomes the old one and the previous old one is dropped, so an
 * entry not read while that many others were added is forgotten, and the memory stays below
 * two generations. Plain Maps rather than WeakMaps: V8 traces WeakMap entries one by one in
 * every collection, which cost more than the memo saved.
 */
export class IdentityMemo<K extends object, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();

  constructor(private readonly generationSize: number) {
    if (!Number.isInteger(generationSize) || generationSize < 1) throw new RangeError("generationSize must be a positive integer");
  }

  get(key: K): V | undefined {
    const young = this.young.get(key);
    if (young !== undefined) return young;
    const old = this.old.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  set(key: K, value: V): void {
    if (this.young.size >= this.generationSize) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }
}
