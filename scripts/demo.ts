/**
 * The main job, the whole journey of a native asset on the embedded node (nothing to start by
 * hand): create a fixed-cap asset on the exchange chain, export it, import it on the contract
 * chain, wrap it (nativeAssetCall + deposit in one transaction), transfer wrapped tokens,
 * unwrap, export back, import on the exchange chain — printing each step with its transaction
 * IDs and the balances on both chains, and ending with balances that add up.
 *
 *   npm run demo
 *
 * The node runs in this process and listens on a free loopback port, so every step goes
 * through the same HTTP APIs and clients a real node would see.
 */
import { JsonRpcProvider, Wallet, type Signer } from "ethers";
import { createNodeClient, type NodeClient } from "../src/clients";
import { formatAssetAmount } from "../src/flows/amounts";
import { contractToExchange, exchangeToContract } from "../src/flows/cross-chain";
import { unwrap, wrap } from "../src/flows/wrapped";
import { assetIdToHex, encodePrivateKey, hexToBytes, privateKeyToAddresses } from "../src/encoding";
import { NodeChains } from "../src/node/node-chains";
import { LOCAL_TEST_KEY } from "../src/network/constants";
import { startHttpNode } from "../src/node/http-server";
import { WrappedNativeAsset__factory, type WrappedNativeAsset } from "../typechain-types";

const DENOMINATION = 2; // GOLD shows 100 units as 1.00
const SUPPLY = 1_000_000n * 100n; // 1 000 000.00 GOLD
/** The journey's amounts, in GOLD's smallest unit. */
const EXPORTED = 600_000n * 100n;
const WRAPPED = 400_000n * 100n;
const SENT = 150_000n * 100n;
const UNWRAPPED = 100_000n * 100n;
const credentials = { username: "demo", password: "journey-of-an-asset-42" };
/** Bob is mnemonic account #1: a public test key. */
const BOB_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

export interface JourneyResult {
  assetID: string;
  /** Wall time of the whole journey, in milliseconds (the benchmark reports it). */
  elapsedMs: number;
  balancesAddUp: boolean;
}

/** Runs the journey against a node client and a contract-chain provider; prints through `print`. */
export async function runJourney(client: NodeClient, provider: JsonRpcProvider, print: (line: string) => void): Promise<JourneyResult> {
  const started = performance.now();
  const ewoq = privateKeyToAddresses(LOCAL_TEST_KEY, "local");
  const alice = await provider.getSigner(0);
  const bob: Signer = new Wallet(BOB_KEY, provider);
  const bobAddress = await bob.getAddress();
  const gold = (units: bigint) => formatAssetAmount(units, DENOMINATION, "GOLD");

  let assetID = "";
  let wrapper: WrappedNativeAsset | undefined;
  let wrapperAddress = "";
  const balances = async () => {
    const x = assetID === "" ? 0n : (await client.xvm.getBalance({ address: ewoq.exchange, assetID })).balance;
    const c = async (address: string) => (assetID === "" ? 0n : await client.cvm.getAssetBalance(address, assetID));
    const w = async (address: string) => formatAssetAmount(wrapper === undefined ? 0n : await wrapper.balanceOf(address), DENOMINATION, "WGOLD");
    const rows = [
      `  exchange chain  ${ewoq.exchange}: ${gold(x)}`,
      `  contract chain  alice ${alice.address}: ${gold(await c(alice.address))}, ${await w(alice.address)}`,
      `                  bob   ${bobAddress}: ${gold(await c(bobAddress))}, ${await w(bobAddress)}`,
    ];
    if (wrapper !== undefined) rows.push(`                  wrapper ${wrapperAddress}: ${gold(await c(wrapperAddress))}, WGOLD supply ${formatAssetAmount(await wrapper.totalSupply(), DENOMINATION, "WGOLD")}`);
    return { x, rows };
  };
  const step = async (title: string, ids: string[] = []) => {
    print(`${title}${ids.length === 0 ? "" : `\n  tx ${ids.join(", ")}`}`);
    for (const row of (await balances()).rows) print(row);
    print("");
  };
  const status = (line: string) => print(line);

  print("0. set-up: a keystore user holding the local test key (both chains) and bob's key (contract chain)");
  await client.keystore.createUser(credentials);
  await client.xvm.importKey({ credentials, privateKey: LOCAL_TEST_KEY });
  await client.cvm.importKey({ credentials, privateKey: LOCAL_TEST_KEY });
  await client.cvm.importKey({ credentials, privateKey: encodePrivateKey(hexToBytes(BOB_KEY)) });
  print("");

  const created = await client.xvm.createFixedCapAsset({
    credentials,
    name: "Demo Gold",
    symbol: "GOLD",
    denomination: DENOMINATION,
    initialHolders: [{ address: ewoq.exchange, amount: SUPPLY }],
  });
  assetID = created.assetID;
  await client.xvm.waitForTxStatus(assetID, { intervalMs: 100 });
  await step(`1. create the fixed-cap asset GOLD on the exchange chain: ${assetID}`, [assetID]);

  const toContract = await exchangeToContract({ client, credentials, status, intervalMs: 100 }, { owner: ewoq.exchange, to: alice.address, amount: EXPORTED, assetID });
  await step(`2-3. export ${gold(EXPORTED)} to the contract chain and import it for alice`, [toContract.exportTxID, toContract.importTxID]);

  const wrapperContract = await new WrappedNativeAsset__factory(alice).deploy("Wrapped Demo Gold", "WGOLD", DENOMINATION, BigInt(assetIdToHex(assetID)));
  await wrapperContract.waitForDeployment();
  wrapper = wrapperContract;
  wrapperAddress = await wrapperContract.getAddress();
  const wrapped = await wrap(alice, wrapperAddress, assetID, WRAPPED);
  await step(`4. alice deploys WGOLD at ${wrapperAddress} and wraps ${gold(WRAPPED)} (nativeAssetCall + deposit, one transaction)`, [wrapped.hash]);

  const transfer = await (await wrapperContract.connect(alice).transfer(bobAddress, SENT)).wait();
  await step(`5. alice transfers ${formatAssetAmount(SENT, DENOMINATION, "WGOLD")} to bob`, [transfer!.hash]);

  const unwrapped = await unwrap(bob, wrapperAddress, UNWRAPPED);
  await step(`6. bob unwraps ${formatAssetAmount(UNWRAPPED, DENOMINATION, "WGOLD")} (withdraw)`, [unwrapped.hash]);

  const toExchange = await contractToExchange({ client, credentials, status, intervalMs: 100 }, { to: ewoq.exchange, amount: UNWRAPPED, assetID });
  await step(`7-8. bob exports ${gold(UNWRAPPED)} back and it is imported on the exchange chain`, [toExchange.exportTxID, toExchange.importTxID]);

  const x = (await balances()).x;
  const onContract = (await client.cvm.getAssetBalance(alice.address, assetID)) + (await client.cvm.getAssetBalance(bobAddress, assetID)) + (await client.cvm.getAssetBalance(wrapperAddress, assetID));
  const backed = (await client.cvm.getAssetBalance(wrapperAddress, assetID)) === (await wrapperContract.totalSupply());
  const addsUp = x + onContract === SUPPLY && backed;
  print(`GOLD on the exchange chain ${gold(x)} + on the contract chain ${gold(onContract)} = ${gold(x + onContract)} of ${gold(SUPPLY)} created: ${x + onContract === SUPPLY ? "adds up" : "MISMATCH"}`);
  print(`the wrapper holds exactly its token supply: ${backed ? "yes" : "NO"}`);
  return { assetID, elapsedMs: performance.now() - started, balancesAddUp: addsUp };
}

