import { sha256 } from "@noble/hashes/sha2.js";
import { encodeCb58, equalBytes } from "../../encoding";
import {
  type Credential,
  decodeUtxo,
  fxIndexOfTypeId,
  type Input,
  type Operation,
  type OperationTx,
  type OutputOwners,
  type ParsedSignedTx,
  recoverPublicKey,
  SignatureError,
  shortIdFromPublicKey,
  type TransferableInput,
  TypeId,
  typeIdName,
  type UnsignedTx,
  type Utxo,
  utxoId,
} from "../../utxo/codec";
import { TxRejectedError } from "./errors";

/*
 * Semantic verification of exchange-chain transactions: the checks the reference node runs
 * against the chain's state after the syntactic ones, in its order, with its error texts
 * (avalanchego vms/avm/txs/executor/semantic_verifier.go; the feature extensions'
 * VerifyTransfer/VerifyOperation/VerifyCredentials in vms/secp256k1fx/fx.go,
 * vms/nftfx/fx.go, vms/propertyfx/fx.go; vms/components/verify/subnet.go for peer chains).
 */

/** What verification reads from the chain. */
export interface VerificationContext {
  /** This chain's ID. */
  chainId: Uint8Array;
  /** Current time, Unix seconds (locktimes are compared with it). */
  now: bigint;
  /** A UTXO of this chain by input ID. */
  getUtxo(inputId: Uint8Array): Utxo | undefined;
  /**
   * The asset an ID names: its fx indices, "not-an-asset" when the ID is an accepted
   * transaction that created no asset, undefined when nothing has that ID.
   */
  getAsset(assetId: Uint8Array): { fxIndices: ReadonlySet<number> } | "not-an-asset" | undefined;
  /** True for a chain this chain can import from and export to. */
  isPeerChain(chainId: Uint8Array): boolean;
  /** UTXO bytes in this chain's inbox from `sourceChain`, or undefined when absent. */
  getAtomicUtxo(sourceChain: Uint8Array, inputId: Uint8Array): Uint8Array | undefined;
  /** Address for messages, e.g. "X-local1...". */
  formatAddress(shortId: Uint8Array): string;
}

const CREDENTIAL_FX: Record<number, number> = {
  [TypeId.Secp256k1Credential]: 0,
  [TypeId.NftCredential]: 1,
  [TypeId.PropertyCredential]: 2,
};
const FX_NAMES = ["secp256k1fx", "nftfx", "propertyfx"];

function reject(rule: ConstructorParameters<typeof TxRejectedError>[0], nodeMessage: string, detail?: string): never {
  throw new TxRejectedError(rule, nodeMessage, detail);
}

function ownersEqual(a: OutputOwners, b: OutputOwners): boolean {
  return (
    a.locktime === b.locktime &&
    a.threshold === b.threshold &&
    a.addresses.length === b.addresses.length &&
    a.addresses.every((address, i) => equalBytes(address, b.addresses[i]!))
  );
}

function utxoRef(txId: Uint8Array, outputIndex: number): string {
  return `${encodeCb58(txId)}:${outputIndex}`;
}

class Verifier {
  private readonly hash: Uint8Array;
  private readonly p: string;

  constructor(
    private readonly parsed: ParsedSignedTx,
    private readonly ctx: VerificationContext,
  ) {
    this.hash = sha256(parsed.unsignedBytes);
    this.p = typeIdName(parsed.tx.unsignedTx.typeId) ?? "UnsignedTx";
  }

