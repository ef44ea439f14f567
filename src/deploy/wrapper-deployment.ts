import { promises as fs } from "node:fs";
import path from "node:path";
import { BrowserProvider, ContractFactory, Interface, type Eip1193Provider } from "ethers";
import { assetIdToHex, parseAssetId } from "../encoding";

/** One wrapper to deploy, as configured in deploy/wrapped-assets.ts. */
export interface WrapperSpec {
  /** Stable name of this deployment; the record file is named after it. */
  key: string;
  name: string;
  symbol: string;
  decimals: number;
  /** cb58 or 0x bytes32. */
  assetId: string;
}

/** What is recorded after a deployment, per network, in deployments/<network>/<key>.json. */
export interface WrapperRecord {
  key: string;
  address: string;
  transactionHash: string;
  chainId: string;
  /** Identifies the chain instance: a recreated local chain has a new genesis hash. */
  genesisHash: string;
  name: string;
  symbol: string;
  decimals: number;
  assetId: `0x${string}`;
  deployedAt: string;
}

export interface DeploymentResult {
  record: WrapperRecord;
  deployed: boolean;
  /** Why an existing record was reused or replaced, for the person running it. */
  reason: string;
}

const ASSET_ID_ABI = new Interface(["function assetID() view returns (uint256)"]);

export function recordPath(directory: string, network: string, key: string): string {
  if (!/^[A-Za-z0-9_.-]+$/.test(key)) throw new Error(`deployment key "${key}" may use only letters, digits, '.', '_' and '-'`);
  return path.join(directory, network, `${key}.json`);
}

async function readRecord(file: string): Promise<WrapperRecord | undefined> {
  try {
    return JSON.parse(await fs.readFile(file, "utf8")) as WrapperRecord;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`cannot read the deployment record ${file}: ${(error as Error).message}`);
  }
}

/**
 * Deploys a wrapper unless this network already has the recorded one: the record must name the
 * same chain (chain ID and genesis hash) and the same asset, and the code must still be there.
 * Only then is it reused; a record for another chain instance is replaced, never silently used.
 */
export async function ensureWrapperDeployed(options: {
  provider: Eip1193Provider;
  network: string;
  directory: string;
  spec: WrapperSpec;
  artifact: { abi: unknown[]; bytecode: string };
  from?: number;
  /** Keep a record (default true). An in-process chain lives for one run: nothing to record. */
  persist?: boolean;
}): Promise<DeploymentResult> {
  const { spec } = options;
  const assetId = assetIdToHex(parseAssetId(spec.assetId));
  const provider = new BrowserProvider(options.provider, undefined, { cacheTimeout: -1 });
  const chainId = (await provider.getNetwork()).chainId.toString();
  const genesis = await provider.getBlock(0);
  if (genesis === null || genesis.hash === null) throw new Error("the network did not return its genesis block");
  const persist = options.persist ?? true;
  const file = recordPath(options.directory, options.network, spec.key);
  const existing = persist ? await readRecord(file) : undefined;

  let reason = persist ? `no deployment recorded for "${spec.key}" on ${options.network}` : "the in-process network starts empty on every run";
  if (existing !== undefined) {
    if (existing.chainId !== chainId || existing.genesisHash !== genesis.hash) {
      reason = `the record ${file} is for another chain (chain ${existing.chainId}, genesis ${existing.genesisHash.slice(0, 10)}…)`;
    } else if (existing.assetId !== assetId) {
      throw new Error(`${file} records a wrapper for asset ${existing.assetId}, but the config now says ${assetId}; delete the record to deploy a new wrapper`);
    } else if ((await provider.getCode(existing.address)) === "0x") {
      reason = `the recorded address ${existing.address} has no code on this chain`;
    } else {
      const onChain = ASSET_ID_ABI.decodeFunctionResult("assetID", await provider.call({ to: existing.address, data: ASSET_ID_ABI.encodeFunctionData("assetID") }))[0] as bigint;
      if (onChain !== BigInt(assetId)) throw new Error(`the contract at ${existing.address} wraps another asset; delete ${file} to deploy again`);
      return { record: existing, deployed: false, reason: `already deployed at ${existing.address} (recorded in ${file})` };
    }
  }

  const signer = await provider.getSigner(options.from ?? 0);
  const factory = new ContractFactory(options.artifact.abi as never, options.artifact.bytecode, signer);
  const contract = await factory.deploy(spec.name, spec.symbol, spec.decimals, BigInt(assetId));
  await contract.waitForDeployment();
  const record: WrapperRecord = {
    key: spec.key,
    address: await contract.getAddress(),
    transactionHash: contract.deploymentTransaction()?.hash ?? "",
    chainId,
    genesisHash: genesis.hash,
    name: spec.name,
    symbol: spec.symbol,
    decimals: spec.decimals,
    assetId,
    deployedAt: new Date().toISOString(),
  };
  if (persist) {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify(record, null, 2) + "\n");
  }
  return { record, deployed: true, reason };
}
