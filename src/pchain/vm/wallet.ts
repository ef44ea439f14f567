import { encodeCb58, equalBytes } from "../../encoding";
import { compareShortIds, compareTransferableOutputs, compareUtxoIds, shortIdFromPrivateKey, type TransferableInput, type TransferableOutput, TypeId, type Utxo } from "../../utxo/codec";
import { type CredentialPlan, type MultisigAliasTx, PTypeId, type PUnsignedTx, type SignedPTx, signPTx } from "../codec";
import type { PlatformChain } from "./chain";
import { PWalletError } from "./errors";
import { matchKeys } from "./owners";

/*
 * Builds and signs platform-chain transactions with a keystore user's keys, as the reference
 * node's keystore-backed platform API did (exportAVAX, importAVAX) and Camino's wallet does for
 * aliases: UTXOs of the user's addresses, and of the aliases those addresses own, are spent
 * when the keys meet the owners' thresholds (the input's signature indices are the slots of
 * the owner walk, see owners.ts); inputs are sorted by UTXO, outputs by their bytes.
 *
 * The fee is the network's static txFee (0.001 AVAX), as these keystore methods always paid;
 * under the dynamic rule, when the transaction's dynamic fee is higher (a busy chain), that
 * fee instead: the transaction is built again until what it pays covers what it owes.
 */

export interface PBuiltTx extends SignedPTx {
  changeAddr: Uint8Array | undefined;
}

interface Spent {
  input: TransferableInput;
  plan: CredentialPlan;
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

/** Rebuilds at most this many times while the dynamic fee of the transaction built exceeds the fee it pays. */
const MAX_FEE_ROUNDS = 4;

function transferOutput(assetId: Uint8Array, amount: bigint, to: Uint8Array): TransferableOutput {
  return { assetId, output: { typeId: TypeId.Secp256k1TransferOutput, amount, locktime: 0n, threshold: 1, addresses: [to] } };
}

export class PlatformWallet {
  private readonly byAddress = new Map<string, Uint8Array>();
  readonly addresses: Uint8Array[] = [];

  constructor(
    private readonly chain: PlatformChain,
    keys: Iterable<Uint8Array>,
  ) {
    for (const key of keys) {
      const address = shortIdFromPrivateKey(key);
      if (this.byAddress.has(hex(address))) continue;
      this.byAddress.set(hex(address), key);
      this.addresses.push(address);
    }
  }

  private keyOf = (address: Uint8Array): Uint8Array | undefined => this.byAddress.get(hex(address));

  /** The user's addresses limited to `from` (all when empty); throws when none is the user's. */
  private spenders(from: Uint8Array[] | undefined): Uint8Array[] {
    const chosen = from === undefined || from.length === 0 ? this.addresses : from.filter((a) => this.keyOf(a) !== undefined);
    if (chosen.length === 0) throw new PWalletError("no-keys", "from addresses have no keys or funds");
    return chosen;
  }

  /** Inputs spending `utxos` the keys can spend now, until `amount` is covered (all of them when undefined). */
  private collect(utxos: Utxo[], amount: bigint | undefined): { spent: Spent[]; total: bigint } {
    const now = this.chain.now();
    const spent: Spent[] = [];
    let total = 0n;
    for (const utxo of utxos) {
      if (amount !== undefined && total >= amount) break;
      const out = utxo.output;
      if (out.typeId !== TypeId.Secp256k1TransferOutput || out.locktime > now || !equalBytes(utxo.assetId, this.chain.feeAssetId)) continue;
      const match = matchKeys(out, (a) => this.chain.getAlias(a), this.keyOf);
      if (match === undefined) continue;
      total += out.amount;
      spent.push({
        input: { txId: utxo.txId, outputIndex: utxo.outputIndex, assetId: utxo.assetId, input: { typeId: TypeId.Secp256k1TransferInput, amount: out.amount, signatureIndices: match.sigIdxs } },
        plan: { keys: match.keys },
      });
    }
    return { spent: spent.sort((a, b) => compareUtxoIds(a.input, b.input)), total };
  }

  /** UTXOs of these addresses and of the aliases they own. */
  private utxosOf(addresses: Uint8Array[]): Utxo[] {
    const aliases = addresses.flatMap((a) => this.chain.aliasesOwnedBy(a).map((alias) => alias.alias.id));
    return this.chain.getAllUtxos([...addresses, ...aliases]).map((s) => s.utxo);
  }

  /** Inputs worth at least `amount` plus change to `changeAddr`. */
  private pay(amount: bigint, from: Uint8Array[], changeAddr: Uint8Array): { spent: Spent[]; change: TransferableOutput[] } {
    const { spent, total } = this.collect(this.utxosOf(from), amount);
    if (total < amount) throw new PWalletError("insufficient-funds", `insufficient funds: want to spend ${amount} of asset ${encodeCb58(this.chain.feeAssetId)} but only have ${total}`);
    return { spent, change: total > amount ? [transferOutput(this.chain.feeAssetId, total - amount, changeAddr)] : [] };
  }

  private base(): Pick<PUnsignedTx, "networkId" | "blockchainId" | "memo"> {
    return { networkId: this.chain.network.networkId, blockchainId: this.chain.chainId, memo: new Uint8Array(0) };
  }

