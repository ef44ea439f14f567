/**
 * hardhat-ethers gives a transaction that names no gas limit a fixed one (the network's `gas`)
 * only on the networks named "hardhat" and "localhost"; on any other network it sends an
 * `eth_estimateGas` first, which in a test suite costs about as much as the transaction itself.
 * The nativekit network is a development network like Hardhat's, so its signers get the same
 * default: the signers hre.ethers hands out carry the configured gas limit (`nativekit.gas`,
 * the block gas limit unless set to "auto").
 *
 * The limit is set on each signer as hardhat-ethers itself sets it for "hardhat" (its
 * `_gasLimit`, given to the signer's constructor there); nothing else of the library changes.
 */
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

/** Makes every signer hre.ethers gives out on this network use `gas` when a transaction names none. */
export function useFixedGasSigners(hre: HardhatRuntimeEnvironment, gas: number): void {
  const ethers = (hre as unknown as { ethers?: EthersSignerGetters }).ethers;
  if (ethers !== undefined) wrapSignerGetters(ethers, gas);
  // A config that imports this plugin before hardhat-ethers: hre.ethers arrives once every
  // extension has run, before any task starts; without hardhat-ethers nothing estimates.
  else queueMicrotask(() => {
    const late = (hre as unknown as { ethers?: EthersSignerGetters }).ethers;
    if (late !== undefined) wrapSignerGetters(late, gas);
  });
}

/**
 * A property of hre.ethers, read through its descriptor. hre.ethers is Hardhat's lazy object,
 * whose `get` trap captures a stack trace on every read and formats it (under ts-node, through
 * source maps it loads for every file on the stack: 16 ms for these reads at a test run's start,
 * measured); its descriptor trap answers without one.
 */
function ownValue<K extends keyof EthersSignerGetters>(ethers: EthersSignerGetters, key: K): EthersSignerGetters[K] {
  const descriptor = Object.getOwnPropertyDescriptor(ethers, key);
  return descriptor !== undefined && "value" in descriptor ? (descriptor.value as EthersSignerGetters[K]) : ethers[key];
}

function wrapSignerGetters(ethers: EthersSignerGetters, gas: number): void {
  const getSigners = ownValue(ethers, "getSigners");
  const getSigner = ownValue(ethers, "getSigner");
  const getImpersonatedSigner = ownValue(ethers, "getImpersonatedSigner");
  ethers.getSigners = async () => (await getSigners.call(ethers)).map((signer) => withGasLimit(signer, gas));
  ethers.getSigner = async (address) => withGasLimit(await getSigner.call(ethers, address), gas);
  ethers.getImpersonatedSigner = async (address) => withGasLimit(await getImpersonatedSigner.call(ethers, address), gas);
  const provider = ownValue(ethers, "provider");
  const providerGetSigner = provider.getSigner;
  provider.getSigner = async (address) => withGasLimit(await providerGetSigner.call(provider, address), gas);
}
