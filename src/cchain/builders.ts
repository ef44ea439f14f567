/**
 * Builders of the atomic transactions the node's import/export API methods issue: an ImportTx
 * spending the atomic UTXOs a user's keys can spend, an ExportTx paid from the keys' accounts,
 * each signed and checked against the syntactic rules, as the node's builders make them.
 */
import { Address } from "@ethereumjs/util";
import type { AtomicStateReader } from "../engine/atomic-host";
import { UINT64_MAX, encodeCb58, equalBytes } from "../encoding";
import {
  type Secp256k1TransferOutput,
  type TransferableInput,
  type TransferableOutput,
  TypeId,
  type Utxo,
  compareUtxoIds,
  shortIdFromPrivateKey,
} from "../utxo/codec";
import {
  AtomicTypeId,
  type EvmInput,
  type EvmOutput,
  type ParsedAtomicTx,
  type UnsignedExportTx,
  type UnsignedImportTx,
  compareEvmInputs,
  compareEvmOutputs,
  evmAddressOfPrivateKey,
  signAtomicTx,
} from "./atomic-codec";
import { type AtomicContext, hex } from "./context";
import { fail } from "./errors";
import { EVM_INPUT_GAS, EVM_OUTPUT_GAS, X2C_RATE, atomicTxGasUsed, calculateDynamicFee } from "./fees";
import { verifyAtomicTxSyntax } from "./syntax";

/** Spendable by a keychain: signature indices and keys for `threshold` owners, or undefined. */
function matchOwners(output: Secp256k1TransferOutput, keys: Map<string, Uint8Array>, now: bigint): { indices: number[]; signers: Uint8Array[] } | undefined {
  if (now < output.locktime) return undefined;
  const indices: number[] = [];
  const signers: Uint8Array[] = [];
  for (let i = 0; i < output.addresses.length && signers.length < output.threshold; i++) {
    const key = keys.get(hex(output.addresses[i]!));
    if (key !== undefined) {
      indices.push(i);
      signers.push(key);
    }
  }
  return signers.length === output.threshold ? { indices, signers } : undefined;
}

export interface BuildImportParams {
  ctx: AtomicContext;
  sourceChain: Uint8Array;
  /** Account credited. */
  to: Uint8Array;
  /** Wei per gas used for the fee. */
  baseFee: bigint;
  /** The user's keys; UTXOs they can spend are imported. */
  keys: Uint8Array[];
  /** Atomic UTXOs available from the source chain. */
  utxos: Utxo[];
  now: bigint;
}

/**
 * An ImportTx spending every given UTXO the keys can spend, crediting `to` with all of it minus
 * the fee (paid from the imported native coin), as the node's import builder does.
 */
export function buildImportTx(params: BuildImportParams): ParsedAtomicTx {
  const { ctx } = params;
  const keys = new Map(params.keys.map((key) => [hex(shortIdFromPrivateKey(key)), key] as const));
  const spends: { input: TransferableInput; signers: Uint8Array[] }[] = [];
  const imported = new Map<string, bigint>();
  for (const utxo of params.utxos) {
    if (utxo.output.typeId !== TypeId.Secp256k1TransferOutput) continue;
    const match = matchOwners(utxo.output, keys, params.now);
    if (match === undefined) continue;
    const key = hex(utxo.assetId);
    imported.set(key, (imported.get(key) ?? 0n) + utxo.output.amount);
    spends.push({
      input: {
        txId: utxo.txId,
        outputIndex: utxo.outputIndex,
        assetId: utxo.assetId,
        input: { typeId: TypeId.Secp256k1TransferInput, amount: utxo.output.amount, signatureIndices: match.indices },
      },
      signers: match.signers,
    });
  }
  spends.sort((a, b) => compareUtxoIds(a.input, b.input));
  const importedInputs = spends.map((s) => s.input);
  const nativeHex = hex(ctx.nativeAssetId);
  const nativeAmount = imported.get(nativeHex) ?? 0n;
  const outs: EvmOutput[] = [];
  for (const [asset, amount] of imported) {
    if (asset === nativeHex || amount === 0n) continue;
    outs.push({ address: params.to.slice(), amount, assetId: Buffer.from(asset, "hex") });
  }
  const draft: UnsignedImportTx = {
    typeId: AtomicTypeId.ImportTx,
    networkId: ctx.networkId,
    blockchainId: ctx.chainId,
    sourceChain: params.sourceChain,
    importedInputs,
    outs: [...outs].sort(compareEvmOutputs),
  };
  const gasWithoutChange = atomicTxGasUsed(draft);
  const feeWithoutChange = calculateDynamicFee(gasWithoutChange, params.baseFee);
  const feeWithChange = calculateDynamicFee(gasWithoutChange + EVM_OUTPUT_GAS, params.baseFee);
  if (nativeAmount < feeWithoutChange) {
    fail(
      "insufficient-funds-for-fee",
      importedInputs.length === 0
        ? "insufficient AVAX funds to pay transaction fee (no atomic UTXO owned by these keys is waiting to be imported from this chain: already imported, or never exported)"
        : `insufficient AVAX funds to pay transaction fee (the spendable atomic UTXOs hold ${nativeAmount} nAVAX, the fee is ${feeWithoutChange} nAVAX)`,
    );
  }
  if (nativeAmount > feeWithChange) outs.push({ address: params.to.slice(), amount: nativeAmount - feeWithChange, assetId: ctx.nativeAssetId.slice() });
  if (outs.length === 0) fail("no-evm-outputs", "tx has no EVM outputs (the imported native coin only covers the fee)");
  outs.sort(compareEvmOutputs);
  const parsed = signAtomicTx({ ...draft, outs }, spends.map((s) => s.signers));
  verifyAtomicTxSyntax(parsed.tx.unsignedTx, ctx);
  return parsed;
}