  run(): void {
    const tx = this.parsed.tx.unsignedTx;
    this.baseTx(tx);
    switch (tx.typeId) {
      case TypeId.OperationTx:
        return this.operations(tx);
      case TypeId.ImportTx: {
        this.samePrimaryNetwork(tx.sourceChain, "sourceChain");
        const offset = tx.inputs.length;
        tx.importedInputs.forEach((input, i) => {
          const path = `${this.p}.importedInputs[${i}]`;
          const bytes = this.ctx.getAtomicUtxo(tx.sourceChain, utxoId(input.txId, input.outputIndex));
          if (bytes === undefined) {
            reject(
              "missing-atomic-utxo",
              "not found",
              `${path} imports UTXO ${utxoRef(input.txId, input.outputIndex)}, which is not in shared memory from chain ${encodeCb58(tx.sourceChain)} (never exported to this chain, or already imported)`,
            );
          }
          let utxo: Utxo;
          try {
            utxo = decodeUtxo(bytes);
          } catch (error) {
            return reject("malformed", "couldn't unmarshal UTXO", `${path}: ${error instanceof Error ? error.message : String(error)}`);
          }
          this.transfer(input, this.credential(offset + i), utxo, path);
        });
        return;
      }
      case TypeId.ExportTx:
        this.samePrimaryNetwork(tx.destinationChain, "destinationChain");
        tx.exportedOutputs.forEach((out, i) => this.fxUsage(0, out.assetId, `${this.p}.exportedOutputs[${i}]`));
        return;
      default:
        return;
    }
  }

  private credential(index: number): Credential {
    return this.parsed.tx.credentials[index]!;
  }

  /** The node's BaseTx semantic check: every input spends an existing UTXO it may spend; every output's asset exists. */
  private baseTx(tx: UnsignedTx): void {
    tx.inputs.forEach((input, i) => {
      const path = `${this.p}.inputs[${i}]`;
      const utxo = this.ctx.getUtxo(utxoId(input.txId, input.outputIndex));
      if (utxo === undefined) {
        reject("missing-utxo", "not found", `${path} spends UTXO ${utxoRef(input.txId, input.outputIndex)}, which does not exist (already spent, or never created)`);
      }
      this.transfer(input, this.credential(i), utxo, path);
    });
    tx.outputs.forEach((out, i) => this.fxUsage(0, out.assetId, `${this.p}.outputs[${i}]`));
  }

  private transfer(input: TransferableInput, credential: Credential, utxo: Utxo, path: string): void {
    if (!equalBytes(utxo.assetId, input.assetId)) {
      reject(
        "asset-mismatch",
        "asset IDs in the input don't match the utxo",
        `${path} names asset ${encodeCb58(input.assetId)}, the UTXO holds ${encodeCb58(utxo.assetId)}`,
      );
    }
    const fx = CREDENTIAL_FX[credential.typeId]!;
    this.fxUsage(fx, input.assetId, path);
    if (fx !== 0) reject("cant-transfer", "cant transfer with this fx", `${path} is signed with a ${FX_NAMES[fx]} credential, which cannot authorize transfers`);
    if (utxo.output.typeId !== TypeId.Secp256k1TransferOutput) {
      reject("wrong-utxo-type", "wrong utxo type", `${path} spends a ${typeIdName(utxo.output.typeId)}, a transfer input can only spend a Secp256k1TransferOutput`);
    }
    if (utxo.output.amount !== input.input.amount) {
      reject("amount-mismatch", "utxo amount and input amount are not equal", `${utxo.output.amount} != ${input.input.amount} (${path})`);
    }
    this.credentials(input.input, credential, utxo.output, path);
  }

  /** The node's verifyFxUsage: the asset exists and was created with feature extension `fx`. */
  private fxUsage(fx: number, assetId: Uint8Array, path: string): void {
    const asset = this.ctx.getAsset(assetId);
    if (asset === undefined) reject("unknown-asset", "not found", `${path} uses asset ${encodeCb58(assetId)}, which does not exist`);
    if (asset === "not-an-asset") reject("not-an-asset", "not an asset", `${path} uses ${encodeCb58(assetId)}, a transaction that created no asset`);
    if (!asset.fxIndices.has(fx)) {
      reject(
        "incompatible-fx",
        "incompatible feature extension",
        `${path} uses ${FX_NAMES[fx]} with asset ${encodeCb58(assetId)}, which was created for ${[...asset.fxIndices].map((i) => FX_NAMES[i]).join(", ")}`,
      );
    }
  }

