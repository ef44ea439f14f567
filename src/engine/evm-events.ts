/**
 * The EVM events of a chain, heard through an emitter of the caller's (EngineOptions.evmEvents).
 *
 * ethereumjs asks its EVM's own emitter (an eventemitter3 instance) at every instruction whether
 * `step` has a listener, and builds a step's event only if so. That question must stay as cheap
 * as ever on a chain nobody listens to: asked of a Node.js EventEmitter instead, it made an
 * instruction-heavy call 10 % slower (measured). So the EVMs keep an emitter of ethereumjs' own
 * class — one for all the chain's VMs, so that a listener added once hears them all — and each
 * listener added to the caller's emitter is added to that one too, until it is removed.
 */
import type { EventEmitter } from "node:events";
import type { EVM } from "@ethereumjs/evm";

/** The EVM's own emitter. */
type EvmEmitter = EVM["events"];
/** Its event names, and a listener of any of them (as a Node.js emitter hands it over). */
type EvmEventName = Parameters<EvmEmitter["on"]>[0];
type Listener = Parameters<EvmEmitter["on"]>[1];

/** Only ethereumjs' own event names are passed on (not the Node.js emitter's newListener, removeListener). */
function evmEventName(name: string | symbol): EvmEventName | undefined {
  return typeof name === "string" && name !== "newListener" && name !== "removeListener" ? (name as EvmEventName) : undefined;
}

/**
 * Makes every listener of `front`, present or added later, listen on `target` as well, until it
 * leaves `front` (added with `on`: a `once` listener of `front` hears every event).
 */
export function mirrorListeners(front: EventEmitter, target: EvmEmitter): void {
  for (const name of front.eventNames()) {
    const evmName = evmEventName(name);
    if (evmName !== undefined) for (const listener of front.listeners(name)) target.on(evmName, listener as Listener);
  }
  // Node.js hands these the listener as given (a `once` listener unwrapped), before adding it
  // and after removing it.
  front.on("newListener", (name: string | symbol, listener: Listener) => {
    const evmName = evmEventName(name);
    if (evmName !== undefined) target.on(evmName, listener);
  });
  front.on("removeListener", (name: string | symbol, listener: Listener) => {
    const evmName = evmEventName(name);
    if (evmName !== undefined) target.off(evmName, listener);
  });
}
