/**
 * Interval mining (evm_setIntervalMining, anvil_setIntervalMining): a timer that mines a block
 * every so often, as Hardhat's network and anvil do, beside automine or instead of it. The
 * interval is a number of milliseconds, or a [min, max] range from which each wait is drawn
 * (Hardhat's form); 0 turns it off. The timer never keeps the process alive, and a block it
 * mines runs in turn with every other operation (the `mine` it is given is serialized).
 */
export type MiningInterval = number | readonly [min: number, max: number];

export class IntervalMining {
  private interval: MiningInterval = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Bumped by every change, so a block mined under an old interval does not schedule the next. */
  private generation = 0;

  constructor(
    private readonly mine: () => Promise<unknown>,
    private readonly log: (line: string) => void,
  ) {}

  /** The interval in milliseconds (or its range); 0 when off. */
  get current(): MiningInterval {
    return this.interval;
  }

  set(interval: MiningInterval): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.interval = interval;
    this.generation++;
    const on = typeof interval === "number" ? interval > 0 : interval[1] > 0;
    if (on) this.schedule(this.generation);
  }

  private schedule(generation: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.mine()
        .catch((error: unknown) => this.log(`interval mining: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => {
          if (generation === this.generation) this.schedule(generation);
        });
    }, waitOf(this.interval));
    this.timer.unref();
  }
}

/** The wait before the next block: the interval, or a whole number drawn from its range. */
function waitOf(interval: MiningInterval): number {
  if (typeof interval === "number") return interval;
  const [min, max] = interval;
  return min + Math.floor(Math.random() * (max - min + 1));
}
