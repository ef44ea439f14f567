import { Account, Address } from "@ethereumjs/util";
import { sha256 } from "@noble/hashes/sha2.js";
import { AtomicMemoryError, type AtomicElement, type AtomicRequests, type SharedMemory } from "../atomic/shared-memory";
import type { BlockRecord } from "../engine/chain";
import type { Engine } from "../engine/engine";
import type { AtomicStateReader, AtomicStateWriter } from "../engine/atomic-host";
import { decodeCb58, encodeCb58, equalBytes } from "../encoding";
import { LOCAL_NETWORK, type NetworkIdentifiers } from "../network/constants";
import {
  CodecError,
  type Credential,
  type Secp256k1TransferOutput,
  SignatureError,
  type TransferableInput,
  type TransferableOutput,
  TxValidationError,
  TypeId,
  type Utxo,
  compareTransferableOutputs,
  compareUtxoIds,
  decodeUtxo,
  encodeUtxo,
  recoverPublicKey,
  shortIdFromPrivateKey,
  shortIdFromPublicKey,
  utxoId,
  validateInputSignatureIndices,
  validateOutputOwners,
} from "../xchain/codec";
import {
  AtomicTypeId,
  EVM_INPUT_SIZE,
  EVM_OUTPUT_SIZE,
  type EvmInput,
  type EvmOutput,
  type ParsedAtomicTx,
  type UnsignedAtomicTx,
  type UnsignedExportTx,
  type UnsignedImportTx,
  compareEvmInputs,
  compareEvmOutputs,
  encodeUnsignedAtomicTx,
  evmAddressOfPrivateKey,
  evmAddressOfPublicKey,
  parseSignedAtomicTx,
  signAtomicTx,
} from "./atomic-codec";

/*
 * Atomic (cross-chain) transactions of the contract chain, verified and applied as the
 * reference node does (rules of the current network: Apricot Phase 5 fees, optionally the
 * Banff restriction to the native coin):
 *
 *   syntactic   ImportTx: >= 1 imported input, network and blockchain IDs, >= 1 EVM output,
 *               source chain another chain of the primary network, every output/input valid,
 *               inputs sorted and unique by UTXO, outputs sorted and unique by (address, asset).
 *               ExportTx: >= 1 exported output, IDs, destination chain, EVM inputs valid,
 *               exported outputs sorted, EVM inputs sorted and unique by (address, asset).
 *   gas         unsigned bytes x 1 + 1000 per signature (import: per signature index of every
 *               imported input; export: per EVM input) + 10 000 intrinsic.
 *   fee         ceil(gas x base fee (wei) / 10^9) nAVAX, burned in the native coin.
 *   flow        per asset: consumed >= produced (+ the fee for the native coin).
 *   import      every input's UTXO is in shared memory (from the source chain), has the same asset
 *               and amount, is unlocked, and is signed by `threshold` of its owners.
 *   export      exactly one signature per EVM input, from the key whose EVM address is the input's.
 *   state       import credits amount x 10^9 wei (native) or amount of the asset (multi-coin);
 *               export debits the same way, requires each input's nonce to be the account's
 *               nonce, then increments the nonce of every input address.
 *   memory      import removes the spent UTXOs from this chain's inbox from the source chain;
 *               export puts one UTXO per exported output into the destination's inbox from this
 *               chain, indexed by the output's owners.
 */

/** 1 nAVAX (exchange chain, 9 decimals) = 10^9 wei (contract chain, 18 decimals). */
export const X2C_RATE = 1_000_000_000n;
/** Gas per byte of the unsigned transaction. */
export const TX_BYTES_GAS = 1n;
/** Gas per signature (secp256k1fx). */
export const COST_PER_SIGNATURE = 1000n;
/** Fixed gas of every atomic transaction (Apricot Phase 5). */
export const ATOMIC_TX_INTRINSIC_GAS = 10_000n;
/** Gas an extra EVM output adds (its bytes). */
export const EVM_OUTPUT_GAS = BigInt(EVM_OUTPUT_SIZE) * TX_BYTES_GAS;
/** Gas an extra EVM input adds (its bytes and its signature). */
export const EVM_INPUT_GAS = BigInt(EVM_INPUT_SIZE) * TX_BYTES_GAS + COST_PER_SIGNATURE;
/** Most gas the atomic transactions of one block may use; a single transaction above it is refused. */
export const ATOMIC_GAS_LIMIT = 100_000n;
/** Largest signed atomic transaction the node accepts for issuance. */
export const MAX_ATOMIC_TX_SIZE = 40 * 1024;
/** The platform chain's ID (all zeros), the other chain of the primary network. */
export const P_CHAIN_ID = new Uint8Array(32);

const UINT64_MAX = (1n << 64n) - 1n;

