import { Interface, type ContractRunner, type Signer, type TransactionReceipt, type TransactionRequest } from "ethers";
import { assetIdToHex, encodeNativeAssetCallInput, NATIVE_ASSET_CALL_ADDRESS, type AssetIdInput } from "../encoding";

/** The parts of the wrapped-asset ABI the flows need (the full ABI is in the artifacts). */
const WRAPPED_ABI = new Interface([
  "function deposit()",
  "function withdraw(uint256 value)",
  "function assetID() view returns (uint256)",
  "function balanceOf(address) view returns (uint256)",
  "function totalSupply() view returns (uint256)",
]);

/**
 * The transaction that wraps: one call to nativeAssetCall that moves `amount` of the asset to
 * the wrapper and calls its deposit() with the sender forwarded, so both happen atomically.
 */
export function wrapTransaction(wrapper: string, assetId: AssetIdInput, amount: bigint): TransactionRequest {
  return {
    to: NATIVE_ASSET_CALL_ADDRESS,
    data: encodeNativeAssetCallInput({ to: wrapper, assetId, amount, callData: WRAPPED_ABI.encodeFunctionData("deposit") }),
  };
}

export function unwrapTransaction(wrapper: string, amount: bigint): TransactionRequest {
  return { to: wrapper, data: WRAPPED_ABI.encodeFunctionData("withdraw", [amount]) };
}

/** Sends a transaction and waits for it; throws with the reason if it failed. */
async function sendAndWait(signer: Signer, request: TransactionRequest): Promise<TransactionReceipt> {
  const response = await signer.sendTransaction(request);
  const receipt = await response.wait();
  if (receipt === null) throw new Error(`transaction ${response.hash} was not mined`);
  return receipt;
}

export async function wrap(signer: Signer, wrapper: string, assetId: AssetIdInput, amount: bigint): Promise<TransactionReceipt> {
  return sendAndWait(signer, wrapTransaction(wrapper, assetId, amount));
}

export async function unwrap(signer: Signer, wrapper: string, amount: bigint): Promise<TransactionReceipt> {
  return sendAndWait(signer, unwrapTransaction(wrapper, amount));
}

/** Reads the asset ID a wrapper was deployed for, as 0x hex. */
export async function wrappedAssetId(runner: ContractRunner & { call(tx: TransactionRequest): Promise<string> }, wrapper: string): Promise<`0x${string}`> {
  const out = await runner.call({ to: wrapper, data: WRAPPED_ABI.encodeFunctionData("assetID") });
  return assetIdToHex(BigInt(out));
}
