import { equalBytes, UINT64_MAX } from "../../encoding";
import { encodeOperation, encodeOutput, encodeTransferableOutput } from "./encode";
import { TxValidationError, type TxValidationCode } from "./errors";
import { compareBytes, compareUtxoIds, firstNotAscending } from "./order";
import { NUM_FXS, TypeId, typeIdName } from "./type-ids";
import {
  type CreateAssetTx,
  type FxOperation,
  type InitialState,
  type Input,
  type Operation,
  type OperationTx,
  type Output,
  type OutputOwners,
  type SignedTx,
  type TransferableInput,
  type TransferableOutput,
  type UnsignedTx,
} from "./types";

/*
 * Syntactic verification of exchange-chain transactions: the checks the reference node runs
 * on a transaction before looking at any state (the UTXOs it spends), in the node's order,
 * so the first violation reported is the one the node would report. Each violation is a
 * TxValidationError with a distinct `code`, a path, a descriptive message and the node's own
 * error text (`nodeMessage`).
 */

/** Longest memo, in bytes. */
export const MAX_MEMO_SIZE = 256;
/** Asset names: 1 to 128 bytes of ASCII letters, digits and inner spaces. */
export const MIN_NAME_LENGTH = 1;
export const MAX_NAME_LENGTH = 128;
/** Asset symbols: 1 to 4 upper-case ASCII letters. */
export const MIN_SYMBOL_LENGTH = 1;
export const MAX_SYMBOL_LENGTH = 4;
/** Largest denomination (number of decimal digits). */
export const MAX_DENOMINATION = 32;
/** Largest NFT payload, in bytes. */
export const MAX_NFT_PAYLOAD_SIZE = 1024;

/** Fees the node burns, in the fee asset (the native asset). */
export interface FeeConfig {
  /** Asset the fee is paid in (the chain's native asset ID). */
  assetId: Uint8Array;
  /** Fee of BaseTx, OperationTx, ImportTx and ExportTx. */
  txFee: bigint;
  /** Fee of CreateAssetTx. */
  createAssetTxFee: bigint;
}

export interface ValidationOptions {
  /** When given, the transaction's networkId must equal it. */
  networkId?: number;
  /** When given, the transaction's blockchainId must equal it. */
  blockchainId?: Uint8Array;
  /**
   * When given, the value flow is checked like the node does: per asset, the inputs must
   * cover the outputs plus (for the fee asset) the fee, without uint64 overflow.
   */
  fee?: FeeConfig;
  /** Number of feature extensions of the chain (initial states' fxIndex must be below it). Default 3. */
  numFxs?: number;
}

