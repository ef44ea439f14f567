/**
 * The secp256k1fx parts every chain shares (the platform chain and the contract chain's atomic
 * transactions use the exchange chain's outputs, inputs and credentials byte for byte), turned
 * into rows: outputs with their UTXO IDs and owners, inputs with the output they spend, and
 * credentials with the signer each signature recovers to.
 */
import { encodeCb58, formatBech32Address } from "../../../encoding";
import { type Output, recoverPublicKey, shortIdFromPublicKey, type TransferableInput, utxoId } from "../../../utxo/codec";
import type { ExplorerContext } from "../context";
import type { CredentialRow, InputRow, OutputRow } from "./rows";

export const hexOf = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");

/** An output of `txId` at `outputIndex`, held by `chainId`'s UTXO set. */
export function outputRow(
  context: ExplorerContext,
  where: { txId: Uint8Array; outputIndex: number; chainId: string; createdOnChainId: string },
  assetId: Uint8Array,
  output: Output,
  stake = false,
): OutputRow {
  const amount = "amount" in output ? output.amount : 0n;
  return {
    id: encodeCb58(utxoId(where.txId, where.outputIndex)),
    transactionId: encodeCb58(where.txId),
    outputIndex: where.outputIndex,
    chainId: where.chainId,
    createdOnChainId: where.createdOnChainId,
    assetId: encodeCb58(assetId),
    outputType: output.typeId,
    amount,
    locktime: output.locktime,
    threshold: output.threshold,
    groupId: "groupId" in output ? output.groupId : 0,
    payload: "payload" in output ? hexOf(output.payload) : null,
    stake,
    addresses: output.addresses.map((a) => formatBech32Address(a, context.hrp)),
  };
}

/** The inputs (transferable inputs, in order from `first`) as rows of the outputs they spend. */
export function inputRows(inputs: readonly TransferableInput[], first = 0): InputRow[] {
  return inputs.map((input, i) => ({
    position: first + i,
    outputId: encodeCb58(utxoId(input.txId, input.outputIndex)),
    transactionId: encodeCb58(input.txId),
    outputIndex: input.outputIndex,
    assetId: encodeCb58(input.assetId),
    amount: input.input.amount,
  }));
}

/** A UTXO spent by reference only (operations): its amount is not in the transaction. */
export function referencedInput(position: number, txId: Uint8Array, outputIndex: number, assetId: Uint8Array): InputRow {
  return { position, outputId: encodeCb58(utxoId(txId, outputIndex)), transactionId: encodeCb58(txId), outputIndex, assetId: encodeCb58(assetId), amount: 0n };
}

/**
 * Credentials as rows: the signer of each signature recovered from `hash` (sha256 of the
 * unsigned bytes). A signature that does not recover (the node would have refused it) is skipped.
 */
export function credentialRows(context: ExplorerContext, hash: Uint8Array, credentials: readonly { signatures: Uint8Array[] }[]): CredentialRow[] {
  const rows: CredentialRow[] = [];
  credentials.forEach((credential, inputPosition) => {
    credential.signatures.forEach((signature, position) => {
      let publicKey: Uint8Array;
      try {
        publicKey = recoverPublicKey(hash, signature);
      } catch {
        return;
      }
      const publicKeyHex = hexOf(publicKey);
      rows.push({ inputPosition, position, address: signerAddress(context.hrp, publicKey, publicKeyHex), publicKey: publicKeyHex, signature: hexOf(signature) });
    });
  });
  return rows;
}

/** Signers' addresses by public key: a chain's signers are few and sign again and again. */
const signerAddresses = new Map<string, string>();
const SIGNER_CACHE_SIZE = 100_000;

/** The bech32 address of a recovered (so valid, compressed) public key, remembered. */
function signerAddress(hrp: string, publicKey: Uint8Array, publicKeyHex: string): string {
  const key = `${hrp}:${publicKeyHex}`;
  let address = signerAddresses.get(key);
  if (address === undefined) {
    if (signerAddresses.size >= SIGNER_CACHE_SIZE) signerAddresses.clear();
    address = formatBech32Address(shortIdFromPublicKey(publicKey), hrp);
    signerAddresses.set(key, address);
  }
  return address;
}

/** Native-asset fee: what the inputs bring minus what the outputs (exported ones included) take. */
export function nativeFee(context: ExplorerContext, inputs: readonly { assetId: string; amount: bigint }[], outputs: readonly { assetId: string; amount: bigint }[]): bigint {
  const sum = (rows: readonly { assetId: string; amount: bigint }[]) => rows.filter((r) => r.assetId === context.nativeAssetId).reduce((a, r) => a + r.amount, 0n);
  const fee = sum(inputs) - sum(outputs);
  return fee > 0n ? fee : 0n;
}

/** Milliseconds of an RFC 3339 time with any number of fraction digits. */
export function millisOf(timestamp: string): number {
  const trimmed = timestamp.replace(/(\.\d{3})\d+/, "$1");
  const ms = Date.parse(trimmed);
  if (Number.isNaN(ms)) throw new Error(`not an RFC 3339 time: ${timestamp}`);
  return ms;
}
