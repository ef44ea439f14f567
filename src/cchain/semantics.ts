/**
 * The semantic rules of the contract chain's atomic transactions: everything the node checks
 * against the chain's environment (shared memory, the block's base fee, the clock) before the
 * state transfer.
 *
 *   flow    per asset: consumed >= produced (+ the fee for the native coin).
 *   import  every input's UTXO is in shared memory (from the source chain), has the same asset
 *           and amount, is unlocked, and is signed by `threshold` of its owners.
 *   export  exactly one signature per EVM input, from the key whose EVM address is the input's.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { AtomicMemoryError, type SharedMemory } from "../atomic/shared-memory";
import { UINT64_MAX, encodeCb58, equalBytes } from "../encoding";
import {
  CodecError,
  type Credential,
  type Secp256k1TransferOutput,
  SignatureError,
  type TransferableInput,
  TypeId,
  type Utxo,
  decodeUtxo,
  recoverPublicKey,
  shortIdFromPublicKey,
  utxoId,
} from "../utxo/codec";
import { AtomicTypeId, type ParsedAtomicTx, type UnsignedExportTx, type UnsignedImportTx, evmAddressOfPublicKey } from "./atomic-codec";
import { type AtomicContext, hex } from "./context";
import { fail } from "./errors";
import { atomicTxGasUsed, calculateDynamicFee } from "./fees";
import { transferInputProblem, transferOutputProblem, verifyExportSyntax, verifyImportSyntax } from "./syntax";

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

interface AssetAmount {
  assetId: Uint8Array;
  amount: bigint;
}

/** The flow check of either kind: the fee (native coin) and the outputs need no more of any asset than the inputs provide. */
function verifyFlow(kind: "import" | "export", parsed: ParsedAtomicTx, env: SemanticEnvironment, produced: readonly AssetAmount[], consumed: readonly AssetAmount[]): void {
  const { nativeAssetId } = env.ctx;
  const fee = calculateDynamicFee(atomicTxGasUsed(parsed.tx.unsignedTx, parsed.unsignedBytes), env.baseFee);
  const flow = new FlowChecker();
  flow.produce(nativeAssetId, fee);
  for (const out of produced) flow.produce(out.assetId, out.amount);
  for (const input of consumed) flow.consume(input.assetId, input.amount);
  const problem = flow.problem(nativeAssetId, fee);
  if (problem !== undefined) fail("insufficient-funds", `${kind} tx flow check failed due to: ${problem}`);
}

function verifyImportSemantics(parsed: ParsedAtomicTx, tx: UnsignedImportTx, env: SemanticEnvironment): void {
  const { ctx } = env;
  verifyImportSyntax(tx, ctx);
  verifyFlow("import", parsed, env, tx.outs, tx.importedInputs.map((input) => ({ assetId: input.assetId, amount: input.input.amount })));

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
  verifyFlow("export", parsed, env, tx.exportedOutputs.map((out) => ({ assetId: out.assetId, amount: out.output.amount })), tx.ins);

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
