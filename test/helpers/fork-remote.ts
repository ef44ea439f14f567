import { JsonRpcProvider, type JsonRpcSigner } from "ethers";
import { encodeNativeAssetCallInput, NATIVE_ASSET_CALL_ADDRESS } from "../../src/encoding";
import { PATHS } from "../../src/network/paths";
import { NodeChains, type NodeChainsOptions } from "../../src/node/node-chains";
import { startHttpNode, type HttpNode } from "../../src/node/http-server";
import { WrappedNativeAsset__factory, type WrappedNativeAsset } from "../../typechain-types";
import { testAssetId } from "./chain";

export const FORK_ASSET = testAssetId(0xf0a5);

/**
 * A live nativekit node over HTTP for a fork to read: a wrapped-asset contract with deposits,
 * multi-coin balances and storage on it, and an account only the remote funded.
 */
export interface RemoteNativekitNode {
  node: HttpNode;
  /** The contract chain's JSON-RPC URL. */
  rpcUrl: string;
  provider: JsonRpcProvider;
  signers: JsonRpcSigner[];
  wrapper: WrappedNativeAsset;
  wrapperAddress: string;
  /** Funded on the remote only (not one of the node's keys). */
  remoteOnlyAccount: string;
  /** The transaction of signer 1's deposit of 300. */
  depositHash: string;
  depositBlock: number;
  rpc<T>(method: string, params?: unknown[]): Promise<T>;
  close(): Promise<void>;
}

export async function startRemoteNativekitNode(options: NodeChainsOptions = {}): Promise<RemoteNativekitNode> {
  const network = await NodeChains.create(options);
  const node = await startHttpNode({ port: 0, routes: network.routes });
  const rpcUrl = `${node.url}${PATHS.contractRpc}`;
  const provider = new JsonRpcProvider(rpcUrl, undefined, { staticNetwork: true, cacheTimeout: -1, pollingInterval: 20 });
  const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => (await provider.send(method, params)) as T;
  const accounts = await rpc<string[]>("eth_accounts");
  const signers = await Promise.all(accounts.slice(0, 4).map((a) => provider.getSigner(a)));
  for (const s of signers) await rpc("nativekit_setAssetBalance", [s.address, FORK_ASSET, "0x3e8"]);
  const wrapper = await new WrappedNativeAsset__factory(signers[0]!).deploy("Wrapped Fork", "WFRK", 9, BigInt(FORK_ASSET));
  await wrapper.waitForDeployment();
  const wrapperAddress = await wrapper.getAddress();
  const deposit = await signers[1]!.sendTransaction({
    to: NATIVE_ASSET_CALL_ADDRESS,
    data: encodeNativeAssetCallInput({ to: wrapperAddress, assetId: FORK_ASSET, amount: 300n, callData: wrapper.interface.encodeFunctionData("deposit") }),
  });
  const receipt = (await deposit.wait())!;
  const remoteOnlyAccount = "0x00000000000000000000000000000000c0ffee01";
  await (await signers[0]!.sendTransaction({ to: remoteOnlyAccount, value: 10n ** 18n })).wait();
  return {
    node,
    rpcUrl,
    provider,
    signers,
    wrapper,
    wrapperAddress,
    remoteOnlyAccount,
    depositHash: deposit.hash,
    depositBlock: receipt.blockNumber,
    rpc,
    close: async () => {
      provider.destroy();
      await node.close();
      await network.close();
    },
  };
}
