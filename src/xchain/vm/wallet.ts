import { encodeCb58, equalBytes, UINT64_MAX } from "../../encoding";
import {
  compareOperations,
  compareShortIds,
  compareTransferableOutputs,
  compareUtxoIds,
  compareOutputs,
  type InitialState,
  type Operation,
  type Output,
  type OutputOwners,
  shortIdFromPrivateKey,
  type SignedTx,
  signTx,
  type TransferableInput,
  type TransferableOutput,
  TypeId,
  type UnsignedTx,
  type Utxo,
} from "../../utxo/codec";
import { dedupe } from "../../utxo/utxo-set";
import type { ExchangeChain } from "./chain";
import { WalletError } from "./errors";

/*
 * Builds and signs exchange-chain transactions for a keystore user's keys, the way the
 * reference node's keystore-backed API builds them (avalanchego vms/avm/service.go before the
 * keystore API was removed, vms/avm/utxo/spender.go, vms/secp256k1fx/keychain.go):
 *
 * - keys: the user's keys for this chain; with `from`, only the keys of those addresses (in
 *   the order given; addresses the user has no key for are ignored). No key at all: "from
 *   addresses have no keys or funds".
 * - change goes to `changeAddr`, by default to the address of the first of those keys.
 * - UTXOs are taken in the node's listing order (addresses by bytes, each address's UTXOs
 *   newest first); a UTXO is used while its asset still needs funds and the keys can sign
 *   for it now (locktime passed, threshold of its addresses held).
 * - the fee (txFee, or createAssetTxFee for asset creation) is paid in the fee asset.
 * - inputs sorted by UTXO (tx ID, index), outputs by their bytes, operations by their bytes,
 *   signature keys kept in step with the sorting.
 */

/** A set of private keys, looked up by the address (short ID) they control. */
export class Keychain {
  readonly keys: Uint8Array[] = [];
  readonly addresses: Uint8Array[] = [];
  private readonly byAddress = new Map<string, Uint8Array>();

  constructor(keys: Iterable<Uint8Array> = []) {
    for (const key of keys) this.add(key);
  }

  add(key: Uint8Array): void {
    const address = shortIdFromPrivateKey(key);
    const id = Buffer.from(address).toString("hex");
    if (this.byAddress.has(id)) return;
    this.byAddress.set(id, key);
    this.keys.push(key);
    this.addresses.push(address);
  }

  get(address: Uint8Array): Uint8Array | undefined {
    return this.byAddress.get(Buffer.from(address).toString("hex"));
  }

  get size(): number {
    return this.keys.length;
  }

  /**
   * Signature indices and keys that spend an output with these owners at time `now`: the
   * first `threshold` addresses (in output order) this keychain holds. Undefined when the
   * output is still locked or the keychain holds fewer than `threshold` of its addresses.
   */
  match(owners: OutputOwners, now: bigint): { indices: number[]; keys: Uint8Array[] } | undefined {
    if (now < owners.locktime) return undefined;
    const indices: number[] = [];
    const keys: Uint8Array[] = [];
    for (let i = 0; i < owners.addresses.length && keys.length < owners.threshold; i++) {
      const key = this.get(owners.addresses[i]!);
      if (key !== undefined) {
        indices.push(i);
        keys.push(key);
      }
    }
    return keys.length === owners.threshold ? { indices, keys } : undefined;
  }
}

/** Options shared by the methods that spend the user's funds. */
export interface SpendOptions {
  /** Only spend from these addresses (short IDs); default all of the user's. */
  from?: Uint8Array[];
  /** Where change goes; default the address of the first key used. */
  changeAddr?: Uint8Array;
}

/** A built, signed transaction ready for issueTx. */
export interface BuiltTx {
  tx: SignedTx;
  bytes: Uint8Array;
  txId: Uint8Array;
  /** The change address used (undefined for imports, which have none). */
  changeAddr: Uint8Array | undefined;
}

interface SpentInput {
  input: TransferableInput;
  keys: Uint8Array[];
}

