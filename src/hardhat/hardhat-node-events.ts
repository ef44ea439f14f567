/**
 * The nativekit network's EVM events where tools look for them on Hardhat 2's own network.
 *
 * Hardhat 2's network provider keeps, for the tools written against its former ethereumjs VM,
 * `_node._vm.evm.events`: an emitter of the EVM's `step` events (ethereumjs' shape: `pc`,
 * `opcode.name`, `stack` as bigints, `depth`, …), filled only while something listens.
 * solidity-coverage 0.8 collects its hits there: it goes down the provider's wrappers (their
 * `_wrapped`) to the provider at the bottom and listens to `_node._vm.evm.events`. The nativekit
 * provider has the same object, handed to its engine as EngineOptions.evmEvents: the listeners
 * added to it hear the EVM events of everything the engine runs. ethereumjs builds a step's
 * event only while `step` has a listener, so a run nobody listens to pays nothing for it.
 */
import { EventEmitter } from "node:events";

/** The part of Hardhat 2's network provider's `_node` that tools listen to. */
export interface HardhatNodeEvents {
  readonly _vm: { readonly evm: { readonly events: EventEmitter } };
}

export function hardhatNodeEvents(): HardhatNodeEvents {
  return { _vm: { evm: { events: new EventEmitter() } } };
}
