import { BrowserProvider, ContractFactory, formatUnits, getAddress, Interface, isAddress, type Eip1193Provider, type JsonRpcSigner } from "ethers";
import { assetIdToCb58, assetIdToHex, parseAssetId } from "../encoding";
import { unwrapTransaction, wrapTransaction } from "../flows/wrapped";

/**
 * What the nativekit:* tasks do, on any EIP-1193 provider (the in-process network or a node),
 * with every argument checked before anything is sent. Each returns what it did; `print`
 * receives the lines for a person.
 */
export interface ActionContext {
  provider: Eip1193Provider;
  print: (line: string) => void;
}

export class TaskArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TaskArgumentError";
  }
}

const WRAPPER_ABI = new Interface([
  "function assetID() view returns (uint256)",
  "function balanceOf(address) view returns (uint256)",
  "function totalSupply() view returns (uint256)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
]);

export function parseAssetArgument(text: string, name = "--asset"): `0x${string}` {
  try {
    return assetIdToHex(parseAssetId(text));
  } catch (error) {
    throw new TaskArgumentError(`${name}: ${(error as Error).message}`);
  }
}

export function parseAddressArgument(text: string, name: string): string {
  if (!isAddress(text)) throw new TaskArgumentError(`${name}: "${text}" is not an address (0x followed by 40 hex digits, valid checksum if mixed case)`);
  return getAddress(text);
}

export function parseAmountArgument(text: string, name = "--amount"): bigint {
  if (!/^[0-9]+$/.test(text)) throw new TaskArgumentError(`${name}: "${text}" is not a whole number of the asset's smallest unit`);
  const value = BigInt(text);
  if (value === 0n) throw new TaskArgumentError(`${name} must be greater than zero`);
  if (value >= 1n << 256n) throw new TaskArgumentError(`${name} does not fit in 256 bits`);
  return value;
}

async function signerFor(ctx: ActionContext, from: string | undefined): Promise<JsonRpcSigner> {
  const provider = new BrowserProvider(ctx.provider, undefined, { cacheTimeout: -1 });
  if (from === undefined) return provider.getSigner(0);
  if (/^[0-9]+$/.test(from)) return provider.getSigner(Number(from));
  return provider.getSigner(parseAddressArgument(from, "--from"));
}

async function assetBalanceOf(ctx: ActionContext, address: string, assetHex: string, block = "latest"): Promise<bigint> {
  return BigInt((await ctx.provider.request({ method: "eth_getAssetBalance", params: [address, block, assetHex] })) as string);
}

async function readWrapper(ctx: ActionContext, wrapper: string) {
  const provider = new BrowserProvider(ctx.provider, undefined, { cacheTimeout: -1 });
  const code = await provider.getCode(wrapper);
  if (code === "0x") throw new TaskArgumentError(`--wrapper: no contract at ${wrapper} on this network`);
  const call = async (fn: string, args: unknown[] = []) => WRAPPER_ABI.decodeFunctionResult(fn, await provider.call({ to: wrapper, data: WRAPPER_ABI.encodeFunctionData(fn, args) }))[0];
  try {
    const assetId = assetIdToHex(BigInt(await call("assetID")));
    return { assetId, symbol: String(await call("symbol")), decimals: Number(await call("decimals")), balanceOf: async (a: string) => BigInt(await call("balanceOf", [a])), totalSupply: async () => BigInt(await call("totalSupply")) };
  } catch {
    throw new TaskArgumentError(`--wrapper: the contract at ${wrapper} is not a wrapped native asset (no assetID/balanceOf)`);
  }
}

export async function balanceAction(ctx: ActionContext, args: { account: string; asset: string; block?: string }): Promise<bigint> {
  const account = parseAddressArgument(args.account, "--account");
  const asset = parseAssetArgument(args.asset);
  const balance = await assetBalanceOf(ctx, account, asset, args.block ?? "latest");
  ctx.print(`${account} holds ${balance} of asset ${assetIdToCb58(asset)} (${asset})`);
  return balance;
}

