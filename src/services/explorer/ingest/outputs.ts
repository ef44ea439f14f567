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

/** IDs written again and again (an asset's; a transaction's, once per output): cb58 by hex. */
const repeatedIds = new Map<string, string>();
const REPEATED_IDS_CACHE_SIZE = 4096;

/**
 * The cb58 text of an ID that recurs (a transaction's or an asset's), remembered: each output and
 * input wrote its transaction's and asset's IDs again, and cb58 (a base-58 conversion and a
 * SHA-256 checksum) was a third of a decoding thread's time, hex a fraction of it.
 */
export function repeatedIdOf(bytes: Uint8Array): string {
  const key = hexOf(bytes);
  const known = repeatedIds.get(key);
  if (known !== undefined) return known;
  const text = encodeCb58(bytes);
  remember(repeatedIds, key, text, REPEATED_IDS_CACHE_SIZE);
  return text;
}

/** An output of `txId` at `outputIndex`, held by `chainId`'s UTXO set. */
export function outputRow(
  context: ExplorerContext,
  where: { txId: Uint8Array; outputIndex: number; chainId: string; createdOnChainId: string },
  assetId: Uint8Array,
  output: Output,
  stake = false,
): OutputRow {
  const amount = "amount" in output ? output.amount : 0n;
  const id = encodeCb58(utxoId(where.txId, where.outputIndex));
  const addresses = output.addresses.map((a) => formatBech32Address(a, context.hrp));
  remember(ownersByOutput, id, addresses, OWNERS_CACHE_SIZE);
  return {
    id,
    transactionId: repeatedIdOf(where.txId),
    outputIndex: where.outputIndex,
    chainId: where.chainId,
    createdOnChainId: where.createdOnChainId,
    assetId: repeatedIdOf(assetId),
    outputType: output.typeId,
    amount,
    locktime: output.locktime,
    threshold: output.threshold,
    groupId: "groupId" in output ? output.groupId : 0,
    payload: "payload" in output ? hexOf(output.payload) : null,
    stake,
    addresses,
  };
}

/** The inputs (transferable inputs, in order from `first`) as rows of the outputs they spend. */
export function inputRows(inputs: readonly TransferableInput[], first = 0): InputRow[] {
  return inputs.map((input, i) => ({
    position: first + i,
    outputId: encodeCb58(utxoId(input.txId, input.outputIndex)),
    transactionId: repeatedIdOf(input.txId),
    outputIndex: input.outputIndex,
    assetId: repeatedIdOf(input.assetId),
    amount: input.input.amount,
  }));
}

/** A UTXO spent by reference only (operations): its amount is not in the transaction. */
export function referencedInput(position: number, txId: Uint8Array, outputIndex: number, assetId: Uint8Array): InputRow {
  return { position, outputId: encodeCb58(utxoId(txId, outputIndex)), transactionId: repeatedIdOf(txId), outputIndex, assetId: repeatedIdOf(assetId), amount: 0n };
}

/** An input as its credential's signers are known: the output it spends and which of its owners sign. */
export interface SpendSigners {
  outputId: string;
  signatureIndices: readonly number[];
}

/**
 * Credentials as rows: the signer of each signature, recovered from `hash` (sha256 of the
 * unsigned bytes), or known without recovering it. `spends[i]`, when given, is the input whose
 * credential is the i-th: the node accepted the transaction only if its j-th signature is by the
 * owner at `signatureIndices[j]` of the output spent (secp256k1fx), so when that output's owners
 * and that owner's public key were seen before (signerHints), the signer is that owner and the
 * recovery (about 0.2 ms of CPU, most of a container's decoding) is skipped. A signature that
 * does not recover (the node would have refused it) is skipped.
 */
export function credentialRows(context: ExplorerContext, hash: Uint8Array, credentials: readonly { signatures: Uint8Array[] }[], spends: readonly SpendSigners[] = []): CredentialRow[] {
  const rows: CredentialRow[] = [];
  credentials.forEach((credential, inputPosition) => {
    const spend = spends[inputPosition];
    const owners = spend === undefined || spend.signatureIndices.length !== credential.signatures.length ? undefined : ownersByOutput.get(spend.outputId);
    credential.signatures.forEach((signature, position) => {
      const owner = owners?.[spend!.signatureIndices[position]!];
      const known = owner === undefined ? undefined : keysByAddress.get(owner);
      if (owner !== undefined && known !== undefined) {
        rows.push({ inputPosition, position, address: owner, publicKey: known, signature: hexOf(signature) });
        return;
      }
      let publicKey: Uint8Array;
      try {
        publicKey = recoverPublicKey(hash, signature);
      } catch {
        return;
      }
      const publicKeyHex = hexOf(publicKey);
      const address = signerAddress(context.hrp, publicKey, publicKeyHex);
      remember(keysByAddress, address, publicKeyHex, SIGNER_CACHE_SIZE);
      rows.push({ inputPosition, position, address, publicKey: publicKeyHex, signature: hexOf(signature) });
    });
  });
  return rows;
}

/** Signers' addresses by public key: a chain's signers are few and sign again and again. */
const signerAddresses = new Map<string, string>();
const SIGNER_CACHE_SIZE = 100_000;
/** Owners of the outputs decoded lately, and signers' public keys by address (signerHints). */
const ownersByOutput = new Map<string, readonly string[]>();
const keysByAddress = new Map<string, string>();
const OWNERS_CACHE_SIZE = 100_000;

function remember<T>(cache: Map<string, T>, key: string, value: T, size: number): void {
  if (cache.size >= size) cache.clear();
  cache.set(key, value);
}

/** What decoding one page teaches the decoding of the next: its outputs' owners and its signers' keys. */
export interface SignerHints {
  owners: [outputId: string, addresses: string[]][];
  keys: [address: string, publicKey: string][];
}

/** The hints of decoded transactions (sent to the decoding threads that did not decode them). */
export function signerHintsOf(txs: readonly { outputs: readonly OutputRow[]; credentials: readonly CredentialRow[] }[]): SignerHints {
  return {
    owners: txs.flatMap((t) => t.outputs.map((o) => [o.id, o.addresses] as [string, string[]])),
    keys: txs.flatMap((t) => t.credentials.map((c) => [c.address, c.publicKey] as [string, string])),
  };
}

/** Learns hints from elsewhere (another thread's page). */
export function learnSignerHints(hints: SignerHints): void {
  for (const [id, addresses] of hints.owners) remember(ownersByOutput, id, addresses, OWNERS_CACHE_SIZE);
  for (const [address, key] of hints.keys) remember(keysByAddress, address, key, SIGNER_CACHE_SIZE);
}

/** Forgets every owner and signer seen (a test decoding as a fresh process would). */
export function forgetSignerHints(): void {
  ownersByOutput.clear();
  keysByAddress.clear();
}

/** The bech32 address of a recovered (so valid, compressed) public key, remembered. */
function signerAddress(hrp: string, publicKey: Uint8Array, publicKeyHex: string): string {
  const key = `${hrp}:${publicKeyHex}`;
  let address = signerAddresses.get(key);
  if (address === undefined) {
    address = formatBech32Address(shortIdFromPublicKey(publicKey), hrp);
    remember(signerAddresses, key, address, SIGNER_CACHE_SIZE);
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

/** Transferable inputs, with their rows in the same order, as the signers of their credentials are known (credentialRows). */
export function spendSigners(rows: readonly InputRow[], inputs: readonly TransferableInput[]): SpendSigners[] {
  return inputs.map((input, i) => ({ outputId: rows[i]!.outputId, signatureIndices: input.input.signatureIndices }));
}
