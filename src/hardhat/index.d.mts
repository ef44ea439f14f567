// Types of nativekit/hardhat in a Hardhat 3 project (an ES module importing the package).
import type { HardhatPlugin } from "hardhat/types/plugins";
import type { NativekitConfig, NativekitUserConfig } from "./config.js";

type AccountLike = string | { getAddress(): Promise<string> };
type AssetIdLike = string | bigint | Uint8Array;
/** Hardhat 3's `ethers` (from `network.create()`): the network the transaction ran on. */
interface ConnectionEthers {
  getSigners(): Promise<unknown[]>;
  provider: { send(method: string, params: unknown[]): Promise<unknown> };
}

declare module "hardhat/types/config" {
  interface HardhatUserConfig {
    /** The nativekit network's options: accounts, asset balances, chain ID, precompiles, forking, gas. */
    nativekit?: NativekitUserConfig;
  }
  interface HardhatConfig {
    nativekit: NativekitConfig & { inProcessNetworks: string[] };
  }
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Chai {
    interface Assertion {
      /** The transaction changes `account`'s balance of a native asset by `delta`. */
      changeAssetBalance(ethers: ConnectionEthers, account: AccountLike, assetId: AssetIdLike, delta: bigint | number | ((change: bigint) => boolean)): AsyncAssertion;
      /** The transaction changes each account's balance of a native asset by the matching delta. */
      changeAssetBalances(ethers: ConnectionEthers, accounts: AccountLike[], assetId: AssetIdLike, deltas: (bigint | number)[] | ((changes: bigint[]) => boolean)): AsyncAssertion;
    }
    interface AsyncAssertion extends Assertion, Promise<void> {}
  }
}

declare const nativekit: HardhatPlugin;
export default nativekit;
/** Name of the in-process network the plugin adds. */
export declare const NATIVEKIT_NETWORK: "nativekit";
export { assertAssetBalanceChanges } from "./asset-assertions.js";
export type { ExpectedAssetChange, Eip1193Requester, TransactionHashSubject } from "./asset-assertions.js";
export { solcjsVersion } from "./solc-bundle.js";