/** Starts the embedded node on a free loopback port, runs the journey, stops the node. */
export async function runEmbeddedJourney(print: (line: string) => void): Promise<JourneyResult> {
  const network = await NodeChains.create();
  const node = await startHttpNode({ port: 0, routes: network.routes });
  const provider = new JsonRpcProvider(`${node.url}/ext/bc/C/rpc`, undefined, { staticNetwork: true, cacheTimeout: -1, pollingInterval: 50 });
  try {
    print(`nativekit demo: the journey of a native asset, on the embedded node at ${node.url}\n`);
    return await runJourney(createNodeClient({ url: node.url }), provider, print);
  } finally {
    provider.destroy();
    await node.close();
  }
}

/**
 * Runs the journey against a node already running at `url` (`NATIVEKIT_NODE_URL=… npm run demo`),
 * e.g. `nativekit node --explorer`, so its explorer shows the journey. The node must fund the
 * local network's public test key, as `nativekit node` does.
 */
export async function runJourneyOn(url: string, print: (line: string) => void): Promise<JourneyResult> {
  const base = url.replace(/\/+$/, "");
  const provider = new JsonRpcProvider(`${base}/ext/bc/C/rpc`, undefined, { staticNetwork: true, cacheTimeout: -1, pollingInterval: 50 });
  try {
    print(`nativekit demo: the journey of a native asset, on the node at ${base}\n`);
    return await runJourney(createNodeClient({ url: base }), provider, print);
  } finally {
    provider.destroy();
  }
}

if (require.main === module) {
  const nodeUrl = process.env.NATIVEKIT_NODE_URL;
  (nodeUrl === undefined || nodeUrl === "" ? runEmbeddedJourney((line) => console.log(line)) : runJourneyOn(nodeUrl, (line) => console.log(line)))
    .then((result) => {
      console.log(`\njourney completed in ${(result.elapsedMs / 1000).toFixed(2)} s`);
      console.log("Next: the same journey on a running node with its explorer: `npx nativekit node --explorer`, then `NATIVEKIT_NODE_URL=http://127.0.0.1:9650 npm run demo`; single steps: `npx nativekit x-to-c --help`.");
      if (!result.balancesAddUp) process.exitCode = 1;
    })
    .catch((error: unknown) => {
      console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    });
}
