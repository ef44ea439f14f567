/**
 * The remote chain as of the fork point: accounts, code, storage and multi-coin balances at the
 * pinned block, read with the ordinary calls (eth_getBalance, eth_getTransactionCount,
 * eth_getCode, eth_getStorageAt; never eth_getProof, which this chain's nodes refuse for older
 * blocks), and any other answer about the pinned block or earlier ones. Every such answer can
 * never change, so each goes through the disk cache; each is checked before anything is built
 * from it.
 */
import { hexToBytes, setLengthLeft } from "@ethereumjs/util";
import { isHex } from "../../encoding";
import { ForkRemoteError } from "../errors";
import type { DiskCache } from "./cache";
import { isRecord, RemoteCallError, type RemoteJsonRpc } from "./remote";

/** The remote block the fork starts from, as the remote reports it. */
export interface ForkPoint {
  readonly number: bigint;
  /** The remote's hash, kept as given (this chain's headers are not Ethereum's: never recompute it). */
  readonly hash: string;
  readonly timestamp: bigint;
  readonly gasLimit: bigint;
  readonly baseFeePerGas: bigint;
}

/** An account at the fork point. */
export interface RemoteAccount {
  readonly balance: bigint;
  readonly nonce: bigint;
  readonly code: Uint8Array;
}

export class ForkSource {
  /** Whether the remote serves eth_getAssetBalance: unknown until probed, then remembered. */
  private assetBalancesServed: boolean | undefined;

  constructor(
    private readonly remote: RemoteJsonRpc,
    private readonly cache: DiskCache,
    readonly point: ForkPoint,
    readonly chainId: number,
  ) {}

  get remoteLabel(): string {
    return this.remote.label;
  }

  private get tag(): string {
    return quantity(this.point.number);
  }

  /**
   * The remote's answer to a call about the fork point or an earlier block: from the cache when
   * it was asked before, else from the remote (and then cached).
   */
  async settled(method: string, params: readonly unknown[]): Promise<unknown> {
    const cached = this.cache.get(method, params);
    if (cached !== undefined) return cached;
    const result = await this.remote.call(method, params);
    if (result !== undefined) this.cache.put(method, params, result);
    return result;
  }

  /**
   * State at the fork point, the answer checked by `parse` first (an answer it refuses is never
   * cached). The remote refusing a state read (a pruned node: "missing trie node") is a failure
   * of the fork, named as such.
   */
  private async read<T>(method: string, params: readonly unknown[], parse: (value: unknown, method: string) => T): Promise<T> {
    const cached = this.cache.get(method, params);
    if (cached !== undefined) return parse(cached, method);
    let result: unknown;
    try {
      result = await this.remote.call(method, params);
    } catch (error) {
      throw error instanceof RemoteCallError ? new ForkRemoteError(error.message) : error;
    }
    const parsed = parse(result, method);
    if (result !== undefined) this.cache.put(method, params, result);
    return parsed;
  }

  /** The account at the fork point; all three reads succeed or none is used. */
  async account(address: string): Promise<RemoteAccount> {
    const quantityOf = this.quantityOf.bind(this);
    const [balance, nonce, code] = await Promise.all([
      this.read("eth_getBalance", [address, this.tag], quantityOf),
      this.read("eth_getTransactionCount", [address, this.tag], quantityOf),
      this.read("eth_getCode", [address, this.tag], this.dataOf.bind(this)),
    ]);
    return { balance, nonce, code };
  }

  /** A storage slot at the fork point (32 bytes). */
  async storage(address: string, slotHex: string): Promise<Uint8Array> {
    return this.read("eth_getStorageAt", [address, slotHex, this.tag], (answer, method) => {
      const value = this.dataOf(answer, method);
      if (value.length > 32) throw this.garbage(method, "a 32-byte word", value);
      return setLengthLeft(value, 32);
    });
  }

  /**
   * A multi-coin balance at the fork point, if the remote serves eth_getAssetBalance (probed
   * once, remembered, cached); zero when it does not (current public nodes removed the method).
   */
  async assetBalance(address: string, assetIdHex: string): Promise<bigint> {
    if (!(await this.servesAssetBalances())) return 0n;
    return this.read("eth_getAssetBalance", [address, this.tag, assetIdHex], this.quantityOf.bind(this));
  }

  /** Whether multi-coin balances come from the remote (see assetBalance). */
  async servesAssetBalances(): Promise<boolean> {
    if (this.assetBalancesServed !== undefined) return this.assetBalancesServed;
    const probe = ["0x0000000000000000000000000000000000000000", this.tag, `0x${"00".repeat(32)}`];
    const known = this.cache.get("nativekit_probe", ["eth_getAssetBalance"]);
    if (typeof known === "boolean") return (this.assetBalancesServed = known);
    let served: boolean;
    try {
      this.quantityOf(await this.remote.call("eth_getAssetBalance", probe), "eth_getAssetBalance");
      served = true;
    } catch (error) {
      if (!(error instanceof RemoteCallError)) throw error;
      served = false;
    }
    this.cache.put("nativekit_probe", ["eth_getAssetBalance"], served);
    return (this.assetBalancesServed = served);
  }

  /** A block before the fork as BLOCKHASH needs it: only its hash, as the remote gives it. */
  async remoteBlockHashOnly(blockNumber: bigint): Promise<{ hash(): Uint8Array }> {
    const block = await this.settled("eth_getBlockByNumber", [quantity(blockNumber), false]);
    const hash = isRecord(block) ? block.hash : undefined;
    if (typeof hash !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(hash)) throw this.garbage("eth_getBlockByNumber", "a block with a hash", block);
    const bytes = hexToBytes(hash as `0x${string}`);
    return { hash: () => bytes };
  }

  quantityOf(value: unknown, method: string): bigint {
    if (typeof value !== "string" || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) throw this.garbage(method, "a hex quantity", value);
    return BigInt(value);
  }

  dataOf(value: unknown, method: string): Uint8Array {
    // isHex, not a regular expression of digit pairs, whose backtracking overflows on megabytes.
    if (!isHex(value)) throw this.garbage(method, "hex data", value);
    return hexToBytes(value as `0x${string}`);
  }

  garbage(method: string, expected: string, got: unknown): ForkRemoteError {
    const text = got instanceof Uint8Array ? `${got.length} bytes` : JSON.stringify(got) ?? String(got);
    return new ForkRemoteError(`fork remote ${this.remote.label} (${method}): expected ${expected}, got ${text.length > 100 ? `${text.slice(0, 100)}…` : text}`);
  }
}

export function quantity(n: bigint | number): string {
  return `0x${n.toString(16)}`;
}