/** Which rule an atomic transaction broke. */
export type AtomicTxErrorCode =
  | "malformed"
  | "too-large"
  | "gas-limit"
  | "no-import-inputs"
  | "no-export-outputs"
  | "no-evm-outputs"
  | "wrong-network-id"
  | "wrong-chain-id"
  | "invalid-output"
  | "invalid-input"
  | "non-native-asset"
  | "inputs-not-sorted-unique"
  | "outputs-not-sorted-unique"
  | "outputs-not-sorted"
  | "insufficient-funds"
  | "fee-overflow"
  | "wrong-number-of-credentials"
  | "wrong-number-of-signatures"
  | "utxo-not-found"
  | "bad-utxo"
  | "asset-mismatch"
  | "transfer-failed"
  | "signature-mismatch"
  | "invalid-nonce"
  | "insufficient-funds-for-fee"
  | "already-accepted"
  | "shared-memory";

/**
 * An atomic transaction the node would refuse. The message is the reference node's wording
 * (with the detail it carries), `code` tells the rules apart, `txId` names the transaction when
 * it could be decoded.
 */
export class AtomicTxError extends Error {
  override readonly name = "AtomicTxError";
  readonly code: AtomicTxErrorCode;
  txId: string | undefined;

  constructor(code: AtomicTxErrorCode, message: string, txId?: string) {
    super(message);
    this.code = code;
    this.txId = txId;
  }
}

