/**
 * The network address of the client whose request is being served, for code that answers it
 * without seeing the HTTP request (an API behind `Dispatch`): the auth API throttles wrong
 * passwords per client with it.
 *
 * The HTTP server runs each request inside {@link withClientAddress}; anything awaited while
 * serving it reads the address with {@link currentClientAddress}. The address is the socket's
 * remote address as the server sees it (an IPv4 address mapped into IPv6 is written as IPv4);
 * forwarding headers are not trusted. Calls made in process (not over HTTP) have none.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const addresses = new AsyncLocalStorage<string>();

/** Runs `serve` with `address` as the client address of everything it does, awaited or not. */
export function withClientAddress<T>(address: string | undefined, serve: () => T): T {
  return address === undefined ? serve() : addresses.run(normalizeAddress(address), serve);
}

/** The address of the client being served, or undefined outside a request over the network. */
export function currentClientAddress(): string | undefined {
  return addresses.getStore();
}

function normalizeAddress(address: string): string {
  return address.startsWith("::ffff:") && address.includes(".") ? address.slice("::ffff:".length) : address;
}
