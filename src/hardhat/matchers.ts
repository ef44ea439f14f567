import type { Addressable, TransactionReceipt, TransactionResponse } from "ethers";

/** Something that resolves to a transaction: a response, a promise of one, or a function returning either. */
type TransactionSubject = TransactionResponse | Promise<TransactionResponse> | (() => TransactionResponse | Promise<TransactionResponse>);
type AccountLike = string | Addressable;
type AssetIdLike = string | bigint | Uint8Array;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Chai {
    interface Assertion {
      /** The transaction changes `account`'s balance of a native asset by `delta`. */
      changeAssetBalance(account: AccountLike, assetId: AssetIdLike, delta: bigint | number | ((change: bigint) => boolean)): AsyncAssertion;
      /** The transaction changes each account's balance of a native asset by the matching delta. */
      changeAssetBalances(accounts: AccountLike[], assetId: AssetIdLike, deltas: (bigint | number)[] | ((changes: bigint[]) => boolean)): AsyncAssertion;
      /** Hardhat 3's form, `ethers` first (hre.ethers also has it in Hardhat 2). */
      changeAssetBalance(ethers: ConnectionEthers, account: AccountLike, assetId: AssetIdLike, delta: bigint | number | ((change: bigint) => boolean)): AsyncAssertion;
      changeAssetBalances(ethers: ConnectionEthers, accounts: AccountLike[], assetId: AssetIdLike, deltas: (bigint | number)[] | ((changes: bigint[]) => boolean)): AsyncAssertion;
    }
    // hardhat-chai-matchers declares this; repeated so the plugin also type-checks without it.
    interface AsyncAssertion extends Assertion, Promise<void> {}
  }
}

interface ChaiAssertionContext {
  _obj: unknown;
  __flags: { negate?: boolean };
  then?: unknown;
  catch?: unknown;
  assert(expression: boolean, message: string, negatedMessage: string): void;
}

async function addressOf(account: AccountLike): Promise<string> {
  if (typeof account === "string") return account;
  return account.getAddress();
}

async function receiptOf(subject: unknown): Promise<TransactionReceipt> {
  const value = typeof subject === "function" ? (subject as () => unknown)() : subject;
  const response = (await value) as TransactionResponse;
  if (response === null || typeof response !== "object" || typeof response.wait !== "function") {
    throw new Error("changeAssetBalance expects a transaction response, a promise of one, or a function returning one");
  }
  const receipt = await response.wait();
  if (receipt === null) throw new Error(`transaction ${response.hash} has no receipt`);
  return receipt;
}

/** A JSON-RPC request on the network the transaction ran on. */
type RpcRequest = (method: string, params: unknown[]) => Promise<unknown>;

/**
 * Hardhat 3's `ethers` (hre's, or a connection's): the matchers take it first, as
 * hardhat-ethers-chai-matchers 3's changeEtherBalance does, since a test may hold several
 * connections and only `ethers` says which one the transaction ran on.
 */
export interface ConnectionEthers {
  getSigners(): Promise<unknown[]>;
  provider: { send(method: string, params: unknown[]): Promise<unknown> };
}

function isConnectionEthers(value: unknown): value is ConnectionEthers {
  const candidate = value as Partial<ConnectionEthers> | null;
  return typeof candidate === "object" && candidate !== null && typeof candidate.getSigners === "function" && typeof candidate.provider?.send === "function";
}

/** Hardhat 2's single network provider, read when a matcher runs (Hardhat 2 only). */
async function hardhat2Request(): Promise<RpcRequest> {
  const hre = (await import("hardhat")) as unknown as { network: { provider: { request(args: { method: string; params: unknown[] }): Promise<unknown> } } };
  const provider = hre.network.provider;
  return (method, params) => provider.request({ method, params });
}

/** The matcher's arguments with Hardhat 3's leading `ethers`, if given, turned into the request it reads through. */
async function requestAndArguments<T extends unknown[]>(args: unknown[]): Promise<{ request: RpcRequest; rest: T }> {
  if (isConnectionEthers(args[0])) {
    const provider = args[0].provider;
    return { request: (method, params) => provider.send(method, params), rest: args.slice(1) as T };
  }
  return { request: await hardhat2Request(), rest: args as T };
}