interface Spend {
  spent: Map<string, bigint>;
  inputs: SpentInput[];
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

function transferOutput(assetId: Uint8Array, amount: bigint, to: Uint8Array): TransferableOutput {
  return { assetId, output: { typeId: TypeId.Secp256k1TransferOutput, amount, locktime: 0n, threshold: 1, addresses: [to] } };
}

function addChecked(a: bigint, b: bigint): bigint {
  const sum = a + b;
  if (sum > UINT64_MAX) throw new WalletError("spend-overflow", "problem calculating required spend amount: overflow");
  return sum;
}

export class ExchangeWallet {
  /** All of the user's keys on this chain. */
  readonly keychain: Keychain;

  constructor(
    private readonly chain: ExchangeChain,
    userKeys: Iterable<Uint8Array>,
  ) {
    this.keychain = new Keychain(userKeys);
  }

  /** The user's addresses, in key order. */
  get addresses(): Uint8Array[] {
    return [...this.keychain.addresses];
  }

  /** Keys selected by `from` (all of the user's when `from` is empty); throws when none. */
  private keysFor(from: Uint8Array[] | undefined): Keychain {
    const kc = from === undefined || from.length === 0 ? this.keychain : new Keychain(from.map((a) => this.keychain.get(a)).filter((k): k is Uint8Array => k !== undefined));
    if (kc.size === 0) throw new WalletError("no-keys", "from addresses have no keys or funds");
    return kc;
  }

  private utxosOf(kc: Keychain): Utxo[] {
    return this.chain.getAllUtxos(kc.addresses).map((s) => s.utxo);
  }

  /** The node's Spend: enough transfer UTXOs of each asset to cover `amounts`. */
  private spend(utxos: Utxo[], kc: Keychain, amounts: Map<string, bigint>): Spend {
    const now = this.chain.now();
    const spent = new Map<string, bigint>();
    const inputs: SpentInput[] = [];
    for (const utxo of utxos) {
      const asset = hex(utxo.assetId);
      const needed = amounts.get(asset) ?? 0n;
      const already = spent.get(asset) ?? 0n;
      if (already >= needed) continue;
      if (utxo.output.typeId !== TypeId.Secp256k1TransferOutput) continue;
      const match = kc.match(utxo.output, now);
      if (match === undefined) continue;
      spent.set(asset, addChecked(already, utxo.output.amount));
      inputs.push(transferInput(utxo, utxo.output.amount, match));
    }
    for (const [asset, amount] of amounts) {
      const have = spent.get(asset) ?? 0n;
      if (have < amount) {
        throw new WalletError(
          "insufficient-funds",
          `want to spend ${amount} of asset ${encodeCb58(Buffer.from(asset, "hex"))} but only have ${have}`,
        );
      }
    }
    inputs.sort((a, b) => compareUtxoIds(a.input, b.input));
    return { spent, inputs };
  }

  /** The node's SpendAll: every transfer UTXO the keys can spend now. */
  private spendAll(utxos: Utxo[], kc: Keychain): Spend {
    const now = this.chain.now();
    const spent = new Map<string, bigint>();
    const inputs: SpentInput[] = [];
    for (const utxo of utxos) {
      if (utxo.output.typeId !== TypeId.Secp256k1TransferOutput) continue;
      const match = kc.match(utxo.output, now);
      if (match === undefined) continue;
      const asset = hex(utxo.assetId);
      spent.set(asset, addChecked(spent.get(asset) ?? 0n, utxo.output.amount));
      inputs.push(transferInput(utxo, utxo.output.amount, match));
    }
    inputs.sort((a, b) => compareUtxoIds(a.input, b.input));
    return { spent, inputs };
  }

  private changeOutputs(spent: Map<string, bigint>, needed: Map<string, bigint>, changeAddr: Uint8Array): TransferableOutput[] {
    const outs: TransferableOutput[] = [];
    for (const [asset, amount] of needed) {
      const have = spent.get(asset) ?? 0n;
      if (have > amount) outs.push(transferOutput(Buffer.from(asset, "hex"), have - amount, changeAddr));
    }
    return outs;
  }

  private base(): Pick<UnsignedTx, "networkId" | "blockchainId"> {
    return { networkId: this.chain.network.networkId, blockchainId: this.chain.chainId };
  }

  private sign(unsignedTx: UnsignedTx, keys: Uint8Array[][], changeAddr: Uint8Array | undefined): BuiltTx {
    const { tx, bytes, txId } = signTx(unsignedTx, keys);
    return { tx, bytes, txId, changeAddr };
  }