  /**
   * `build(fee)` with the static fee, then, while the built transaction owes more (the dynamic
   * rule on a busy chain), with what it owes.
   */
  private withFee(build: (fee: bigint) => PBuiltTx): PBuiltTx {
    let fee = this.chain.txFee;
    let built = build(fee);
    for (let round = 0; round < MAX_FEE_ROUNDS; round++) {
      const owed = this.chain.quoteFee(built.tx.unsignedTx).fee;
      if (owed <= fee) break;
      fee = owed;
      built = build(fee);
    }
    return built;
  }

  /** ExportTx of `amount` of the native asset to `to` on `destinationChain`. */
  export(args: { amount: bigint; destinationChain: Uint8Array; to: Uint8Array }, options: { from?: Uint8Array[]; changeAddr?: Uint8Array } = {}): PBuiltTx {
    return this.withFee((fee) => this.buildExport(args, options, fee));
  }

  private buildExport(args: { amount: bigint; destinationChain: Uint8Array; to: Uint8Array }, options: { from?: Uint8Array[]; changeAddr?: Uint8Array }, fee: bigint): PBuiltTx {
    const from = this.spenders(options.from);
    const changeAddr = options.changeAddr ?? from[0]!;
    const { spent, change } = this.pay(args.amount + fee, from, changeAddr);
    const tx: PUnsignedTx = {
      typeId: PTypeId.ExportTx,
      ...this.base(),
      outputs: change,
      inputs: spent.map((s) => s.input),
      destinationChain: args.destinationChain,
      exportedOutputs: [transferOutput(this.chain.feeAssetId, args.amount, args.to)],
    };
    return { ...signPTx(tx, spent.map((s) => s.plan)), changeAddr };
  }

  /** ImportTx of every atomic UTXO from `sourceChain` the keys can spend, less the fee, to `to`. */
  import(args: { sourceChain: Uint8Array; to: Uint8Array }, options: { from?: Uint8Array[]; changeAddr?: Uint8Array } = {}): PBuiltTx {
    return this.withFee((fee) => this.buildImport(args, options, fee));
  }

  private buildImport(args: { sourceChain: Uint8Array; to: Uint8Array }, options: { from?: Uint8Array[]; changeAddr?: Uint8Array }, fee: bigint): PBuiltTx {
    const from = this.spenders(options.from);
    const atomic = this.chain.getAtomicUtxos(args.sourceChain, this.addresses, { limit: 1024 }).utxos;
    const imported = this.collect(atomic, undefined);
    if (imported.spent.length === 0) throw new PWalletError("nothing-to-import", `no spendable funds were found to import from ${encodeCb58(args.sourceChain)}`);
    let local: Spent[] = [];
    let available = imported.total;
    if (available < fee) {
      const paid = this.collect(this.utxosOf(from), fee - available);
      if (available + paid.total < fee) throw new PWalletError("insufficient-funds", `insufficient funds: the import of ${available} does not cover the fee ${fee}`);
      local = paid.spent;
      available += paid.total;
    }
    const outputs = available > fee ? [transferOutput(this.chain.feeAssetId, available - fee, args.to)] : [];
    const tx: PUnsignedTx = { typeId: PTypeId.ImportTx, ...this.base(), outputs, inputs: local.map((s) => s.input), sourceChain: args.sourceChain, importedInputs: imported.spent.map((s) => s.input) };
    return { ...signPTx(tx, [...local, ...imported.spent].map((s) => s.plan)), changeAddr: options.changeAddr ?? from[0] };
  }

  /**
   * MultisigAliasTx creating an alias of `threshold` of `owners` (sorted, unique), or — with
   * `aliasId` — replacing that alias's owners and memo, authorised by the user's keys of the
   * current owners. The fee is paid from `from`.
   */
  multisigAlias(args: { owners: Uint8Array[]; threshold: number; memo: Uint8Array; aliasId?: Uint8Array }, options: { from?: Uint8Array[]; changeAddr?: Uint8Array } = {}): PBuiltTx {
    return this.withFee((fee) => this.buildMultisigAlias(args, options, fee));
  }

  private buildMultisigAlias(args: { owners: Uint8Array[]; threshold: number; memo: Uint8Array; aliasId?: Uint8Array }, options: { from?: Uint8Array[]; changeAddr?: Uint8Array }, fee: bigint): PBuiltTx {
    const addresses = [...args.owners].sort(compareShortIds);
    if (addresses.some((a, i) => i > 0 && equalBytes(a, addresses[i - 1]!))) throw new PWalletError("bad-alias", "the alias's addresses must be unique");
    const from = this.spenders(options.from);
    const changeAddr = options.changeAddr ?? from[0]!;
    const { spent, change } = this.pay(fee, from, changeAddr);
    const plans = spent.map((s) => s.plan);
    let auth: number[] = [];
    if (args.aliasId !== undefined) {
      const current = this.chain.requireAlias(args.aliasId);
      const match = matchKeys(current.alias.owners, (a) => this.chain.getAlias(a), this.keyOf);
      if (match === undefined) throw new PWalletError("bad-alias", `the user's keys do not meet the threshold of alias ${this.chain.formatAddress(args.aliasId)}`);
      auth = match.sigIdxs;
      plans.push({ keys: match.keys });
    }
    const tx: MultisigAliasTx = {
      typeId: PTypeId.MultisigAliasTx,
      ...this.base(),
      outputs: change.sort(compareTransferableOutputs),
      inputs: spent.map((s) => s.input),
      alias: { id: args.aliasId ?? new Uint8Array(20), memo: args.memo, owners: { locktime: 0n, threshold: args.threshold, addresses } },
      auth: { signatureIndices: auth },
    };
    return { ...signPTx(tx, plans), changeAddr };
  }
}
