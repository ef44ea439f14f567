/**
 * hardhat-ethers gives a transaction that names no gas limit a fixed one (the network's `gas`)
 * only on the networks named "hardhat" and "localhost"; on any other network it sends an
 * `eth_estimateGas` first, which in a test suite costs about as much as the transaction itself.
 * The nativekit network is a development network like Hardhat's, so its signers get the same
 * default: the signers hre.ethers hands out carry the network's gas limit (`nativekit.gas`,
 * the block gas limit unless set to "auto").
 *
 * The limit is set on each signer as hardhat-ethers itself sets it for "hardhat" (its
 * `_gasLimit`, given to the signer's constructor there); nothing else of the library changes.
 *
 * It is done when hre.ethers is first used, not when the environment is made, and the limit is
 * read then: hardhat-ethers binds `hre.network.provider` as it is at that first use, and plugins
 * change the network between the two (hardhat-gas-reporter 1 wraps the provider just before the
 * tests start, to watch their transactions; solidity-coverage sets the network's `gas` for the
 * instrumented code when its task starts).
 */
import { lazyObject } from "hardhat/plugins";
import type { HardhatRuntimeEnvironment } from "hardhat/types";

interface SignerWithGasLimit {
  _gasLimit?: number;
}

interface EthersSignerGetters {
  getSigners(): Promise<unknown[]>;
  getSigner(address: string): Promise<unknown>;
  getImpersonatedSigner(address: string): Promise<unknown>;
  provider: { getSigner(address?: string | number): Promise<unknown> };
}

function withGasLimit<T>(signer: T, gas: number): T {
  const target = signer as SignerWithGasLimit;
  if (typeof target === "object" && target !== null && target._gasLimit === undefined) target._gasLimit = gas;
  return signer;
}

/**
 * Makes every signer hre.ethers gives out on this network use `gas()` (read at hre.ethers' first
 * use) when a transaction names none; a gas of "auto" leaves them estimating.
 */
export function useFixedGasSigners(hre: HardhatRuntimeEnvironment, gas: () => number | "auto"): void {
  const holder = hre as unknown as { ethers?: object };
  const ethers = holder.ethers; // the property's value, Hardhat's lazy object: reading it runs nothing
  if (ethers !== undefined) {
    holder.ethers = withFixedGasOnFirstUse(ethers, gas);
    return;
  }
  // A config that imports this plugin before hardhat-ethers: hardhat-ethers assigns hre.ethers
  // after this. Until then the property is not enumerable, so that Hardhat's injection of the
  // environment's properties into globals makes no `ethers` global without hardhat-ethers.
  Object.defineProperty(hre, "ethers", {
    configurable: true,
    enumerable: false,
    get: () => undefined,
    set: (value: object) => {
      Object.defineProperty(hre, "ethers", { value: withFixedGasOnFirstUse(value, gas), writable: true, configurable: true, enumerable: true });
    },
  });
}

/**
 * A lazy object (as hardhat-ethers' own) whose first use makes hardhat-ethers' object, copies its
 * properties and wraps the copy's signer getters. A copy, not a second lazy object over the
 * first, so that each later property read crosses one proxy, as without this plugin; copied
 * through the properties' descriptors, because Hardhat's lazy object's `get` trap captures a
 * stack trace on every read and formats it (under ts-node, through source maps it loads for
 * every file on the stack: 16 ms for reading the signer getters at a test run's start,
 * measured), and its descriptor trap formats none.
 */
function withFixedGasOnFirstUse(ethers: object, gas: () => number | "auto"): object {
  return lazyObject(() => {
    const copy = Object.create(Object.getPrototypeOf(ethers) as object | null, Object.getOwnPropertyDescriptors(ethers)) as EthersSignerGetters;
    const limit = gas();
    if (typeof limit === "number") wrapSignerGetters(copy, limit);
    return copy;
  });
}

function wrapSignerGetters(ethers: EthersSignerGetters, gas: number): void {
  const { getSigners, getSigner, getImpersonatedSigner, provider } = ethers;
  ethers.getSigners = async () => (await getSigners.call(ethers)).map((signer) => withGasLimit(signer, gas));
  ethers.getSigner = async (address) => withGasLimit(await getSigner.call(ethers, address), gas);
  ethers.getImpersonatedSigner = async (address) => withGasLimit(await getImpersonatedSigner.call(ethers, address), gas);
  const providerGetSigner = provider.getSigner;
  provider.getSigner = async (address) => withGasLimit(await providerGetSigner.call(provider, address), gas);
}