/** Change of each account's asset balance across the transaction's block (which must hold only it). */
async function assetBalanceChanges(request: RpcRequest, subject: unknown, accounts: AccountLike[], assetIdHex: string): Promise<{ changes: bigint[]; addresses: string[] }> {
  const receipt = await receiptOf(subject);
  const block = (await request("eth_getBlockByHash", [receipt.blockHash, false])) as { transactions: string[] };
  if (block.transactions.length !== 1) {
    throw new Error(`changeAssetBalance needs the transaction alone in its block, but block ${receipt.blockNumber} has ${block.transactions.length}`);
  }
  const addresses = await Promise.all(accounts.map(addressOf));
  const read = async (address: string, blockNumber: number) => BigInt((await request("eth_getAssetBalance", [address, `0x${blockNumber.toString(16)}`, assetIdHex])) as string);
  const changes = await Promise.all(addresses.map(async (a) => (await read(a, receipt.blockNumber)) - (await read(a, receipt.blockNumber - 1))));
  return { changes, addresses };
}

function normaliseAssetId(assetId: AssetIdLike): { hex: string; label: string } {
  // Loaded when a matcher first runs: registering the matchers is part of every Hardhat command.
  const { parseAssetId, assetIdToHex, assetIdToCb58 } = require("../encoding") as typeof import("../encoding");
  const bytes = parseAssetId(assetId);
  return { hex: assetIdToHex(bytes), label: assetIdToCb58(bytes) };
}

function settle(context: ChaiAssertionContext, promise: Promise<void>): ChaiAssertionContext {
  context.then = promise.then.bind(promise);
  context.catch = promise.catch.bind(promise);
  return context;
}

/** The chai plugin: `chai.use(nativeAssetMatchers)`. */
export function nativeAssetMatchers(chai: { Assertion: { addMethod(name: string, fn: (this: ChaiAssertionContext, ...args: unknown[]) => unknown): void } }): void {
  chai.Assertion.addMethod("changeAssetBalance", function (this: ChaiAssertionContext, ...args: unknown[]) {
    const promise = requestAndArguments<[AccountLike, AssetIdLike, bigint | number | ((change: bigint) => boolean)]>(args).then(async ({ request, rest: [account, assetId, delta] }) => {
      const { hex, label } = normaliseAssetId(assetId);
      const { changes: [change], addresses: [address] } = await assetBalanceChanges(request, this._obj, [account], hex);
      if (typeof delta === "function") {
        this.assert(delta(change!), `Expected the balance of asset ${label} for ${address} to satisfy the predicate, but it didn't (change: ${change})`, `Expected the balance of asset ${label} for ${address} NOT to satisfy the predicate, but it did (change: ${change})`);
      } else {
        this.assert(change === BigInt(delta), `Expected the balance of asset ${label} for ${address} to change by ${delta}, but it changed by ${change}`, `Expected the balance of asset ${label} for ${address} NOT to change by ${delta}, but it did`);
      }
    });
    return settle(this, promise);
  });

  chai.Assertion.addMethod("changeAssetBalances", function (this: ChaiAssertionContext, ...args: unknown[]) {
    const ethersFirst = isConnectionEthers(args[0]);
    const [accounts, , deltas] = (ethersFirst ? args.slice(1) : args) as [AccountLike[], AssetIdLike, (bigint | number)[] | ((changes: bigint[]) => boolean)];
    if (Array.isArray(deltas) && deltas.length !== accounts.length) {
      throw new Error(`The number of accounts (${accounts.length}) is different from the number of expected balance changes (${deltas.length})`);
    }
    const promise = requestAndArguments<[AccountLike[], AssetIdLike, typeof deltas]>(args).then(async ({ request, rest: [, assetId] }) => {
      const { hex, label } = normaliseAssetId(assetId);
      const { changes, addresses } = await assetBalanceChanges(request, this._obj, accounts, hex);
      if (typeof deltas === "function") {
        this.assert(deltas(changes), `Expected the balance changes of asset ${label} to satisfy the predicate, but they didn't (changes: ${changes})`, `Expected the balance changes of asset ${label} NOT to satisfy the predicate, but they did`);
      } else {
        const ok = changes.every((c, i) => c === BigInt(deltas[i]!));
        this.assert(ok, `Expected the balances of asset ${label} for ${addresses.join(", ")} to change by ${deltas.join(", ")}, respectively, but they changed by ${changes.join(", ")}`, `Expected the balances of asset ${label} for ${addresses.join(", ")} NOT to change by ${deltas.join(", ")}, respectively, but they did`);
      }
    });
    return settle(this, promise);
  });
}

/** Registers the matchers on the chai instance the project uses, if chai is installed. */
export function registerChaiMatchers(): void {
  let chai: Parameters<typeof nativeAssetMatchers>[0] & { use(plugin: unknown): void };
  try {
    chai = require("chai");
  } catch {
    return; // no chai in this project: nothing to extend
  }
  chai.use(nativeAssetMatchers);
}

export type { TransactionSubject };