export async function deployWrapperAction(
  ctx: ActionContext,
  args: { asset: string; name: string; symbol: string; decimals: number; from?: string },
  artifact: { abi: unknown[]; bytecode: string },
): Promise<string> {
  const asset = parseAssetArgument(args.asset);
  if (args.name.trim() === "") throw new TaskArgumentError("--name must not be empty");
  if (args.symbol.trim() === "") throw new TaskArgumentError("--symbol must not be empty");
  if (!Number.isInteger(args.decimals) || args.decimals < 0 || args.decimals > 255) throw new TaskArgumentError("--decimals must be an integer from 0 to 255");
  const signer = await signerFor(ctx, args.from);
  const factory = new ContractFactory(artifact.abi as never, artifact.bytecode, signer);
  const contract = await factory.deploy(args.name, args.symbol, args.decimals, BigInt(asset));
  await contract.waitForDeployment();
  const address = await contract.getAddress();
  ctx.print(`Deployed ${args.name} (${args.symbol}) wrapping asset ${assetIdToCb58(asset)} at ${address}`);
  ctx.print(`  transaction ${contract.deploymentTransaction()?.hash}`);
  ctx.print(`Next: npx hardhat nativekit:wrap --wrapper ${address} --amount <units>`);
  return address;
}

export async function wrapAction(ctx: ActionContext, args: { wrapper: string; amount: string; from?: string }): Promise<string> {
  const wrapper = parseAddressArgument(args.wrapper, "--wrapper");
  const amount = parseAmountArgument(args.amount);
  const info = await readWrapper(ctx, wrapper);
  const signer = await signerFor(ctx, args.from);
  const held = await assetBalanceOf(ctx, signer.address, info.assetId);
  if (held < amount) {
    throw new TaskArgumentError(`--amount ${amount} is more than ${signer.address} holds of asset ${assetIdToCb58(info.assetId)} (${held})`);
  }
  const receipt = await (await signer.sendTransaction(wrapTransaction(wrapper, info.assetId, amount))).wait();
  if (receipt === null || receipt.status !== 1) throw new Error(`the wrap transaction ${receipt?.hash ?? ""} failed`);
  ctx.print(`Wrapped ${formatUnits(amount, info.decimals)} ${info.symbol} for ${signer.address} (tx ${receipt.hash})`);
  ctx.print(`  asset balance ${await assetBalanceOf(ctx, signer.address, info.assetId)}, wrapped balance ${await info.balanceOf(signer.address)}, total supply ${await info.totalSupply()}`);
  return receipt.hash;
}

export async function unwrapAction(ctx: ActionContext, args: { wrapper: string; amount: string; from?: string }): Promise<string> {
  const wrapper = parseAddressArgument(args.wrapper, "--wrapper");
  const amount = parseAmountArgument(args.amount);
  const info = await readWrapper(ctx, wrapper);
  const signer = await signerFor(ctx, args.from);
  const wrapped = await info.balanceOf(signer.address);
  if (wrapped < amount) throw new TaskArgumentError(`--amount ${amount} is more than the ${wrapped} ${info.symbol} ${signer.address} holds`);
  const receipt = await (await signer.sendTransaction(unwrapTransaction(wrapper, amount))).wait();
  if (receipt === null || receipt.status !== 1) throw new Error(`the unwrap transaction ${receipt?.hash ?? ""} failed`);
  ctx.print(`Unwrapped ${formatUnits(amount, info.decimals)} ${info.symbol} for ${signer.address} (tx ${receipt.hash})`);
  ctx.print(`  asset balance ${await assetBalanceOf(ctx, signer.address, info.assetId)}, wrapped balance ${await info.balanceOf(signer.address)}, total supply ${await info.totalSupply()}`);
  return receipt.hash;
}