function violation(code: TxValidationCode, path: string, message: string, nodeMessage: string): never {
  throw new TxValidationError(code, path, message, nodeMessage);
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

// ---------------------------------------------------------------------------------------
// Component rules
// ---------------------------------------------------------------------------------------

/** secp256k1fx OutputOwners rules: threshold <= #addresses, threshold 0 only without addresses, addresses sorted and unique. */
export function validateOutputOwners(owners: OutputOwners, path: string): void {
  const n = owners.addresses.length;
  if (owners.threshold > n) {
    violation("output-unspendable", `${path}.threshold`, `threshold ${owners.threshold} exceeds the ${n} address(es): the output could never be spent`, "output is unspendable");
  }
  if (owners.threshold === 0 && n > 0) {
    violation(
      "output-unoptimized",
      `${path}.threshold`,
      `threshold is 0 but ${n} address(es) are listed: an output anyone can spend must list no addresses`,
      "output representation should be optimized",
    );
  }
  const bad = firstNotAscending(owners.addresses, compareBytes, true);
  if (bad >= 0) {
    const dup = equalBytes(owners.addresses[bad - 1]!, owners.addresses[bad]!);
    violation(
      "addresses-not-sorted-unique",
      `${path}.addresses`,
      `addresses must be sorted ascending by bytes and unique: [${bad}] 0x${hex(owners.addresses[bad]!)} ${dup ? "repeats" : "sorts before"} [${bad - 1}] 0x${hex(owners.addresses[bad - 1]!)}`,
      "addresses not sorted and unique",
    );
  }
}

/** secp256k1fx Input rule: signature indices strictly ascending. */
export function validateInputSignatureIndices(input: Input, path: string): void {
  const bad = firstNotAscending(input.signatureIndices, (a, b) => a - b, true);
  if (bad >= 0) {
    violation(
      "signature-indices-not-sorted-unique",
      `${path}.signatureIndices`,
      `signature indices must be strictly ascending: [${bad}] = ${input.signatureIndices[bad]} after [${bad - 1}] = ${input.signatureIndices[bad - 1]}`,
      "address indices not sorted and unique",
    );
  }
}

function validateAssetId(assetId: Uint8Array, path: string): void {
  if (assetId.every((b) => b === 0)) {
    violation("empty-asset-id", `${path}.assetId`, "asset ID is all zeros (the empty ID names no asset)", "empty asset ID is not valid");
  }
}

function validateAmount(amount: bigint, code: "output-no-value" | "input-no-value", path: string): void {
  if (amount === 0n) {
    const what = code === "output-no-value" ? "output" : "input";
    violation(code, `${path}.amount`, `${what} amount is 0 (must be positive)`, `${what} has no value`);
  }
}

function validatePayload(payload: Uint8Array, path: string): void {
  if (payload.length > MAX_NFT_PAYLOAD_SIZE) {
    violation("payload-too-large", `${path}.payload`, `payload is ${payload.length} bytes, the maximum is ${MAX_NFT_PAYLOAD_SIZE}`, "payload too large");
  }
}

/** Rules of any output a UTXO or an initial state can hold. */
export function validateOutput(output: Output, path: string): void {
  switch (output.typeId) {
    case TypeId.Secp256k1TransferOutput:
      validateAmount(output.amount, "output-no-value", path);
      return validateOutputOwners(output, path);
    case TypeId.NftTransferOutput:
      validatePayload(output.payload, path);
      return validateOutputOwners(output, path);
    case TypeId.Secp256k1MintOutput:
    case TypeId.NftMintOutput:
    case TypeId.PropertyMintOutput:
    case TypeId.PropertyOwnedOutput:
      return validateOutputOwners(output, path);
  }
}

function validateTransferableOutput(out: TransferableOutput, path: string): void {
  validateAssetId(out.assetId, path);
  validateOutput(out.output, `${path}.output`);
}

function validateTransferableInput(input: TransferableInput, path: string): void {
  validateAssetId(input.assetId, path);
  validateAmount(input.input.amount, "input-no-value", `${path}.input`);
  validateInputSignatureIndices(input.input, `${path}.input`);
}

function validateFxOperation(op: FxOperation, path: string): void {
  switch (op.typeId) {
    case TypeId.Secp256k1MintOperation:
      validateInputSignatureIndices(op.mintInput, `${path}.mintInput`);
      validateOutputOwners(op.mintOutput, `${path}.mintOutput`);
      validateAmount(op.transferOutput.amount, "output-no-value", `${path}.transferOutput`);
      return validateOutputOwners(op.transferOutput, `${path}.transferOutput`);
    case TypeId.NftMintOperation:
      validatePayload(op.payload, path);
      op.outputs.forEach((owners, i) => validateOutputOwners(owners, `${path}.outputs[${i}]`));
      return validateInputSignatureIndices(op.mintInput, `${path}.mintInput`);
    case TypeId.NftTransferOperation:
      validateInputSignatureIndices(op.input, `${path}.input`);
      validatePayload(op.output.payload, `${path}.output`);
      return validateOutputOwners(op.output, `${path}.output`);
    case TypeId.PropertyMintOperation:
      validateInputSignatureIndices(op.mintInput, `${path}.mintInput`);
      validateOutputOwners(op.mintOutput, `${path}.mintOutput`);
      return validateOutputOwners(op.ownedOutput, `${path}.ownedOutput`);
    case TypeId.PropertyBurnOperation:
      return validateInputSignatureIndices(op, path);
  }
}

/** Rules of one operation: UTXO IDs sorted and unique, asset ID not empty, fx operation rules. */
export function validateOperation(op: Operation, path: string): void {
  const bad = firstNotAscending(op.utxoIds, compareUtxoIds, true);
  if (bad >= 0) {
    violation(
      "utxo-ids-not-sorted-unique",
      `${path}.utxoIds`,
      `UTXO IDs must be sorted by (txId, outputIndex) and unique: [${bad}] is not after [${bad - 1}]`,
      "utxo IDs not sorted and unique",
    );
  }
  validateAssetId(op.assetId, path);
  validateFxOperation(op.operation, `${path}.operation`);
}

function validateInitialState(state: InitialState, numFxs: number, path: string): void {
  if (state.fxIndex >= numFxs) {
    violation("unknown-fx", `${path}.fxIndex`, `fx index ${state.fxIndex} names no feature extension (the chain has ${numFxs})`, "unknown feature extension");
  }
  state.outputs.forEach((out, i) => validateOutput(out, `${path}.outputs[${i}]`));
  const encoded = state.outputs.map(encodeOutput);
  const bad = firstNotAscending(encoded, compareBytes, false);
  if (bad >= 0) {
    violation(
      "initial-state-outputs-not-sorted",
      `${path}.outputs`,
      `outputs must be sorted by their encoded bytes: [${bad}] sorts before [${bad - 1}]`,
      "outputs not sorted",
    );
  }
}

// ---------------------------------------------------------------------------------------
// Transaction rules
// ---------------------------------------------------------------------------------------

function validateEnvelope(tx: UnsignedTx, p: string, options: ValidationOptions): void {
  if (options.networkId !== undefined && tx.networkId !== options.networkId) {
    violation("wrong-network-id", `${p}.networkId`, `network ID is ${tx.networkId}, this chain's is ${options.networkId}`, "tx has wrong network ID");
  }
  if (options.blockchainId !== undefined && !equalBytes(tx.blockchainId, options.blockchainId)) {
    violation(
      "wrong-blockchain-id",
      `${p}.blockchainId`,
      `blockchain ID is 0x${hex(tx.blockchainId)}, this chain's is 0x${hex(options.blockchainId)}`,
      "tx has wrong chain ID",
    );
  }
  if (tx.memo.length > MAX_MEMO_SIZE) {
    violation("memo-too-large", `${p}.memo`, `memo is ${tx.memo.length} bytes, the maximum is ${MAX_MEMO_SIZE}`, `memo exceeds maximum length: ${tx.memo.length} > ${MAX_MEMO_SIZE}`);
  }
}

interface Group<T> {
  items: readonly T[];
  path: string;
}

/** The node's VerifyTx: every output and input group checked and sorted, then the value flow. */
function validateFlow(
  feeAmount: bigint,
  inputGroups: Group<TransferableInput>[],
  outputGroups: Group<TransferableOutput>[],
  options: ValidationOptions,
): void {
  const produced = new Map<string, bigint>();
  const consumed = new Map<string, bigint>();
  let overflow: string | undefined;
  const add = (map: Map<string, bigint>, assetId: Uint8Array, amount: bigint, path: string): void => {
    const key = hex(assetId);
    const sum = (map.get(key) ?? 0n) + amount;
    if (sum > UINT64_MAX && overflow === undefined) overflow = path;
    map.set(key, sum);
  };
  if (options.fee !== undefined) add(produced, options.fee.assetId, feeAmount, "fee");

  for (const group of outputGroups) {
    group.items.forEach((out, i) => {
      validateTransferableOutput(out, `${group.path}[${i}]`);
      add(produced, out.assetId, out.output.amount, `${group.path}[${i}].output.amount`);
    });
    const encoded = group.items.map(encodeTransferableOutput);
    const bad = firstNotAscending(encoded, compareBytes, false);
    if (bad >= 0) {
      violation(
        "outputs-not-sorted",
        group.path,
        `outputs must be sorted by asset ID, then by their encoded output bytes: [${bad}] sorts before [${bad - 1}]`,
        "outputs not sorted",
      );
    }
  }
  for (const group of inputGroups) {
    group.items.forEach((input, i) => {
      validateTransferableInput(input, `${group.path}[${i}]`);
      add(consumed, input.assetId, input.input.amount, `${group.path}[${i}].input.amount`);
    });
    const bad = firstNotAscending(group.items, compareUtxoIds, true);
    if (bad >= 0) {
      const dup = compareUtxoIds(group.items[bad - 1]!, group.items[bad]!) === 0;
      violation(
        "inputs-not-sorted-unique",
        group.path,
        `inputs must be sorted by (txId, outputIndex) and unique: [${bad}] ${dup ? "spends the same UTXO as" : "sorts before"} [${bad - 1}]`,
        "inputs not sorted and unique",
      );
    }
  }
  if (options.fee === undefined) return;
  if (overflow !== undefined) {
    violation("amount-overflow", overflow, "the amounts of one asset add up to more than 2^64 - 1", "overflow");
  }
  for (const [asset, out] of produced) {
    const inAmount = consumed.get(asset) ?? 0n;
    if (out > inAmount) {
      violation(
        "insufficient-funds",
        "inputs",
        `asset 0x${asset}: outputs${equalBytes(Buffer.from(asset, "hex"), options.fee.assetId) ? " plus fee" : ""} need ${out}, inputs provide ${inAmount}`,
        "insufficient funds",
      );
    }
  }
}

function validateBase(tx: UnsignedTx, p: string, feeAmount: bigint, extraInputs: Group<TransferableInput>[], extraOutputs: Group<TransferableOutput>[], options: ValidationOptions): void {
  validateEnvelope(tx, p, options);
  validateFlow(
    feeAmount,
    [{ items: tx.inputs, path: `${p}.inputs` }, ...extraInputs],
    [{ items: tx.outputs, path: `${p}.outputs` }, ...extraOutputs],
    options,
  );
}

// Go's unicode.IsSpace: what strings.TrimSpace removes from both ends.
const GO_SPACE = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const LEADING_OR_TRAILING_SPACE = new RegExp(`^[${GO_SPACE}]|[${GO_SPACE}]$`);
const NAME_CHARS = /^[A-Za-z0-9 ]*$/;
const SYMBOL_CHARS = /^[A-Z]*$/;

function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

function validateCreateAsset(tx: CreateAssetTx, p: string, options: ValidationOptions): void {
  const nameLength = utf8Length(tx.name);
  const symbolLength = utf8Length(tx.symbol);
  if (nameLength < MIN_NAME_LENGTH) {
    violation("name-too-short", `${p}.name`, "name is empty (at least 1 character)", `name is too short, minimum size is ${MIN_NAME_LENGTH}`);
  }
  if (nameLength > MAX_NAME_LENGTH) {
    violation("name-too-long", `${p}.name`, `name is ${nameLength} bytes, the maximum is ${MAX_NAME_LENGTH}`, `name is too long, maximum size is ${MAX_NAME_LENGTH}`);
  }
  if (symbolLength < MIN_SYMBOL_LENGTH) {
    violation("symbol-too-short", `${p}.symbol`, "symbol is empty (the node requires 1 to 4 letters)", `symbol is too short, minimum size is ${MIN_SYMBOL_LENGTH}`);
  }
  if (symbolLength > MAX_SYMBOL_LENGTH) {
    violation("symbol-too-long", `${p}.symbol`, `symbol is ${symbolLength} bytes, the maximum is ${MAX_SYMBOL_LENGTH}`, `symbol is too long, maximum size is ${MAX_SYMBOL_LENGTH}`);
  }
  if (tx.initialStates.length === 0) {
    violation("no-initial-states", `${p}.initialStates`, "an asset needs at least one initial state (one feature extension)", "assets must support at least one Fx");
  }
  if (tx.denomination > MAX_DENOMINATION) {
    violation("denomination-too-large", `${p}.denomination`, `denomination is ${tx.denomination}, the maximum is ${MAX_DENOMINATION}`, "denomination is too large");
  }
  if (LEADING_OR_TRAILING_SPACE.test(tx.name)) {
    violation("name-unexpected-whitespace", `${p}.name`, `name ${JSON.stringify(tx.name)} starts or ends with whitespace`, "unexpected whitespace provided");
  }
  if (!NAME_CHARS.test(tx.name)) {
    violation(
      "name-illegal-character",
      `${p}.name`,
      `name ${JSON.stringify(tx.name)} may only contain ASCII letters, digits and spaces`,
      "asset's name must be made up of only letters and numbers",
    );
  }
  if (!SYMBOL_CHARS.test(tx.symbol)) {
    violation("symbol-illegal-character", `${p}.symbol`, `symbol ${JSON.stringify(tx.symbol)} may only contain upper-case ASCII letters`, "asset's symbol must be all upper case letters");
  }
  validateBase(tx, p, options.fee?.createAssetTxFee ?? 0n, [], [], options);
  const numFxs = options.numFxs ?? NUM_FXS;
  tx.initialStates.forEach((state, i) => validateInitialState(state, numFxs, `${p}.initialStates[${i}]`));
  const bad = firstNotAscending(tx.initialStates, (a, b) => a.fxIndex - b.fxIndex, true);
  if (bad >= 0) {
    violation(
      "initial-states-not-sorted-unique",
      `${p}.initialStates`,
      `initial states must be sorted by fx index and unique: [${bad}] has fx index ${tx.initialStates[bad]!.fxIndex} after ${tx.initialStates[bad - 1]!.fxIndex}`,
      "initial states not sorted and unique",
    );
  }
}

function validateOperations(tx: OperationTx, p: string, options: ValidationOptions): void {
  if (tx.operations.length === 0) {
    violation("no-operations", `${p}.operations`, "an OperationTx needs at least one operation", "an operationTx must have at least one operation");
  }
  validateBase(tx, p, options.fee?.txFee ?? 0n, [], [], options);
  const spent = new Set(tx.inputs.map((input) => `${hex(input.txId)}:${input.outputIndex}`));
  tx.operations.forEach((op, i) => {
    validateOperation(op, `${p}.operations[${i}]`);
    op.utxoIds.forEach((id, j) => {
      const key = `${hex(id.txId)}:${id.outputIndex}`;
      if (spent.has(key)) {
        violation("double-spend", `${p}.operations[${i}].utxoIds[${j}]`, `UTXO 0x${hex(id.txId)}:${id.outputIndex} is already spent by this transaction`, "inputs attempt to double spend an input");
      }
      spent.add(key);
    });
  });
  const encoded = tx.operations.map(encodeOperation);
  const bad = firstNotAscending(encoded, compareBytes, true);
  if (bad >= 0) {
    violation(
      "operations-not-sorted-unique",
      `${p}.operations`,
      `operations must be sorted by their encoded bytes and unique: [${bad}] ${compareBytes(encoded[bad - 1]!, encoded[bad]!) === 0 ? "repeats" : "sorts before"} [${bad - 1}]`,
      "operations not sorted and unique",
    );
  }
}

/**
 * Check an unsigned transaction against the node's syntactic rules (everything but the
 * credential count). Throws the first TxValidationError, in the node's order.
 */
export function validateUnsignedTx(tx: UnsignedTx, options: ValidationOptions = {}): void {
  const p = typeIdName(tx.typeId) ?? "UnsignedTx";
  switch (tx.typeId) {
    case TypeId.BaseTx:
      return validateBase(tx, p, options.fee?.txFee ?? 0n, [], [], options);
    case TypeId.CreateAssetTx:
      return validateCreateAsset(tx, p, options);
    case TypeId.OperationTx:
      return validateOperations(tx, p, options);
    case TypeId.ImportTx:
      if (tx.importedInputs.length === 0) violation("no-import-inputs", `${p}.importedInputs`, "an ImportTx needs at least one imported input", "no import inputs");
      return validateBase(tx, p, options.fee?.txFee ?? 0n, [{ items: tx.importedInputs, path: `${p}.importedInputs` }], [], options);
    case TypeId.ExportTx:
      if (tx.exportedOutputs.length === 0) violation("no-export-outputs", `${p}.exportedOutputs`, "an ExportTx needs at least one exported output", "no export outputs");
      return validateBase(tx, p, options.fee?.txFee ?? 0n, [], [{ items: tx.exportedOutputs, path: `${p}.exportedOutputs` }], options);
  }
}

/** Number of credentials a transaction must carry: inputs + imported inputs (ImportTx) or + operations (OperationTx). */
export function expectedCredentialCount(tx: UnsignedTx): number {
  switch (tx.typeId) {
    case TypeId.ImportTx:
      return tx.inputs.length + tx.importedInputs.length;
    case TypeId.OperationTx:
      return tx.inputs.length + tx.operations.length;
    default:
      return tx.inputs.length;
  }
}

/** Check a signed transaction against the node's syntactic rules; throws the first TxValidationError. */
export function validateSignedTx(tx: SignedTx, options: ValidationOptions = {}): void {
  validateUnsignedTx(tx.unsignedTx, options);
  const expected = expectedCredentialCount(tx.unsignedTx);
  if (tx.credentials.length !== expected) {
    violation(
      "wrong-number-of-credentials",
      "SignedTx.credentials",
      `${tx.credentials.length} credential(s) for ${expected} input(s)${tx.unsignedTx.typeId === TypeId.OperationTx ? "/operation(s)" : ""}`,
      `wrong number of credentials: ${tx.credentials.length} != ${expected}`,
    );
  }
}