export interface BuildExportParams {
  ctx: AtomicContext;
  /** Current state: balances and nonces of the keys' accounts. */
  state: AtomicStateReader;
  assetId: Uint8Array;
  amount: bigint;
  destinationChain: Uint8Array;
  /** Short ID owning the exported UTXO on the destination chain. */
  to: Uint8Array;
  baseFee: bigint;
  /** The user's keys, in the order the node tries them. */
  keys: Uint8Array[];
}

interface Spend {
  input: EvmInput;
  key: Uint8Array;
}

async function nativeBalanceInNAvax(state: AtomicStateReader, address: Uint8Array): Promise<bigint> {
  const account = await state.getAccount(new Address(address));
  return (account?.balance ?? 0n) / X2C_RATE;
}

async function nonceOf(state: AtomicStateReader, address: Uint8Array): Promise<bigint> {
  return (await state.getAccount(new Address(address)))?.nonce ?? 0n;
}

async function spendableFunds(params: BuildExportParams, assetId: Uint8Array, amount: bigint): Promise<Spend[]> {
  const spends: Spend[] = [];
  const native = equalBytes(assetId, params.ctx.nativeAssetId);
  for (const key of params.keys) {
    if (amount === 0n) break;
    const address = evmAddressOfPrivateKey(key);
    let balance = native ? await nativeBalanceInNAvax(params.state, address) : params.state.getAssetBalance(new Address(address), hex(assetId));
    if (balance > UINT64_MAX) balance = UINT64_MAX;
    if (balance === 0n) continue;
    const spent = amount < balance ? amount : balance;
    spends.push({ input: { address, amount: spent, assetId: assetId.slice(), nonce: await nonceOf(params.state, address) }, key });
    amount -= spent;
  }
  if (amount > 0n) fail("insufficient-funds", `couldn't generate tx inputs/signers: insufficient funds (${amount} of asset ${encodeCb58(assetId)} missing)`);
  return spends;
}

async function spendableNativeWithFee(params: BuildExportParams, amount: bigint, cost: bigint): Promise<Spend[]> {
  amount += calculateDynamicFee(cost, params.baseFee);
  const spends: Spend[] = [];
  for (const key of params.keys) {
    if (amount === 0n) break;
    const additionalFee = calculateDynamicFee(cost + EVM_INPUT_GAS, params.baseFee) - calculateDynamicFee(cost, params.baseFee);
    const address = evmAddressOfPrivateKey(key);
    let balance = await nativeBalanceInNAvax(params.state, address);
    if (balance > UINT64_MAX) balance = UINT64_MAX;
    if (balance <= additionalFee) continue;
    cost += EVM_INPUT_GAS;
    amount += additionalFee;
    const spent = amount < balance ? amount : balance;
    spends.push({ input: { address, amount: spent, assetId: params.ctx.nativeAssetId.slice(), nonce: await nonceOf(params.state, address) }, key });
    amount -= spent;
  }
  if (amount > 0n) {
    fail("insufficient-funds", `couldn't generate tx inputs/signers: insufficient funds (${amount} nAVAX more needed for the amount and the fee)`);
  }
  return spends;
}

/**
 * An ExportTx of `amount` of an asset to `to` on the destination chain, paid (amount and fee)
 * from the keys' accounts in key order, as the node's export builder does.
 */
export async function buildExportTx(params: BuildExportParams): Promise<ParsedAtomicTx> {
  const { ctx } = params;
  const exportedOutputs: TransferableOutput[] = [
    {
      assetId: params.assetId.slice(),
      output: { typeId: TypeId.Secp256k1TransferOutput, amount: params.amount, locktime: 0n, threshold: 1, addresses: [params.to.slice()] },
    },
  ];
  const native = equalBytes(params.assetId, ctx.nativeAssetId);
  const spends = native ? [] : await spendableFunds(params, params.assetId, params.amount);
  const draft: UnsignedExportTx = {
    typeId: AtomicTypeId.ExportTx,
    networkId: ctx.networkId,
    blockchainId: ctx.chainId,
    destinationChain: params.destinationChain,
    ins: spends.map((s) => s.input),
    exportedOutputs,
  };
  const cost = atomicTxGasUsed(draft);
  spends.push(...(await spendableNativeWithFee(params, native ? params.amount : 0n, cost)));
  spends.sort((a, b) => compareEvmInputs(a.input, b.input));
  const parsed = signAtomicTx({ ...draft, ins: spends.map((s) => s.input) }, spends.map((s) => [s.key]));
  verifyAtomicTxSyntax(parsed.tx.unsignedTx, ctx);
  return parsed;
}