  /** The fee of `fee` paid from `kc`'s UTXOs, with change. */
  private payFee(kc: Keychain, fee: bigint, changeAddr: Uint8Array): { inputs: SpentInput[]; outputs: TransferableOutput[] } {
    const needed = new Map([[hex(this.chain.feeAssetId), fee]]);
    const { spent, inputs } = this.spend(this.utxosOf(kc), kc, needed);
    return { inputs, outputs: this.changeOutputs(spent, needed, changeAddr) };
  }

  /** BaseTx sending `outputs` (one transfer output each, threshold 1, no locktime) plus the fee. */
  sendMultiple(outputs: { assetId: Uint8Array; amount: bigint; to: Uint8Array }[], options: SpendOptions & { memo?: Uint8Array } = {}): BuiltTx {
    const kc = this.keysFor(options.from);
    const changeAddr = options.changeAddr ?? kc.addresses[0]!;
    const needed = new Map<string, bigint>();
    const outs: TransferableOutput[] = [];
    for (const out of outputs) {
      const asset = hex(out.assetId);
      needed.set(asset, addChecked(needed.get(asset) ?? 0n, out.amount));
      outs.push(transferOutput(out.assetId, out.amount, out.to));
    }
    const fee = hex(this.chain.feeAssetId);
    needed.set(fee, addChecked(needed.get(fee) ?? 0n, this.chain.fees.txFee));
    const { spent, inputs } = this.spend(this.utxosOf(kc), kc, needed);
    outs.push(...this.changeOutputs(spent, needed, changeAddr));
    outs.sort(compareTransferableOutputs);
    const tx: UnsignedTx = { typeId: TypeId.BaseTx, ...this.base(), outputs: outs, inputs: inputs.map((i) => i.input), memo: options.memo ?? new Uint8Array(0) };
    return this.sign(tx, inputs.map((i) => i.keys), changeAddr);
  }

  /**
   * CreateAssetTx of a secp256k1fx asset: initial holders get transfer outputs (threshold 1),
   * each minter set a mint output (its threshold, addresses sorted and deduplicated).
   */
  createAsset(
    asset: {
      name: string;
      symbol: string;
      denomination: number;
      initialHolders: { address: Uint8Array; amount: bigint }[];
      minterSets: { minters: Uint8Array[]; threshold: number }[];
    },
    options: SpendOptions = {},
  ): BuiltTx {
    const kc = this.keysFor(options.from);
    const changeAddr = options.changeAddr ?? kc.addresses[0]!;
    const { inputs, outputs } = this.payFee(kc, this.chain.fees.createAssetTxFee, changeAddr);
    const states: Output[] = [
      ...asset.initialHolders.map((h): Output => ({ typeId: TypeId.Secp256k1TransferOutput, amount: h.amount, locktime: 0n, threshold: 1, addresses: [h.address] })),
      ...asset.minterSets.map((set): Output => ({ typeId: TypeId.Secp256k1MintOutput, locktime: 0n, threshold: set.threshold, addresses: uniqueSorted(set.minters) })),
    ];
    states.sort(compareOutputs);
    return this.createAssetTx(asset.name, asset.symbol, asset.denomination, { fxIndex: 0, outputs: states }, inputs, outputs, changeAddr);
  }

  /** CreateAssetTx of an nftfx asset: one NFT mint output per minter set, group IDs 0, 1, ... */
  createNftAsset(asset: { name: string; symbol: string; minterSets: { minters: Uint8Array[]; threshold: number }[] }, options: SpendOptions = {}): BuiltTx {
    const kc = this.keysFor(options.from);
    const changeAddr = options.changeAddr ?? kc.addresses[0]!;
    const { inputs, outputs } = this.payFee(kc, this.chain.fees.createAssetTxFee, changeAddr);
    const states: Output[] = asset.minterSets.map((set, groupId): Output => ({
      typeId: TypeId.NftMintOutput,
      groupId,
      locktime: 0n,
      threshold: set.threshold,
      addresses: uniqueSorted(set.minters),
    }));
    states.sort(compareOutputs);
    return this.createAssetTx(asset.name, asset.symbol, 0, { fxIndex: 1, outputs: states }, inputs, outputs, changeAddr);
  }