function fail(code: AtomicTxErrorCode, message: string): never {
  throw new AtomicTxError(code, message);
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

function isZero(bytes: Uint8Array): boolean {
  return bytes.every((b) => b === 0);
}

// ---------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------

/** What the rules depend on: this chain, its network and its peers. */
export interface AtomicContext {
  networkId: number;
  /** This (contract) chain's 32-byte ID. */
  chainId: Uint8Array;
  /** The exchange chain's ID. */
  xChainId: Uint8Array;
  /** The native asset (AVAX on the reference network). */
  nativeAssetId: Uint8Array;
  /** Chains of the same subnet an atomic transaction may name as source or destination. */
  peerChains: Uint8Array[];
  /**
   * The Banff rule: atomic transactions move only the native coin. Off, other assets are
   * imported to (and exported from) the multi-coin balances, as before that upgrade.
   */
  nativeOnly: boolean;
}

/** The context of a network's contract chain (exchange and platform chains as peers). */
export function atomicContextOf(network: NetworkIdentifiers = LOCAL_NETWORK, nativeOnly = false): AtomicContext {
  const xChainId = decodeCb58(network.xChainId);
  return {
    networkId: network.networkId,
    chainId: decodeCb58(network.cChainId),
    xChainId,
    nativeAssetId: decodeCb58(network.nativeAsset.id),
    peerChains: [xChainId, P_CHAIN_ID],
    nativeOnly,
  };
}

function isPeerChain(ctx: AtomicContext, chain: Uint8Array): boolean {
  return !equalBytes(chain, ctx.chainId) && ctx.peerChains.some((peer) => equalBytes(peer, chain));
}

// ---------------------------------------------------------------------------------------
// Gas, fee, burned amounts
// ---------------------------------------------------------------------------------------

/**
 * Gas of an atomic transaction: its unsigned bytes, 1000 per signature, and (with `fixedFee`,
 * the rule since Apricot Phase 5) 10 000 more.
 */
export function atomicTxGasUsed(tx: UnsignedAtomicTx, unsignedBytes: Uint8Array = encodeUnsignedAtomicTx(tx), fixedFee = true): bigint {
  let gas = BigInt(unsignedBytes.length) * TX_BYTES_GAS;
  if (tx.typeId === AtomicTypeId.ImportTx) {
    for (const input of tx.importedInputs) gas += BigInt(input.input.signatureIndices.length) * COST_PER_SIGNATURE;
  } else {
    gas += BigInt(tx.ins.length) * COST_PER_SIGNATURE;
  }
  if (fixedFee) gas += ATOMIC_TX_INTRINSIC_GAS;
  if (gas > UINT64_MAX) fail("fee-overflow", "overflow occurred while calculating the gas");
  return gas;
}

/** The native-coin fee (nAVAX) an atomic transaction using `gas` pays at `baseFee` wei per gas: rounded up. */
export function calculateDynamicFee(gas: bigint, baseFee: bigint): bigint {
  if (baseFee < 0n) throw new RangeError(`base fee must not be negative, got ${baseFee}`);
  const fee = (gas * baseFee + X2C_RATE - 1n) / X2C_RATE;
  if (fee > UINT64_MAX) fail("fee-overflow", "overflow occurred while calculating the fee");
  return fee;
}

/** Amount of `assetId` a transaction consumes but does not produce (what it burns). */
export function burnedAmount(tx: UnsignedAtomicTx, assetId: Uint8Array): bigint {
  let consumed = 0n;
  let produced = 0n;
  if (tx.typeId === AtomicTypeId.ImportTx) {
    for (const input of tx.importedInputs) if (equalBytes(input.assetId, assetId)) consumed += input.input.amount;
    for (const out of tx.outs) if (equalBytes(out.assetId, assetId)) produced += out.amount;
  } else {
    for (const input of tx.ins) if (equalBytes(input.assetId, assetId)) consumed += input.amount;
    for (const out of tx.exportedOutputs) if (equalBytes(out.assetId, assetId)) produced += out.output.amount;
  }
  if (consumed > UINT64_MAX || produced > UINT64_MAX) fail("fee-overflow", "overflow");
  if (produced > consumed) fail("insufficient-funds", "underflow");
  return consumed - produced;
}

// ---------------------------------------------------------------------------------------
// Syntactic verification
// ---------------------------------------------------------------------------------------

function firstNotAscending<T>(items: readonly T[], compare: (a: T, b: T) => number, strict: boolean): number {
  for (let i = 1; i < items.length; i++) {
    const c = compare(items[i - 1]!, items[i]!);
    if (strict ? c >= 0 : c > 0) return i;
  }
  return -1;
}

/** secp256k1fx rules of a transfer output (the node's TransferOutput.Verify): its message, or undefined. */
function transferOutputProblem(output: Secp256k1TransferOutput, path: string): string | undefined {
  if (output.amount === 0n) return "output has no value";
  try {
    validateOutputOwners(output, path);
  } catch (error) {
    if (error instanceof TxValidationError) return error.nodeMessage;
    throw error;
  }
  return undefined;
}

function transferInputProblem(input: TransferableInput, path: string): string | undefined {
  if (input.input.amount === 0n) return "input has no value";
  try {
    validateInputSignatureIndices(input.input, `${path}.input`);
  } catch (error) {
    if (error instanceof TxValidationError) return error.nodeMessage;
    throw error;
  }
  return undefined;
}

function verifyImportSyntax(tx: UnsignedImportTx, ctx: AtomicContext): void {
  if (tx.importedInputs.length === 0) fail("no-import-inputs", "tx has no imported inputs");
  if (tx.networkId !== ctx.networkId) {
    fail("wrong-network-id", `tx was issued with a different network ID (tx: ${tx.networkId}, this network: ${ctx.networkId})`);
  }
  if (!equalBytes(tx.blockchainId, ctx.chainId)) {
    fail("wrong-chain-id", `tx has wrong chain ID (blockchainID ${encodeCb58(tx.blockchainId)} is not this chain's ${encodeCb58(ctx.chainId)})`);
  }
  if (tx.outs.length === 0) fail("no-evm-outputs", "tx has no EVM outputs");
  if (!isPeerChain(ctx, tx.sourceChain)) {
    fail("wrong-chain-id", `tx has wrong chain ID (source chain ${encodeCb58(tx.sourceChain)} is not another chain of this network)`);
  }
  tx.outs.forEach((out, i) => {
    if (out.amount === 0n) fail("invalid-output", `EVM Output failed verification: output has no value (outs[${i}])`);
    if (isZero(out.assetId)) fail("invalid-output", `EVM Output failed verification: empty asset ID is not valid (outs[${i}])`);
    if (ctx.nativeOnly && !equalBytes(out.assetId, ctx.nativeAssetId)) fail("non-native-asset", "import output cannot contain non-AVAX in Banff");
  });
  tx.importedInputs.forEach((input, i) => {
    const path = `importedInputs[${i}]`;
    const problem = isZero(input.assetId) ? "empty asset ID is not valid" : transferInputProblem(input, path);
    if (problem !== undefined) fail("invalid-input", `atomic input failed verification: ${problem} (${path})`);
    if (ctx.nativeOnly && !equalBytes(input.assetId, ctx.nativeAssetId)) fail("non-native-asset", "import input cannot contain non-AVAX in Banff");
  });
  const badInput = firstNotAscending(tx.importedInputs, compareUtxoIds, true);
  if (badInput >= 0) fail("inputs-not-sorted-unique", `inputs not sorted and unique (importedInputs[${badInput}] is not after [${badInput - 1}] by UTXO ID)`);
  const badOutput = firstNotAscending(tx.outs, compareEvmOutputs, true);
  if (badOutput >= 0) {
    fail("outputs-not-sorted-unique", `outputs not sorted and unique (outs[${badOutput}] is not after [${badOutput - 1}] by address, then asset ID)`);
  }
}

function verifyExportSyntax(tx: UnsignedExportTx, ctx: AtomicContext): void {
  if (tx.exportedOutputs.length === 0) fail("no-export-outputs", "tx has no export outputs");
  if (tx.networkId !== ctx.networkId) {
    fail("wrong-network-id", `tx was issued with a different network ID (tx: ${tx.networkId}, this network: ${ctx.networkId})`);
  }
  if (!equalBytes(tx.blockchainId, ctx.chainId)) {
    fail("wrong-chain-id", `tx has wrong chain ID (blockchainID ${encodeCb58(tx.blockchainId)} is not this chain's ${encodeCb58(ctx.chainId)})`);
  }
  if (!isPeerChain(ctx, tx.destinationChain)) {
    fail("wrong-chain-id", `tx has wrong chain ID (destination chain ${encodeCb58(tx.destinationChain)} is not another chain of this network)`);
  }
  tx.ins.forEach((input, i) => {
    if (input.amount === 0n) fail("invalid-input", `input has no value (ins[${i}])`);
    if (isZero(input.assetId)) fail("invalid-input", `empty asset ID is not valid (ins[${i}])`);
    if (ctx.nativeOnly && !equalBytes(input.assetId, ctx.nativeAssetId)) fail("non-native-asset", "export input cannot contain non-AVAX in Banff");
  });
  tx.exportedOutputs.forEach((out, i) => {
    const path = `exportedOutputs[${i}]`;
    const problem = isZero(out.assetId) ? "empty asset ID is not valid" : transferOutputProblem(out.output, `${path}.output`);
    if (problem !== undefined) fail("invalid-output", `${problem} (${path})`);
    if (!equalBytes(out.assetId, ctx.nativeAssetId) && equalBytes(tx.destinationChain, P_CHAIN_ID)) {
      fail("wrong-chain-id", "tx has wrong chain ID (only the native coin can be exported to the platform chain)");
    }
    if (ctx.nativeOnly && !equalBytes(out.assetId, ctx.nativeAssetId)) fail("non-native-asset", "export output cannot contain non-AVAX in Banff");
  });
  const badOutput = firstNotAscending(tx.exportedOutputs, compareTransferableOutputs, false);
  if (badOutput >= 0) {
    fail("outputs-not-sorted", `tx outputs not sorted (exportedOutputs[${badOutput}] sorts before [${badOutput - 1}] by asset ID, then output bytes)`);
  }
  const badInput = firstNotAscending(tx.ins, compareEvmInputs, true);
  if (badInput >= 0) fail("inputs-not-sorted-unique", `inputs not sorted and unique (ins[${badInput}] is not after [${badInput - 1}] by address, then asset ID)`);
}

/** The node's syntactic rules (Verify) of an unsigned atomic transaction; throws the first AtomicTxError, in the node's order. */
export function verifyAtomicTxSyntax(tx: UnsignedAtomicTx, ctx: AtomicContext): void {
  if (tx.typeId === AtomicTypeId.ImportTx) verifyImportSyntax(tx, ctx);
  else verifyExportSyntax(tx, ctx);
}

// ---------------------------------------------------------------------------------------
// Semantic verification
// ---------------------------------------------------------------------------------------

class FlowChecker {
  private readonly consumed = new Map<string, bigint>();
  private readonly produced = new Map<string, bigint>();
  private overflow = false;

  consume(assetId: Uint8Array, amount: bigint): void {
    this.add(this.consumed, assetId, amount);
  }

  produce(assetId: Uint8Array, amount: bigint): void {
    this.add(this.produced, assetId, amount);
  }

  private add(map: Map<string, bigint>, assetId: Uint8Array, amount: bigint): void {
    const key = hex(assetId);
    const sum = (map.get(key) ?? 0n) + amount;
    if (sum > UINT64_MAX) this.overflow = true;
    map.set(key, sum);
  }

  /** The node's error text, with which asset fell short and by how much. */
  problem(nativeAssetId: Uint8Array, fee: bigint): string | undefined {
    if (this.overflow) return "overflow";
    for (const [asset, produced] of this.produced) {
      const consumed = this.consumed.get(asset) ?? 0n;
      if (produced > consumed) {
        const native = asset === hex(nativeAssetId);
        return (
          `insufficient funds: asset ${encodeCb58(Buffer.from(asset, "hex"))} needs ${produced}` +
          `${native ? ` (including the fee of ${fee})` : ""} but the inputs provide ${consumed}`
        );
      }
    }
    return undefined;
  }
}

/** Reads of the environment semantic verification needs. */
export interface SemanticEnvironment {
  ctx: AtomicContext;
  sharedMemory: SharedMemory;
  /** Base fee (wei per gas) of the block the transaction goes into. */
  baseFee: bigint;
  /** Unix seconds, for UTXO locktimes. */
  now: bigint;
}

/** The secp256k1fx spend rules of one imported UTXO (the node's VerifyTransfer). */
function verifyTransfer(hash: Uint8Array, input: TransferableInput, credential: Credential, utxo: Utxo, now: bigint, path: string): void {
  const out = utxo.output;
  const bad = (problem: string): never => fail("transfer-failed", `import tx transfer failed verification: ${problem} (${path})`);
  if (out.typeId !== TypeId.Secp256k1TransferOutput) bad("wrong utxo type");
  const transfer = out as Secp256k1TransferOutput;
  const outProblem = transferOutputProblem(transfer, `${path}.utxo`);
  if (outProblem !== undefined) bad(outProblem);
  const inProblem = transferInputProblem(input, path);
  if (inProblem !== undefined) bad(inProblem);
  if (transfer.amount !== input.input.amount) bad(`utxo amount and input amount are not equal: ${transfer.amount} != ${input.input.amount}`);
  const indices = input.input.signatureIndices;
  if (transfer.locktime > now) bad(`output is time locked (until ${transfer.locktime}, now ${now})`);
  if (transfer.threshold < indices.length) bad(`input has more signers than expected (${indices.length} > threshold ${transfer.threshold})`);
  if (transfer.threshold > indices.length) bad(`input has less signers than expected (${indices.length} < threshold ${transfer.threshold})`);
  if (indices.length !== credential.signatures.length) {
    bad(`input expected a different number of signers than provided in the credential (${indices.length} != ${credential.signatures.length})`);
  }
  indices.forEach((index, i) => {
    if (index >= transfer.addresses.length) bad("input referenced a nonexistent address in the output");
    let signer: Uint8Array;
    try {
      signer = shortIdFromPublicKey(recoverPublicKey(hash, credential.signatures[i]!));
    } catch (error) {
      if (error instanceof SignatureError) return bad(error.nodeMessage ?? error.message);
      throw error;
    }
    const expected = transfer.addresses[index]!;
    if (!equalBytes(signer, expected)) {
      bad(`wrong signature: expected signature from ${encodeCb58(expected)} but got from ${encodeCb58(signer)}`);
    }
  });
}

function verifyImportSemantics(parsed: ParsedAtomicTx, tx: UnsignedImportTx, env: SemanticEnvironment): void {
  const { ctx } = env;
  verifyImportSyntax(tx, ctx);
  const fee = calculateDynamicFee(atomicTxGasUsed(tx, parsed.unsignedBytes), env.baseFee);
  const flow = new FlowChecker();
  flow.produce(ctx.nativeAssetId, fee);
  for (const out of tx.outs) flow.produce(out.assetId, out.amount);
  for (const input of tx.importedInputs) flow.consume(input.assetId, input.input.amount);
  const problem = flow.problem(ctx.nativeAssetId, fee);
  if (problem !== undefined) fail("insufficient-funds", `import tx flow check failed due to: ${problem}`);

  const credentials = parsed.tx.credentials;
  if (credentials.length !== tx.importedInputs.length) {
    fail("wrong-number-of-credentials", `incorrect number of credentials: (${tx.importedInputs.length} vs. ${credentials.length})`);
  }
  const keys = tx.importedInputs.map((input) => utxoId(input.txId, input.outputIndex));
  let values: Uint8Array[];
  try {
    values = env.sharedMemory.get(ctx.chainId, tx.sourceChain, keys);
  } catch (error) {
    if (error instanceof AtomicMemoryError) {
      fail("utxo-not-found", `failed to fetch import UTXOs from ${encodeCb58(tx.sourceChain)} due to: ${error.message}`);
    }
    throw error;
  }
  const hash = sha256(parsed.unsignedBytes);
  tx.importedInputs.forEach((input, i) => {
    let utxo: Utxo;
    try {
      utxo = decodeUtxo(values[i]!);
    } catch (error) {
      if (error instanceof CodecError) fail("bad-utxo", `failed to unmarshal UTXO: ${error.message}`);
      throw error;
    }
    if (!equalBytes(utxo.assetId, input.assetId)) fail("asset-mismatch", `asset IDs in the input don't match the utxo (importedInputs[${i}])`);
    verifyTransfer(hash, input, credentials[i]!, utxo, env.now, `importedInputs[${i}]`);
  });
}

function verifyExportSemantics(parsed: ParsedAtomicTx, tx: UnsignedExportTx, env: SemanticEnvironment): void {
  const { ctx } = env;
  verifyExportSyntax(tx, ctx);
  const fee = calculateDynamicFee(atomicTxGasUsed(tx, parsed.unsignedBytes), env.baseFee);
  const flow = new FlowChecker();
  flow.produce(ctx.nativeAssetId, fee);
  for (const out of tx.exportedOutputs) flow.produce(out.assetId, out.output.amount);
  for (const input of tx.ins) flow.consume(input.assetId, input.amount);
  const problem = flow.problem(ctx.nativeAssetId, fee);
  if (problem !== undefined) fail("insufficient-funds", `export tx flow check failed due to: ${problem}`);

  const credentials = parsed.tx.credentials;
  if (tx.ins.length !== credentials.length) {
    fail("wrong-number-of-credentials", `export tx contained incorrect number of credentials want ${tx.ins.length} got ${credentials.length}`);
  }
  const hash = sha256(parsed.unsignedBytes);
  tx.ins.forEach((input, i) => {
    const credential = credentials[i]!;
    if (credential.signatures.length !== 1) {
      fail("wrong-number-of-signatures", `incorrect number of signatures want 1 signature for EVM Input Credential, but got ${credential.signatures.length} (credentials[${i}])`);
    }
    let signer: Uint8Array;
    try {
      signer = evmAddressOfPublicKey(recoverPublicKey(hash, credential.signatures[0]!));
    } catch (error) {
      if (error instanceof SignatureError) fail("signature-mismatch", `${error.nodeMessage ?? error.message} (credentials[${i}])`);
      throw error;
    }
    if (!equalBytes(signer, input.address)) {
      fail("signature-mismatch", `signature doesn't match public key (ins[${i}] spends from 0x${hex(input.address)}, the signature is from 0x${hex(signer)})`);
    }
  });
}

/** The node's semantic verification (everything but the state transfer) of a parsed atomic transaction. */
export function verifyAtomicTx(parsed: ParsedAtomicTx, env: SemanticEnvironment): void {
  const tx = parsed.tx.unsignedTx;
  if (tx.typeId === AtomicTypeId.ImportTx) verifyImportSemantics(parsed, tx, env);
  else verifyExportSemantics(parsed, tx, env);
}

// ---------------------------------------------------------------------------------------
// Application
// ---------------------------------------------------------------------------------------

async function getAccount(state: AtomicStateReader, address: Address): Promise<Account> {
  return (await state.getAccount(address)) ?? new Account();
}

/**
 * The state transfer: import credits, export debits and bumps nonces. Throws (the caller
 * reverts) on insufficient funds or a wrong nonce, like the node's EVMStateTransfer.
 */
export async function applyAtomicStateTransfer(tx: UnsignedAtomicTx, state: AtomicStateWriter, nativeAssetId: Uint8Array): Promise<void> {
  if (tx.typeId === AtomicTypeId.ImportTx) {
    for (const out of tx.outs) {
      const address = new Address(out.address);
      if (equalBytes(out.assetId, nativeAssetId)) {
        const account = await getAccount(state, address);
        account.balance += out.amount * X2C_RATE;
        await state.putAccount(address, account);
      } else {
        const assetHex = hex(out.assetId);
        await state.setAssetBalance(address, assetHex, state.getAssetBalance(address, assetHex) + out.amount);
      }
    }
    return;
  }
  const nonces = new Map<string, bigint>();
  for (const [i, input] of tx.ins.entries()) {
    const address = new Address(input.address);
    const account = await getAccount(state, address);
    if (equalBytes(input.assetId, nativeAssetId)) {
      const amount = input.amount * X2C_RATE;
      if (account.balance < amount) {
        fail("insufficient-funds", `insufficient funds (ins[${i}]: 0x${hex(input.address)} has ${account.balance} wei, the input spends ${amount})`);
      }
      account.balance -= amount;
      await state.putAccount(address, account);
    } else {
      const assetHex = hex(input.assetId);
      const balance = state.getAssetBalance(address, assetHex);
      if (balance < input.amount) {
        fail("insufficient-funds", `insufficient funds (ins[${i}]: 0x${hex(input.address)} has ${balance} of asset ${encodeCb58(input.assetId)}, the input spends ${input.amount})`);
      }
      await state.setAssetBalance(address, assetHex, balance - input.amount);
    }
    const nonce = (await getAccount(state, address)).nonce;
    if (nonce !== input.nonce) fail("invalid-nonce", `invalid nonce (ins[${i}]: 0x${hex(input.address)} has nonce ${nonce}, the input says ${input.nonce})`);
    nonces.set(hex(input.address), input.nonce);
  }
  for (const [addressHex, nonce] of nonces) {
    const address = new Address(Buffer.from(addressHex, "hex"));
    const account = await getAccount(state, address);
    account.nonce = nonce + 1n;
    await state.putAccount(address, account);
  }
}

/** The shared-memory operations of an atomic transaction: the peer chain and what to put or remove. */
export function atomicRequestsOf(tx: UnsignedAtomicTx, id: Uint8Array): { peerChain: Uint8Array; requests: AtomicRequests } {
  if (tx.typeId === AtomicTypeId.ImportTx) {
    return { peerChain: tx.sourceChain, requests: { remove: tx.importedInputs.map((input) => utxoId(input.txId, input.outputIndex)) } };
  }
  const put: AtomicElement[] = tx.exportedOutputs.map((out, outputIndex) => ({
    key: utxoId(id, outputIndex),
    value: encodeUtxo({ txId: id, outputIndex, assetId: out.assetId, output: out.output }),
    traits: out.output.addresses.map((a) => a.slice()),
  }));
  return { peerChain: tx.destinationChain, requests: { put } };
}

// ---------------------------------------------------------------------------------------
// Building (what the node's import/export API methods issue)
// ---------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------
// The chain's atomic transactions: issuance, acceptance, records
// ---------------------------------------------------------------------------------------

/** Status of an atomic transaction as getAtomicTxStatus reports it. */
export type AtomicStatus = "Accepted" | "Processing" | "Dropped" | "Unknown";

interface TxRecord {
  bytes: Uint8Array;
  status: "Accepted" | "Dropped";
  height: bigint | undefined;
  /** Why it was dropped. */
  reason?: string;
}

export interface AcceptedAtomicTx {
  /** cb58 transaction ID. */
  txId: string;
  block: BlockRecord;
  parsed: ParsedAtomicTx;
  gasUsed: bigint;
  /** Fee required at the block's base fee, in nAVAX. */
  fee: bigint;
}

export interface ContractChainAtomicsOptions {
  engine: Engine;
  sharedMemory: SharedMemory;
  network?: NetworkIdentifiers;
  /**
   * Apply the Banff rule (only the native coin crosses chains). Default: the engine's
   * `deprecatedPrecompiles` option, so both later-upgrade behaviours go together.
   */
  nativeOnly?: boolean;
  /** Unix seconds for UTXO locktimes. Default: the wall clock, never before the head block. */
  clock?: () => bigint;
}

/**
 * The contract chain's side of cross-chain transfers: verifies atomic transactions against the
 * chain's state and shared memory, accepts each in a block of its own, and remembers them
 * for getAtomicTx / getAtomicTxStatus.
 */
export class ContractChainAtomics {
  readonly engine: Engine;
  readonly sharedMemory: SharedMemory;
  readonly network: NetworkIdentifiers;
  readonly ctx: AtomicContext;
  private readonly clock: () => bigint;
  private readonly records = new Map<string, TxRecord>();

  constructor(options: ContractChainAtomicsOptions) {
    this.engine = options.engine;
    this.sharedMemory = options.sharedMemory;
    this.network = options.network ?? LOCAL_NETWORK;
    this.ctx = atomicContextOf(this.network, options.nativeOnly ?? options.engine.options.deprecatedPrecompiles);
    this.clock =
      options.clock ??
      (() => {
        const now = BigInt(Math.floor(Date.now() / 1000));
        const head = this.engine.head.block.header.timestamp;
        return now > head ? now : head;
      });
  }

  /** Unix seconds used for locktimes. */
  now(): bigint {
    return this.clock();
  }

  /** Base fee (wei per gas) the next block has: what an atomic transaction must pay at least. */
  requiredBaseFee(): bigint {
    return this.engine.nextBlockBaseFee();
  }

  /** The base fee the node's API uses when none is given: the next block's plus 10 %. */
  suggestedBaseFee(): bigint {
    return (this.engine.nextBlockBaseFee() * 11n) / 10n;
  }

  /**
   * Verifies and accepts a signed atomic transaction (bytes or parsed) in a new block.
   * Throws an AtomicTxError when the node would refuse it; a decodable transaction refused
   * for its content is then reported as Dropped.
   */
  issue(tx: Uint8Array | ParsedAtomicTx): Promise<AcceptedAtomicTx> {
    return this.engine.serialize(() => this.issueLocked(tx));
  }

  /** Builds, signs and accepts an import of every atomic UTXO from `sourceChain` the keys can spend. */
  importFunds(params: { sourceChain: Uint8Array; to: Uint8Array; keys: Uint8Array[]; baseFee?: bigint }): Promise<AcceptedAtomicTx> {
    return this.engine.serialize(async () => {
      const owners = params.keys.map(shortIdFromPrivateKey);
      const page = this.sharedMemory.indexed(this.ctx.chainId, params.sourceChain, owners, undefined, undefined, 1024);
      const utxos: Utxo[] = [];
      for (const value of page.values) {
        try {
          utxos.push(decodeUtxo(value));
        } catch (error) {
          if (error instanceof CodecError) fail("bad-utxo", `problem retrieving atomic UTXOs: error parsing UTXO: ${error.message}`);
          throw error;
        }
      }
      const parsed = buildImportTx({
        ctx: this.ctx,
        sourceChain: params.sourceChain,
        to: params.to,
        baseFee: params.baseFee ?? this.suggestedBaseFee(),
        keys: params.keys,
        utxos,
        now: this.now(),
      });
      return this.issueLocked(parsed);
    });
  }

  /** Builds, signs and accepts an export of `amount` of an asset to `to` (short ID) on `destinationChain`. */
  exportFunds(params: { assetId: Uint8Array; amount: bigint; destinationChain: Uint8Array; to: Uint8Array; keys: Uint8Array[]; baseFee?: bigint }): Promise<AcceptedAtomicTx> {
    return this.engine.serialize(async () => {
      const parsed = await buildExportTx({
        ctx: this.ctx,
        state: this.engine.currentState,
        assetId: params.assetId,
        amount: params.amount,
        destinationChain: params.destinationChain,
        to: params.to,
        baseFee: params.baseFee ?? this.suggestedBaseFee(),
        keys: params.keys,
      });
      return this.issueLocked(parsed);
    });
  }

  private async issueLocked(input: Uint8Array | ParsedAtomicTx): Promise<AcceptedAtomicTx> {
    let parsed: ParsedAtomicTx;
    if (input instanceof Uint8Array) {
      try {
        parsed = parseSignedAtomicTx(input);
      } catch (error) {
        if (error instanceof CodecError) throw new AtomicTxError("malformed", `problem parsing transaction: ${error.message}`);
        throw error;
      }
    } else {
      parsed = input;
    }
    const txId = encodeCb58(parsed.id);
    const previous = this.records.get(txId);
    if (previous?.status === "Accepted" && this.acceptedHeight(txId, previous) !== undefined) {
      throw new AtomicTxError(
        "already-accepted",
        `tx ${txId} was already accepted in block ${previous.height}: its ${parsed.tx.unsignedTx.typeId === AtomicTypeId.ImportTx ? "atomic UTXOs are already imported" : "inputs are already spent"}`,
        txId,
      );
    }
    const tx = parsed.tx.unsignedTx;
    try {
      if (parsed.signedBytes.length > MAX_ATOMIC_TX_SIZE) {
        fail("too-large", `tx size (${parsed.signedBytes.length}) exceeds total atomic txs size target (${MAX_ATOMIC_TX_SIZE})`);
      }
      const gasUsed = atomicTxGasUsed(tx, parsed.unsignedBytes);
      if (gasUsed > ATOMIC_GAS_LIMIT) fail("gas-limit", `tx gas usage (${gasUsed}) exceeds atomic gas limit (${ATOMIC_GAS_LIMIT})`);
      const baseFee = this.engine.nextBlockBaseFee();
      verifyAtomicTx(parsed, { ctx: this.ctx, sharedMemory: this.sharedMemory, baseFee, now: this.now() });
      const { peerChain, requests } = atomicRequestsOf(tx, parsed.id);
      const block = await this.engine.mineAtomic({
        id: txId,
        gasUsed,
        apply: async (state) => {
          await applyAtomicStateTransfer(tx, state, this.ctx.nativeAssetId);
          try {
            this.sharedMemory.apply(this.ctx.chainId, [[peerChain, requests]]);
          } catch (error) {
            if (error instanceof AtomicMemoryError) fail("shared-memory", error.message);
            throw error;
          }
        },
      });
      this.records.set(txId, { bytes: parsed.signedBytes, status: "Accepted", height: block.number });
      return { txId, block, parsed, gasUsed, fee: calculateDynamicFee(gasUsed, block.block.header.baseFeePerGas ?? baseFee) };
    } catch (error) {
      if (error instanceof AtomicTxError) {
        error.txId = txId;
        if (this.records.get(txId)?.status !== "Accepted") {
          this.records.set(txId, { bytes: parsed.signedBytes, status: "Dropped", height: undefined, reason: error.message });
        }
      }
      throw error;
    }
  }

  /** Height of the block that accepted a recorded transaction, if that block is still in the chain. */
  private acceptedHeight(txId: string, record: TxRecord): bigint | undefined {
    if (record.height === undefined) return undefined;
    const block = this.engine.chain.byNumberOrUndefined(record.height);
    return block?.atomicTransactions.includes(txId) ? record.height : undefined;
  }

  /** Status (and block height when accepted) of a transaction, by cb58 ID. */
  status(txId: string): { status: AtomicStatus; blockHeight?: bigint; reason?: string } {
    const record = this.records.get(txId);
    if (record === undefined) return { status: "Unknown" };
    if (record.status === "Dropped") return { status: "Dropped", reason: record.reason };
    const height = this.acceptedHeight(txId, record);
    return height === undefined ? { status: "Unknown" } : { status: "Accepted", blockHeight: height };
  }

  /** The signed bytes of a known transaction with its status, or undefined for an unknown one. */
  transaction(txId: string): { bytes: Uint8Array; status: AtomicStatus; blockHeight?: bigint } | undefined {
    const record = this.records.get(txId);
    if (record === undefined) return undefined;
    const status = this.status(txId);
    if (status.status === "Unknown") return undefined;
    return { bytes: record.bytes, status: status.status, blockHeight: status.blockHeight };
  }

  /** Every recorded transaction ID (accepted or dropped). */
  knownTransactions(): string[] {
    return [...this.records.keys()];
  }
}