  /** The secp256k1fx VerifyCredentials rules, shared by every feature extension. */
  private credentials(input: Input, credential: Credential, owners: OutputOwners, path: string): void {
    const numSigs = input.signatureIndices.length;
    if (owners.locktime > this.ctx.now) {
      reject("timelocked", "output is time locked", `${path} spends an output locked until ${owners.locktime} (Unix seconds); the chain's time is ${this.ctx.now}`);
    }
    if (owners.threshold < numSigs) {
      reject("too-many-signers", "input has more signers than expected", `${path} gives ${numSigs} signature indices, the output's threshold is ${owners.threshold}`);
    }
    if (owners.threshold > numSigs) {
      reject("too-few-signers", "input has less signers than expected", `${path} gives ${numSigs} signature indices, the output's threshold is ${owners.threshold}`);
    }
    if (numSigs !== credential.signatures.length) {
      reject(
        "signers-mismatch",
        "input expected a different number of signers than provided in the credential",
        `${path} has ${numSigs} signature indices, its credential ${credential.signatures.length} signatures`,
      );
    }
    input.signatureIndices.forEach((index, i) => {
      if (index >= owners.addresses.length) {
        reject(
          "signature-index-out-of-bounds",
          "input referenced a nonexistent address in the output",
          `${path} signature index ${index}, the output has ${owners.addresses.length} address(es)`,
        );
      }
      let signer: Uint8Array;
      try {
        signer = shortIdFromPublicKey(recoverPublicKey(this.hash, credential.signatures[i]!));
      } catch (error) {
        if (error instanceof SignatureError) {
          return reject("invalid-signature", error.nodeMessage ?? "invalid signature", `signature ${i} for ${path}: ${error.message}`);
        }
        throw error;
      }
      const expected = owners.addresses[index]!;
      if (!equalBytes(signer, expected)) {
        reject(
          "wrong-signature",
          "wrong signature",
          `expected signature from ${this.ctx.formatAddress(expected)} but got from ${this.ctx.formatAddress(signer)} (${path}, signature ${i})`,
        );
      }
    });
  }

  private operations(tx: OperationTx): void {
    const offset = tx.inputs.length;
    tx.operations.forEach((op, i) => this.operation(op, this.credential(offset + i), `${this.p}.operations[${i}]`));
  }