  private createAssetTx(
    name: string,
    symbol: string,
    denomination: number,
    state: InitialState,
    inputs: SpentInput[],
    outputs: TransferableOutput[],
    changeAddr: Uint8Array,
  ): BuiltTx {
    outputs.sort(compareTransferableOutputs);
    const tx: UnsignedTx = {
      typeId: TypeId.CreateAssetTx,
      ...this.base(),
      outputs,
      inputs: inputs.map((i) => i.input),
      memo: new Uint8Array(0),
      name,
      symbol,
      denomination,
      initialStates: [state],
    };
    return this.sign(tx, inputs.map((i) => i.keys), changeAddr);
  }

  /**
   * OperationTx minting `amount` of a variable-cap asset to `to`: the fee comes from `from`,
   * the authority from any of the user's keys holding the threshold of a minter set; the
   * mint output is recreated unchanged.
   */
  mint(args: { assetId: Uint8Array; amount: bigint; to: Uint8Array }, options: SpendOptions = {}): BuiltTx {
    return this.mintWith(args.assetId, TypeId.Secp256k1MintOutput, options, (utxo, signatureIndices) => {
      const { locktime, threshold, addresses } = utxo.output as Extract<Utxo["output"], { typeId: typeof TypeId.Secp256k1MintOutput }>;
      return {
        typeId: TypeId.Secp256k1MintOperation,
        mintInput: { signatureIndices },
        mintOutput: { locktime, threshold, addresses },
        transferOutput: { amount: args.amount, locktime: 0n, threshold: 1, addresses: [args.to] },
      };
    });
  }

  /**
   * OperationTx minting one NFT with `payload` to `to` from the first NFT mint output of the
   * asset the user's keys can spend (the reference nftfx consumes that mint output).
   */
  mintNft(args: { assetId: Uint8Array; payload: Uint8Array; to: Uint8Array }, options: SpendOptions = {}): BuiltTx {
    return this.mintWith(args.assetId, TypeId.NftMintOutput, options, (utxo, signatureIndices) => ({
      typeId: TypeId.NftMintOperation,
      mintInput: { signatureIndices },
      groupId: (utxo.output as Extract<Utxo["output"], { typeId: typeof TypeId.NftMintOutput }>).groupId,
      payload: args.payload,
      outputs: [{ locktime: 0n, threshold: 1, addresses: [args.to] }],
    }));
  }

  /**
   * An OperationTx on the first mint output of `assetId` (of `mintOutputType`) that the user's
   * keys can spend; the fee is paid from `from`. `operationFor` builds the fx operation.
   */
  private mintWith(
    assetId: Uint8Array,
    mintOutputType: number,
    options: SpendOptions,
    operationFor: (utxo: Utxo, signatureIndices: number[]) => Operation["operation"],
  ): BuiltTx {
    const kc = this.keysFor(options.from);
    const changeAddr = options.changeAddr ?? kc.addresses[0]!;
    const { inputs, outputs } = this.payFee(kc, this.chain.fees.txFee, changeAddr);
    const now = this.chain.now();
    for (const utxo of this.utxosOf(this.keychain)) {
      if (!equalBytes(utxo.assetId, assetId) || utxo.output.typeId !== mintOutputType) continue;
      const match = this.keychain.match(utxo.output, now);
      if (match === undefined) continue;
      const operation: Operation = {
        assetId,
        utxoIds: [{ txId: utxo.txId, outputIndex: utxo.outputIndex }],
        operation: operationFor(utxo, match.indices),
      };
      return this.operationTx(inputs, outputs, [{ operation, keys: match.keys }], changeAddr);
    }
    throw new WalletError("cannot-mint", "provided addresses don't have the authority to mint the provided asset");
  }

  private operationTx(inputs: SpentInput[], outputs: TransferableOutput[], ops: { operation: Operation; keys: Uint8Array[] }[], changeAddr: Uint8Array): BuiltTx {
    outputs.sort(compareTransferableOutputs);
    ops.sort((a, b) => compareOperations(a.operation, b.operation));
    const tx: UnsignedTx = {
      typeId: TypeId.OperationTx,
      ...this.base(),
      outputs,
      inputs: inputs.map((i) => i.input),
      memo: new Uint8Array(0),
      operations: ops.map((o) => o.operation),
    };
    return this.sign(tx, [...inputs.map((i) => i.keys), ...ops.map((o) => o.keys)], changeAddr);
  }

