/**
 * Where the engine goes in the nativekit network's provider.
 *
 * Hardhat 2 builds that provider as it builds any HTTP network's: an HTTP provider for the
 * network's placeholder URL, handed to each provider extender in the order the plugins were
 * imported, each returning what the next one gets. nativekit's extender replaces the HTTP
 * provider with the engine. An extender that ran before it may have wrapped the HTTP provider
 * already — hardhat-gas-reporter 2 wraps every network's provider in a ProviderWrapper that
 * watches the transactions, and the toolbox is imported before nativekit — and returning the
 * engine alone would drop that wrapper (the gas table then lists nothing). So the engine takes
 * the HTTP provider's place under the wrappers, where their requests end up, as they do over
 * Hardhat's own network.
 */
import type { EIP1193Provider } from "hardhat/types";

/**
 * A ProviderWrapper of Hardhat's ("hardhat/plugins"): requests go to `_wrappedProvider`, event
 * listeners to `_wrapped` (its EventEmitterWrapper's field, which solidity-coverage also follows
 * down to the provider at the bottom).
 */
interface ProviderWrapperFields {
  _wrappedProvider: EIP1193Provider;
  _wrapped?: unknown;
}

function wrapperFields(provider: EIP1193Provider): ProviderWrapperFields | undefined {
  const inner = (provider as Partial<ProviderWrapperFields>)._wrappedProvider;
  return typeof inner === "object" && inner !== null && typeof inner.request === "function" ? (provider as unknown as ProviderWrapperFields) : undefined;
}

/**
 * `provider` with `placeholder` (the network's HTTP provider) replaced by `engine`: `engine`
 * itself when no extender has wrapped the placeholder yet.
 */
export function placeEngine(provider: EIP1193Provider, placeholder: (candidate: EIP1193Provider) => boolean, engine: EIP1193Provider): EIP1193Provider {
  if (placeholder(provider)) return engine;
  for (let wrapper = wrapperFields(provider); wrapper !== undefined; wrapper = wrapperFields(wrapper._wrappedProvider)) {
    if (!placeholder(wrapper._wrappedProvider)) continue;
    wrapper._wrappedProvider = engine;
    if (wrapper._wrapped !== undefined) wrapper._wrapped = engine;
    return provider;
  }
  // Wrapped in something that is no ProviderWrapper: nothing under it can be reached, so the
  // engine alone serves the network (what it did before any wrapper was kept).
  return engine;
}
