/**
 * Fixtures of the explorer's ingest tests: a local network with its index API served over HTTP
 * in this process (the explorer talks to it only over HTTP, as to a real node), a keystore user
 * holding the funded test key on the three chains, and the transactions the tests index:
 * exchange-chain sends and an asset, cross-chain moves, contract-chain transfers and a contract
 * that logs.
 */
import { ethers } from "ethers";
import { createNodeClient, createPlatformChainClient, type Credentials, type NodeClient, type PlatformChainClient } from "../../../src/clients";
import { contractToExchange, exchangeToContract } from "../../../src/flows/cross-chain";
import { LOCAL_TEST_KEY } from "../../../src/network/constants";
import { NodeChains } from "../../../src/node/node-chains";
import { type HttpNode, startHttpNode } from "../../../src/node/http-server";

export const CREDENTIALS: Credentials = { username: "explorer-test", password: "a-Strong-passw0rd-for-tests" };
/** 0x private key of the funded test key (LOCAL_TEST_KEY). */
export const TEST_KEY_HEX = "0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027";

export interface FundedNode {
  network: NodeChains;
  /** The HTTP server (a test may close it and serve the network again on the same port). */
  http: HttpNode;
  url: string;
  client: NodeClient;
  platform: PlatformChainClient;
  /** The test key's addresses. */
  x: string;
  p: string;
  evm: string;
  provider: ethers.JsonRpcProvider;
  wallet: ethers.Wallet;
  close(): Promise<void>;
}

export async function startFundedNode(options: { indexEnabled?: boolean } = {}): Promise<FundedNode> {
  const network = await NodeChains.create({ management: { indexEnabled: options.indexEnabled ?? true } });
  const { getRoutes, authorize } = network.management;
  const http = await startHttpNode({ port: 0, routes: network.routes, getRoutes, authorize });
  const url = http.url;
  const client = createNodeClient({ url });
  const platform = createPlatformChainClient({ transport: client.transport });
  await client.keystore.createUser(CREDENTIALS);
  const x = await client.xvm.importKey({ credentials: CREDENTIALS, privateKey: LOCAL_TEST_KEY });
  const p = await platform.importKey({ credentials: CREDENTIALS, privateKey: LOCAL_TEST_KEY });
  const evm = await client.cvm.importKey({ credentials: CREDENTIALS, privateKey: LOCAL_TEST_KEY });
  const provider = new ethers.JsonRpcProvider(`${url}/ext/bc/C/rpc`, undefined, { staticNetwork: true, cacheTimeout: -1 });
  const wallet = new ethers.Wallet(TEST_KEY_HEX, provider);
  const funded: FundedNode = {
    network,
    http,
    url,
    client,
    platform,
    x,
    p,
    evm,
    provider,
    wallet,
    close: async () => {
      provider.destroy();
      await funded.http.close().catch(() => undefined);
      await network.close();
    },
  };
  return funded;
}

/** A fresh exchange-chain address of the keystore user. */
export const newXAddress = (node: FundedNode) => node.client.xvm.createAddress({ credentials: CREDENTIALS });

export async function xSend(node: FundedNode, to: string, amount: bigint, assetID = "AVAX"): Promise<string> {
  const { txID } = await node.client.xvm.send({ credentials: CREDENTIALS, to, amount, assetID });
  await node.client.xvm.waitForTxStatus(txID);
  return txID;
}

export async function createAsset(node: FundedNode, holder: string): Promise<string> {
  const { assetID } = await node.client.xvm.createFixedCapAsset({ credentials: CREDENTIALS, name: "Test Coin", symbol: "TST", denomination: 2, initialHolders: [{ address: holder, amount: 100_000n }] });
  await node.client.xvm.waitForTxStatus(assetID);
  return assetID;
}

export const exchangeToContractChain = (node: FundedNode, amount: bigint) =>
  exchangeToContract({ client: node.client, credentials: CREDENTIALS, intervalMs: 20 }, { owner: node.x, to: node.evm, amount, assetID: "AVAX" });

export const contractToExchangeChain = (node: FundedNode, amount: bigint) =>
  contractToExchange({ client: node.client, credentials: CREDENTIALS, intervalMs: 20 }, { to: node.x, amount, assetID: "AVAX" });

/** Platform -> exchange chain: the export and the import. */
export async function platformToExchange(node: FundedNode, amount: bigint): Promise<{ exportTxID: string; importTxID: string }> {
  const { txID: exportTxID } = await node.platform.export({ credentials: CREDENTIALS, to: node.x, amount });
  const importTxID = await node.client.xvm.import({ credentials: CREDENTIALS, to: node.x, sourceChain: "P" });
  await node.client.xvm.waitForTxStatus(importTxID);
  return { exportTxID, importTxID };
}

export async function cTransfer(node: FundedNode, to: string, value: bigint): Promise<string> {
  const tx = await node.wallet.sendTransaction({ to, value });
  await tx.wait();
  return tx.hash.toLowerCase();
}

/**
 * A contract whose every call logs LOG1(topic 0x…2a, data = 32 bytes of 0x2a). Runtime:
 * PUSH1 2a PUSH1 00 MSTORE PUSH1 2a PUSH1 20 PUSH1 00 LOG1 STOP; the constructor copies it out.
 */
const RUNTIME = "602a60005260" + "2a" + "60206000a100";
const INIT = `0x600d600c600039600d6000f3${RUNTIME}`;
export const LOG_TOPIC = `0x${"0".repeat(62)}2a`;

export async function deployLogger(node: FundedNode): Promise<{ address: string; deployHash: string }> {
  const tx = await node.wallet.sendTransaction({ data: INIT });
  const receipt = await tx.wait();
  return { address: receipt!.contractAddress!.toLowerCase(), deployHash: tx.hash.toLowerCase() };
}

export async function callLogger(node: FundedNode, address: string): Promise<string> {
  const tx = await node.wallet.sendTransaction({ to: address, data: "0x" });
  await tx.wait();
  return tx.hash.toLowerCase();
}