  private operation(op: Operation, credential: Credential, path: string): void {
    const utxos = op.utxoIds.map((ref, j) => {
      const utxo = this.ctx.getUtxo(utxoId(ref.txId, ref.outputIndex));
      if (utxo === undefined) {
        reject("missing-utxo", "not found", `${path}.utxoIds[${j}] spends UTXO ${utxoRef(ref.txId, ref.outputIndex)}, which does not exist (already spent, or never created)`);
      }
      if (!equalBytes(utxo.assetId, op.assetId)) {
        reject("asset-mismatch", "asset IDs in the input don't match the utxo", `${path} is on asset ${encodeCb58(op.assetId)}, UTXO ${j} holds ${encodeCb58(utxo.assetId)}`);
      }
      return utxo;
    });
    const fx = fxIndexOfTypeId(op.operation.typeId)!;
    this.fxUsage(fx, op.assetId, path);
    const credentialFx = CREDENTIAL_FX[credential.typeId]!;
    const wrongCredential = (): never =>
      reject("wrong-credential-type", "wrong credential type", `${path} is a ${FX_NAMES[fx]} operation, its credential is a ${typeIdName(credential.typeId)}`);
    const oneUtxo = (message: string): Utxo => {
      if (utxos.length !== 1) reject("wrong-number-of-utxos", message, `${path} spends ${utxos.length} UTXOs, an operation spends exactly 1`);
      return utxos[0]!;
    };
    const wrongType = (utxo: Utxo, expected: string): never =>
      reject("wrong-utxo-type", "wrong utxo type", `${path} spends a ${typeIdName(utxo.output.typeId)}, it needs a ${expected}`);
    const o = op.operation;
    switch (o.typeId) {
      case TypeId.Secp256k1MintOperation: {
        if (credentialFx !== 0) wrongCredential();
        const utxo = oneUtxo("wrong number of utxos for the operation");
        if (utxo.output.typeId !== TypeId.Secp256k1MintOutput) return wrongType(utxo, "Secp256k1MintOutput");
        if (!ownersEqual(utxo.output, o.mintOutput)) {
          reject("wrong-mint-output", "wrong mint output created from the operation", `${path}.mintOutput must recreate the spent mint output's owners unchanged`);
        }
        return this.credentials(o.mintInput, credential, utxo.output, `${path}.mintInput`);
      }
      case TypeId.NftMintOperation:
      case TypeId.NftTransferOperation: {
        const utxo = oneUtxo("wrong number of UTXOs for the operation");
        if (credentialFx !== 1) wrongCredential();
        if (o.typeId === TypeId.NftMintOperation) {
          if (utxo.output.typeId !== TypeId.NftMintOutput) return wrongType(utxo, "NftMintOutput");
          if (utxo.output.groupId !== o.groupId) {
            reject("wrong-group-id", "wrong unique ID provided", `${path} mints group ${o.groupId}, the mint output is for group ${utxo.output.groupId}`);
          }
          return this.credentials(o.mintInput, credential, utxo.output, `${path}.mintInput`);
        }
        if (utxo.output.typeId !== TypeId.NftTransferOutput) return wrongType(utxo, "NftTransferOutput");
        if (utxo.output.groupId !== o.output.groupId) {
          reject("wrong-group-id", "wrong unique ID provided", `${path} transfers group ${o.output.groupId}, the NFT is in group ${utxo.output.groupId}`);
        }
        if (!equalBytes(utxo.output.payload, o.output.payload)) {
          reject("wrong-payload", "wrong bytes provided", `${path} changes the NFT's payload (a transfer must keep it)`);
        }
        return this.credentials(o.input, credential, utxo.output, `${path}.input`);
      }
      case TypeId.PropertyMintOperation:
      case TypeId.PropertyBurnOperation: {
        const utxo = oneUtxo("wrong number of UTXOs for the operation");
        if (credentialFx !== 2) wrongCredential();
        if (o.typeId === TypeId.PropertyMintOperation) {
          if (utxo.output.typeId !== TypeId.PropertyMintOutput) return wrongType(utxo, "PropertyMintOutput");
          if (!ownersEqual(utxo.output, o.mintOutput)) {
            reject("wrong-mint-output", "wrong mint output provided", `${path}.mintOutput must recreate the spent mint output's owners unchanged`);
          }
          return this.credentials(o.mintInput, credential, utxo.output, `${path}.mintInput`);
        }
        if (utxo.output.typeId !== TypeId.PropertyOwnedOutput) return wrongType(utxo, "PropertyOwnedOutput");
        return this.credentials(o, credential, utxo.output, path);
      }
    }
  }

  /** The node's SameSubnet check for a peer chain of an import or export. */
  private samePrimaryNetwork(chainId: Uint8Array, field: string): void {
    if (equalBytes(chainId, this.ctx.chainId)) {
      reject("same-chain", "same chainID", `${this.p}.${field} is this chain (${encodeCb58(chainId)}); atomic transfers go to another chain`);
    }
    if (!this.ctx.isPeerChain(chainId)) {
      reject("unknown-chain", `failed to get subnet of "${encodeCb58(chainId)}"`, `${this.p}.${field} names no chain this node knows`);
    }
  }
}

/**
 * Check a syntactically valid transaction against the chain's state; throws the first
 * TxRejectedError in the reference node's order.
 */
export function verifySemantics(parsed: ParsedSignedTx, ctx: VerificationContext): void {
  new Verifier(parsed, ctx).run();
}
