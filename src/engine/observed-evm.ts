/**
 * The EVM of a chain whose executions are observed for Hardhat 3's `--coverage` or
 * `--gas-stats`: the native EVM, with every call and create passing by a coverage probe and an
 * execution recorder first. A chain observes nothing unless asked to (options `coverage`,
 * `executions`); it then gets this class instead of NativeEVM, so the EVM of every other chain
 * has no check to make for them.
 */
import type { EVMOpts, EVMResult, Message } from "@ethereumjs/evm";
import type { Address } from "@ethereumjs/util";
import { type CoverageProbe, isCoverageAddress } from "./coverage-probe";
import type { ExecutionRecorder } from "./execution-recorder";
import { NativeEVM } from "./precompiles";

export interface EvmObservers {
  coverage: CoverageProbe | undefined;
  executions: ExecutionRecorder | undefined;
}

export class ObservedEVM extends NativeEVM {
  private readonly probe: CoverageProbe | undefined;
  private readonly recorder: ExecutionRecorder | undefined;

  constructor(options: EVMOpts, observers: EvmObservers) {
    super(options);
    this.probe = observers.coverage;
    this.recorder = observers.executions;
  }

  protected override async _executeCall(message: Message & { to: Address }): Promise<EVMResult> {
    // A failure replayed for its stack trace (NativeEVM) ran, and was observed, once already.
    if (this.replaying) return super._executeCall(message);
    const probe = this.probe;
    if (probe !== undefined) {
      if (isCoverageAddress(message.codeAddress.bytes)) return probe.hit(message);
      if (message.depth === 0) probe.started();
    }
    const recorder = this.recorder;
    const result = recorder?.recording === true ? await recorder.call(message, () => super._executeCall(message)) : await super._executeCall(message);
    return probe === undefined ? result : probe.callEnded(result);
  }

  protected override async _executeCreate(message: Message): Promise<EVMResult> {
    const probe = this.probe;
    if (probe === undefined || this.replaying) return super._executeCreate(message);
    if (message.depth === 0) probe.started();
    return probe.createEnded(await super._executeCreate(message));
  }
}
