/**
 * The engine's lock: its operations run one at a time (the EVM state is shared and every step
 * awaits). It is also the one place where a block is sealed after the operation that mined it
 * has answered (the transaction's outcome is known once it has run; its block's roots can be
 * computed after the client has its answer): only an operation holding the lock can ask for
 * that, by the `LockHeld` proof that only `run` hands out, and the next operation waits for the
 * seal. A block that could not be sealed or stored stops the engine: the chain would miss it,
 * so every later operation is refused.
 */
import { SimulatorFaultError } from "./errors";

declare const lockHeld: unique symbol;

/**
 * The proof that an operation runs inside the engine's lock: `EngineLock.run` hands it to the
 * work it runs, and nothing else can make one.
 */
export interface LockHeld {
  readonly [lockHeld]: true;
}

/** The proof is a type, not a state: one object serves every operation (nothing is allocated per operation). */
const HELD = Object.freeze({}) as LockHeld;

export class EngineLock {
  private queue: Promise<unknown> = Promise.resolve();
  /** A block being sealed after its operation answered; the next operation waits for it. */
  private sealing: Promise<void> | undefined;
  /** Set once a block could not be sealed or stored: nothing more runs. */
  private fault: Error | undefined;

  constructor(private readonly log: (line: string) => void) {}

  /** Runs `work` once every operation before it has ended and the block it left sealing is sealed. */
  run<T>(work: (held: LockHeld) => Promise<T>): Promise<T> {
    const guarded = (): Promise<T> => {
      this.assertRunning();
      return work(HELD);
    };
    const run = this.queue.then(guarded, guarded);
    // The next operation also waits for a block this one left sealing.
    this.queue = run.then(this.settle, this.settle);
    return run;
  }

  /** Runs a read of no EVM state (the head's number) at once, holding nothing: the head changes in one step. */
  async atOnce<T>(work: (held: undefined) => Promise<T>): Promise<T> {
    this.assertRunning();
    return work(undefined);
  }

  /** Throws SimulatorFaultError once a block could not be sealed or stored. */
  assertRunning(): void {
    if (this.fault !== undefined) throw new SimulatorFaultError(this.fault);
  }

  /**
   * Stops the engine after `error`, which made `what` fail ("block 7 could not be sealed"), and
   * tells the log; returns the fault every later operation is refused with.
   */
  stop(error: unknown, what: string): Error {
    const fault = error instanceof Error ? error : new Error(String(error));
    this.fault = fault;
    this.log(`internal error: ${what} (${fault.message}); the simulator must be restarted`);
    return fault;
  }

  /**
   * Seals a block after the operation holding the lock has answered: `seal` starts on the next
   * turn of the event loop, and the next operation waits until it is done. Nothing in sealing is
   * expected to fail; if it does, the block is lost, and the engine stops instead of serving a
   * chain that misses it. `block` names it for the log ("block 7").
   */
  sealAfterAnswer<R>(_held: LockHeld, seal: () => Promise<R>, block: string): Promise<R> {
    const sealed = new Promise<void>((resolve) => setImmediate(resolve)).then(seal);
    this.sealing = sealed.then(
      () => undefined,
      (error: unknown) => {
        this.stop(error, `${block} could not be sealed`);
      },
    );
    return sealed;
  }

  /** The block still being sealed after its operation answered, if any (it is the parent of the next block). */
  get pendingSeal(): Promise<void> | undefined {
    return this.sealing;
  }

  /** Hands the block left sealing by the operation that just ended to the next one (once). */
  private readonly settle = (): Promise<void> | undefined => {
    const sealing = this.sealing;
    this.sealing = undefined;
    return sealing;
  };
}