  /**
   * ExportTx sending `amount` of `assetId` to `to` on `destinationChain` (one exported output,
   * threshold 1), the fee paid in the fee asset, change to changeAddr.
   */
  export(args: { assetId: Uint8Array; amount: bigint; destinationChain: Uint8Array; to: Uint8Array }, options: SpendOptions = {}): BuiltTx {
    const kc = this.keysFor(options.from);
    const changeAddr = options.changeAddr ?? kc.addresses[0]!;
    const fee = hex(this.chain.feeAssetId);
    const asset = hex(args.assetId);
    const needed = new Map<string, bigint>();
    if (asset === fee) {
      needed.set(fee, addChecked(args.amount, this.chain.fees.txFee));
    } else {
      needed.set(fee, this.chain.fees.txFee);
      needed.set(asset, args.amount);
    }
    const { spent, inputs } = this.spend(this.utxosOf(kc), kc, needed);
    const outputs = this.changeOutputs(spent, needed, changeAddr).sort(compareTransferableOutputs);
    const tx: UnsignedTx = {
      typeId: TypeId.ExportTx,
      ...this.base(),
      outputs,
      inputs: inputs.map((i) => i.input),
      memo: new Uint8Array(0),
      destinationChain: args.destinationChain,
      exportedOutputs: [transferOutput(args.assetId, args.amount, args.to)],
    };
    return this.sign(tx, inputs.map((i) => i.keys), changeAddr);
  }

  /**
   * ImportTx taking every atomic UTXO from `sourceChain` the user's keys can spend (at most
   * 1024), all of it (less the fee) to `to`. When the imported funds do not cover the fee, the
   * rest comes from the user's UTXOs on this chain.
   */
  import(args: { sourceChain: Uint8Array; to: Uint8Array }): BuiltTx {
    const kc = this.keychain;
    const atomic = this.chain.getAtomicUtxos(args.sourceChain, kc.addresses, { limit: 1024 }).utxos;
    const imported = this.spendAll(atomic, kc);
    const amounts = new Map(imported.spent);
    const fee = hex(this.chain.feeAssetId);
    const txFee = this.chain.fees.txFee;
    let local: SpentInput[] = [];
    const importedFee = amounts.get(fee) ?? 0n;
    if (importedFee < txFee) {
      const localSpend = this.spend(this.utxosOf(kc), kc, new Map([[fee, txFee - importedFee]]));
      local = localSpend.inputs;
      for (const [asset, amount] of localSpend.spent) amounts.set(asset, addChecked(amounts.get(asset) ?? 0n, amount));
    }
    amounts.set(fee, (amounts.get(fee) ?? 0n) - txFee);
    const outputs: TransferableOutput[] = [];
    for (const [asset, amount] of amounts) if (amount > 0n) outputs.push(transferOutput(Buffer.from(asset, "hex"), amount, args.to));
    outputs.sort(compareTransferableOutputs);
    const tx: UnsignedTx = {
      typeId: TypeId.ImportTx,
      ...this.base(),
      outputs,
      inputs: local.map((i) => i.input),
      memo: new Uint8Array(0),
      sourceChain: args.sourceChain,
      importedInputs: imported.inputs.map((i) => i.input),
    };
    return this.sign(tx, [...local.map((i) => i.keys), ...imported.inputs.map((i) => i.keys)], undefined);
  }
}

function uniqueSorted(addresses: Uint8Array[]): Uint8Array[] {
  return dedupe(addresses).sort(compareShortIds);
}

/** A transfer UTXO spent whole, as the input that spends it and the keys that sign for it. */
function transferInput(utxo: Utxo, amount: bigint, match: { indices: number[]; keys: Uint8Array[] }): SpentInput {
  return {
    input: {
      txId: utxo.txId,
      outputIndex: utxo.outputIndex,
      assetId: utxo.assetId,
      input: { typeId: TypeId.Secp256k1TransferInput, amount, signatureIndices: match.indices },
    },
    keys: match.keys,
  };
}
