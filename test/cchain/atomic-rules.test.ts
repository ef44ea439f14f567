/**
 * The reference node's semantic rules of the contract chain's atomic transactions, one rule per
 * test, refusals asserted with the node's wording: the flow check (uint64 sums, the fee in the
 * native coin), the secp256k1fx spend rules of an imported UTXO (type, owners, amount, locktime,
 * threshold, signature indices, signatures), the export's one signature per EVM input, and the
 * state transfer's balance check at the boundary.
 */
import { expect } from "chai";
import { Address } from "@ethereumjs/util";
import { SharedMemory } from "../../src/atomic/shared-memory";
import { NativeStateManager } from "../../src/engine/state-manager";
import { UINT64_MAX, encodeCb58 } from "../../src/encoding";
import { TypeId, encodeUtxo, shortIdFromPrivateKey, utxoId, type Output, type TransferableInput, type Utxo } from "../../src/utxo/codec";
import {
  AtomicTxError,
  AtomicTypeId,
  type AtomicTxErrorCode,
  type ParsedAtomicTx,
  type SemanticEnvironment,
  type UnsignedExportTx,
  type UnsignedImportTx,
  applyAtomicStateTransfer,
  atomicRequestsOf,
  atomicTxGasUsed,
  calculateDynamicFee,
  evmAddressOfPrivateKey,
  signAtomicTx,
  verifyAtomicTx,
} from "../../src/cchain";
import { ANT, AVAX, GWEI, ctx, keys } from "./atomic-fixtures";

const BASE_FEE = 25n * GWEI;
const NOW = 1_700_000_000n;
const OWNER = shortIdFromPrivateKey(keys[0]!);
const TO = evmAddressOfPrivateKey(keys[0]!);
/** Keys 0 and 1 as owners of one UTXO, sorted by short ID as outputs require. */
const TWO_OWNERS = [keys[0]!, keys[1]!].map((k) => ({ key: k, owner: shortIdFromPrivateKey(k) })).sort((a, b) => Buffer.compare(a.owner, b.owner));

function id(n: number): Uint8Array {
  const bytes = new Uint8Array(32);
  bytes[0] = n;
  bytes[31] = 1;
  return bytes;
}

function input(txId: Uint8Array, assetId: Uint8Array, amount: bigint, signatureIndices = [0]): TransferableInput {
  return { txId, outputIndex: 0, assetId, input: { typeId: TypeId.Secp256k1TransferInput, amount, signatureIndices } };
}

function importTx(importedInputs: TransferableInput[], outs: UnsignedImportTx["outs"]): UnsignedImportTx {
  return { typeId: AtomicTypeId.ImportTx, networkId: ctx.networkId, blockchainId: ctx.chainId, sourceChain: ctx.xChainId, importedInputs, outs };
}

function exportTx(ins: UnsignedExportTx["ins"], amount = 5_000_000n): UnsignedExportTx {
  return {
    typeId: AtomicTypeId.ExportTx,
    networkId: ctx.networkId,
    blockchainId: ctx.chainId,
    destinationChain: ctx.xChainId,
    ins,
    exportedOutputs: [{ assetId: AVAX, output: { typeId: TypeId.Secp256k1TransferOutput, amount, locktime: 0n, threshold: 1, addresses: [OWNER] } }],
  };
}

function env(sharedMemory: SharedMemory, baseFee = BASE_FEE): SemanticEnvironment {
  return { ctx, sharedMemory, baseFee, now: NOW };
}

function feeOf(parsed: ParsedAtomicTx, baseFee = BASE_FEE): bigint {
  return calculateDynamicFee(atomicTxGasUsed(parsed.tx.unsignedTx, parsed.unsignedBytes), baseFee);
}

/** The refusal `fn` throws: its code and its whole message. */
function refusal(fn: () => unknown): { code: AtomicTxErrorCode; message: string } {
  try {
    fn();
  } catch (error) {
    expect(error, String(error)).to.be.instanceOf(AtomicTxError);
    return { code: (error as AtomicTxError).code, message: (error as Error).message };
  }
  return expect.fail("expected an AtomicTxError");
}

async function rejection(promise: Promise<unknown>): Promise<{ code: AtomicTxErrorCode; message: string }> {
  try {
    await promise;
  } catch (error) {
    expect(error, String(error)).to.be.instanceOf(AtomicTxError);
    return { code: (error as AtomicTxError).code, message: (error as Error).message };
  }
  return expect.fail("expected an AtomicTxError");
}

/** Puts a UTXO with `output` (txId `txId`, output 0) into the contract chain's inbox from the exchange chain. */
function exported(memory: SharedMemory, txId: Uint8Array, assetId: Uint8Array, output: Output, owners: Uint8Array[] = [OWNER]): Utxo {
  const utxo: Utxo = { txId, outputIndex: 0, assetId, output };
  memory.apply(ctx.xChainId, [[ctx.chainId, { put: [{ key: utxoId(txId, 0), value: encodeUtxo(utxo), traits: owners }] }]]);
  return utxo;
}

function transferOutput(amount: bigint, opts: { locktime?: bigint; threshold?: number; addresses?: Uint8Array[] } = {}): Output {
  return { typeId: TypeId.Secp256k1TransferOutput, amount, locktime: opts.locktime ?? 0n, threshold: opts.threshold ?? 1, addresses: opts.addresses ?? [OWNER] };
}

/** An import of 5 000 000 000 nAVAX from UTXO id(7) to TO, keeping 4 000 000 000 (the rest pays the fee). */
function importOfSeven(signers: Uint8Array[] = [keys[0]!], signatureIndices = [0]): ParsedAtomicTx {
  return signAtomicTx(importTx([input(id(7), AVAX, 5_000_000_000n, signatureIndices)], [{ address: TO, amount: 4_000_000_000n, assetId: AVAX }]), [signers]);
}

function withSignature(parsed: ParsedAtomicTx, signature: Uint8Array): ParsedAtomicTx {
  return { ...parsed, tx: { ...parsed.tx, credentials: [{ typeId: TypeId.Secp256k1Credential, signatures: [signature] }] } };
}

const TRANSFER_FAILED = "import tx transfer failed verification: ";

describe("contract-chain atomic rules: the flow check", function () {
  it("an import whose inputs sum above uint64 is refused as an overflow", function () {
    const tx = importTx([input(id(1), AVAX, UINT64_MAX), input(id(2), AVAX, 1n)], [{ address: TO, amount: 1n, assetId: AVAX }]);
    expect(refusal(() => verifyAtomicTx(signAtomicTx(tx, [[keys[0]!], [keys[0]!]]), env(new SharedMemory())))).to.deep.equal({
      code: "insufficient-funds",
      message: "import tx flow check failed due to: overflow",
    });
  });

  it("the fee counts in the produced sum: outputs of uint64 max plus a fee overflow", function () {
    const tx = importTx([input(id(1), AVAX, UINT64_MAX)], [{ address: TO, amount: UINT64_MAX, assetId: AVAX }]);
    expect(refusal(() => verifyAtomicTx(signAtomicTx(tx, [[keys[0]!]]), env(new SharedMemory())))).to.deep.equal({
      code: "insufficient-funds",
      message: "import tx flow check failed due to: overflow",
    });
  });

  it("sums of exactly uint64 max do not overflow (the check goes on to shared memory)", function () {
    const tx = importTx([input(id(1), AVAX, UINT64_MAX - 1n), input(id(2), AVAX, 1n)], [{ address: TO, amount: UINT64_MAX, assetId: AVAX }]);
    const { code } = refusal(() => verifyAtomicTx(signAtomicTx(tx, [[keys[0]!], [keys[0]!]]), env(new SharedMemory(), 0n)));
    expect(code).to.equal("utxo-not-found");
  });

  it("a native-coin shortfall names the asset, what it needs including the fee, and what the inputs provide", function () {
    const parsed = signAtomicTx(importTx([input(id(1), AVAX, 1_000_000n)], [{ address: TO, amount: 1_000_000n, assetId: AVAX }]), [[keys[0]!]]);
    const fee = feeOf(parsed);
    expect(refusal(() => verifyAtomicTx(parsed, env(new SharedMemory())))).to.deep.equal({
      code: "insufficient-funds",
      message: `import tx flow check failed due to: insufficient funds: asset ${encodeCb58(AVAX)} needs ${1_000_000n + fee} (including the fee of ${fee}) but the inputs provide 1000000`,
    });
  });

  it("a shortfall of another asset names it without the fee", function () {
    const tx = importTx(
      [input(id(1), AVAX, 5_000_000n), input(id(2), ANT, 5n)],
      [
        { address: TO, amount: 6n, assetId: ANT },
        { address: TO, amount: 1n, assetId: AVAX },
      ].sort((a, b) => Buffer.compare(a.assetId, b.assetId)),
    );
    expect(refusal(() => verifyAtomicTx(signAtomicTx(tx, [[keys[0]!], [keys[0]!]]), env(new SharedMemory())))).to.deep.equal({
      code: "insufficient-funds",
      message: `import tx flow check failed due to: insufficient funds: asset ${encodeCb58(ANT)} needs 6 but the inputs provide 5`,
    });
  });

  it("an asset produced but not consumed at all: the inputs provide 0", function () {
    const tx = importTx([input(id(1), AVAX, 5_000_000n)], [{ address: TO, amount: 3n, assetId: ANT }]);
    expect(refusal(() => verifyAtomicTx(signAtomicTx(tx, [[keys[0]!]]), env(new SharedMemory())))).to.deep.equal({
      code: "insufficient-funds",
      message: `import tx flow check failed due to: insufficient funds: asset ${encodeCb58(ANT)} needs 3 but the inputs provide 0`,
    });
  });
});

describe("contract-chain atomic rules: fetching the imported UTXOs", function () {
  it("an imported UTXO whose bytes do not decode is refused as a bad UTXO", function () {
    const memory = new SharedMemory();
    memory.apply(ctx.xChainId, [[ctx.chainId, { put: [{ key: utxoId(id(7), 0), value: Uint8Array.of(0, 1), traits: [OWNER] }] }]]);
    const { code, message } = refusal(() => verifyAtomicTx(importOfSeven(), env(memory)));
    expect(code).to.equal("bad-utxo");
    expect(message).to.match(/^failed to unmarshal UTXO: .+/);
    expect(message).to.contain("unsupported codec version 1 (expected 0)");
  });

  it("a failure of shared memory other than a missing UTXO is not blamed on the transaction", function () {
    const broken = new Error("disk on fire");
    const memory = {
      get: () => {
        throw broken;
      },
    } as unknown as SharedMemory;
    expect(() => verifyAtomicTx(importOfSeven(), env(memory))).to.throw(broken);
  });

  it("the input's asset must be the UTXO's asset, naming the input", function () {
    const memory = new SharedMemory();
    exported(memory, id(7), ANT, transferOutput(5_000_000_000n));
    expect(refusal(() => verifyAtomicTx(importOfSeven(), env(memory)))).to.deep.equal({
      code: "asset-mismatch",
      message: "asset IDs in the input don't match the utxo (importedInputs[0])",
    });
  });
});

describe("contract-chain atomic rules: spending an imported UTXO (secp256k1fx)", function () {
  it("only a secp256k1 transfer output can be imported", function () {
    const memory = new SharedMemory();
    exported(memory, id(7), AVAX, { typeId: TypeId.Secp256k1MintOutput, locktime: 0n, threshold: 1, addresses: [OWNER] });
    expect(refusal(() => verifyAtomicTx(importOfSeven(), env(memory)))).to.deep.equal({
      code: "transfer-failed",
      message: `${TRANSFER_FAILED}wrong utxo type (importedInputs[0])`,
    });
  });

  it("the UTXO's output must itself be valid (an unspendable threshold is refused)", function () {
    const memory = new SharedMemory();
    exported(memory, id(7), AVAX, transferOutput(5_000_000_000n, { threshold: 2 }));
    expect(refusal(() => verifyAtomicTx(importOfSeven(), env(memory)))).to.deep.equal({
      code: "transfer-failed",
      message: `${TRANSFER_FAILED}output is unspendable (importedInputs[0])`,
    });
  });

  it("a UTXO locked until now can be imported now", function () {
    const memory = new SharedMemory();
    exported(memory, id(7), AVAX, transferOutput(5_000_000_000n, { locktime: NOW }));
    verifyAtomicTx(importOfSeven(), env(memory));
  });

  it("a UTXO locked until after now is refused, with both times", function () {
    const memory = new SharedMemory();
    exported(memory, id(7), AVAX, transferOutput(5_000_000_000n, { locktime: NOW + 1n }));
    expect(refusal(() => verifyAtomicTx(importOfSeven(), env(memory)))).to.deep.equal({
      code: "transfer-failed",
      message: `${TRANSFER_FAILED}output is time locked (until ${NOW + 1n}, now ${NOW}) (importedInputs[0])`,
    });
  });

  it("more signature indices than the threshold are refused", function () {
    const memory = new SharedMemory();
    exported(memory, id(7), AVAX, transferOutput(5_000_000_000n, { addresses: TWO_OWNERS.map((o) => o.owner) }));
    expect(refusal(() => verifyAtomicTx(importOfSeven(TWO_OWNERS.map((o) => o.key), [0, 1]), env(memory)))).to.deep.equal({
      code: "transfer-failed",
      message: `${TRANSFER_FAILED}input has more signers than expected (2 > threshold 1) (importedInputs[0])`,
    });
  });

  it("fewer signature indices than the threshold are refused", function () {
    const memory = new SharedMemory();
    exported(memory, id(7), AVAX, transferOutput(5_000_000_000n, { threshold: 2, addresses: TWO_OWNERS.map((o) => o.owner) }));
    expect(refusal(() => verifyAtomicTx(importOfSeven(), env(memory)))).to.deep.equal({
      code: "transfer-failed",
      message: `${TRANSFER_FAILED}input has less signers than expected (1 < threshold 2) (importedInputs[0])`,
    });
  });

  it("the credential must carry one signature per signature index", function () {
    const memory = new SharedMemory();
    exported(memory, id(7), AVAX, transferOutput(5_000_000_000n));
    expect(refusal(() => verifyAtomicTx(importOfSeven([keys[0]!, keys[0]!]), env(memory)))).to.deep.equal({
      code: "transfer-failed",
      message: `${TRANSFER_FAILED}input expected a different number of signers than provided in the credential (1 != 2) (importedInputs[0])`,
    });
  });

  it("a signature index equal to the number of owners references no address", function () {
    const memory = new SharedMemory();
    exported(memory, id(7), AVAX, transferOutput(5_000_000_000n));
    expect(refusal(() => verifyAtomicTx(importOfSeven([keys[0]!], [1]), env(memory)))).to.deep.equal({
      code: "transfer-failed",
      message: `${TRANSFER_FAILED}input referenced a nonexistent address in the output (importedInputs[0])`,
    });
  });

  it("the highest valid signature index is the last owner", function () {
    const memory = new SharedMemory();
    exported(memory, id(7), AVAX, transferOutput(5_000_000_000n, { addresses: TWO_OWNERS.map((o) => o.owner) }));
    verifyAtomicTx(importOfSeven([TWO_OWNERS[1]!.key], [1]), env(memory));
  });

  it("a signature from another key names the expected and the actual signer", function () {
    const memory = new SharedMemory();
    exported(memory, id(7), AVAX, transferOutput(5_000_000_000n));
    expect(refusal(() => verifyAtomicTx(importOfSeven([keys[1]!]), env(memory)))).to.deep.equal({
      code: "transfer-failed",
      message: `${TRANSFER_FAILED}wrong signature: expected signature from ${encodeCb58(OWNER)} but got from ${encodeCb58(shortIdFromPrivateKey(keys[1]!))} (importedInputs[0])`,
    });
  });

  it("a signature with a recovery byte of a compressed key is refused with the node's message", function () {
    const memory = new SharedMemory();
    exported(memory, id(7), AVAX, transferOutput(5_000_000_000n));
    const parsed = importOfSeven();
    const signature = parsed.tx.credentials[0]!.signatures[0]!.slice();
    signature[64] = 4;
    expect(refusal(() => verifyAtomicTx(withSignature(parsed, signature), env(memory)))).to.deep.equal({
      code: "transfer-failed",
      message: `${TRANSFER_FAILED}wasn't expecting a compressed key (importedInputs[0])`,
    });
  });

  it("a signature problem the node has no message for is refused with its own description", function () {
    const memory = new SharedMemory();
    exported(memory, id(7), AVAX, transferOutput(5_000_000_000n));
    const parsed = importOfSeven();
    expect(refusal(() => verifyAtomicTx(withSignature(parsed, new Uint8Array(64)), env(memory)))).to.deep.equal({
      code: "transfer-failed",
      message: `${TRANSFER_FAILED}signature: expected 65 bytes, got 64 (importedInputs[0])`,
    });
  });
});

describe("contract-chain atomic rules: export signatures", function () {
  const tx = exportTx([{ address: TO, amount: 6_000_000n, assetId: AVAX, nonce: 0n }]);

  it("a signature from another key than the input's address is refused, naming both addresses", function () {
    const other = evmAddressOfPrivateKey(keys[1]!);
    expect(refusal(() => verifyAtomicTx(signAtomicTx(tx, [[keys[1]!]]), env(new SharedMemory())))).to.deep.equal({
      code: "signature-mismatch",
      message: `signature doesn't match public key (ins[0] spends from 0x${Buffer.from(TO).toString("hex")}, the signature is from 0x${Buffer.from(other).toString("hex")})`,
    });
  });

  it("a signature with a recovery byte of a compressed key is refused with the node's message", function () {
    const parsed = signAtomicTx(tx, [[keys[0]!]]);
    const signature = parsed.tx.credentials[0]!.signatures[0]!.slice();
    signature[64] = 4;
    expect(refusal(() => verifyAtomicTx(withSignature(parsed, signature), env(new SharedMemory())))).to.deep.equal({
      code: "signature-mismatch",
      message: "wasn't expecting a compressed key (credentials[0])",
    });
  });

  it("a signature problem the node has no message for is refused with its own description", function () {
    const parsed = signAtomicTx(tx, [[keys[0]!]]);
    expect(refusal(() => verifyAtomicTx(withSignature(parsed, new Uint8Array(64)), env(new SharedMemory())))).to.deep.equal({
      code: "signature-mismatch",
      message: "signature: expected 65 bytes, got 64 (credentials[0])",
    });
  });
});

describe("contract-chain atomic rules: state transfer", function () {
  it("an export may spend the whole native balance (balance equal to the amount)", async function () {
    const state = new NativeStateManager();
    const address = new Address(TO);
    await applyAtomicStateTransfer(importTx([input(id(1), AVAX, 7n)], [{ address: TO, amount: 7n, assetId: AVAX }]), state, AVAX);
    await applyAtomicStateTransfer(exportTx([{ address: TO, amount: 7n, assetId: AVAX, nonce: 0n }]), state, AVAX);
    const account = (await state.getAccount(address))!;
    expect(account.balance).to.equal(0n);
    expect(account.nonce).to.equal(1n);
  });

  it("an export of one nAVAX more than the native balance is refused", async function () {
    const state = new NativeStateManager();
    await applyAtomicStateTransfer(importTx([input(id(1), AVAX, 7n)], [{ address: TO, amount: 7n, assetId: AVAX }]), state, AVAX);
    expect(await rejection(applyAtomicStateTransfer(exportTx([{ address: TO, amount: 8n, assetId: AVAX, nonce: 0n }]), state, AVAX))).to.deep.equal({
      code: "insufficient-funds",
      message: `insufficient funds (ins[0]: 0x${Buffer.from(TO).toString("hex")} has ${7n * GWEI} wei, the input spends ${8n * GWEI})`,
    });
  });

  it("an export may spend the whole balance of another asset (balance equal to the amount)", async function () {
    const state = new NativeStateManager();
    const address = new Address(TO);
    const antHex = Buffer.from(ANT).toString("hex");
    await applyAtomicStateTransfer(importTx([input(id(1), ANT, 9n)], [{ address: TO, amount: 9n, assetId: ANT }]), state, AVAX);
    await applyAtomicStateTransfer(exportTx([{ address: TO, amount: 9n, assetId: ANT, nonce: 0n }]), state, AVAX);
    expect(state.getAssetBalance(address, antHex)).to.equal(0n);
    expect((await state.getAccount(address))!.nonce).to.equal(1n);
  });

  it("an export of one unit more than the balance of another asset is refused", async function () {
    const state = new NativeStateManager();
    await applyAtomicStateTransfer(importTx([input(id(1), ANT, 9n)], [{ address: TO, amount: 9n, assetId: ANT }]), state, AVAX);
    expect(await rejection(applyAtomicStateTransfer(exportTx([{ address: TO, amount: 10n, assetId: ANT, nonce: 0n }]), state, AVAX))).to.deep.equal({
      code: "insufficient-funds",
      message: `insufficient funds (ins[0]: 0x${Buffer.from(TO).toString("hex")} has 9 of asset ${encodeCb58(ANT)}, the input spends 10)`,
    });
  });

  it("an export's UTXOs are indexed by copies of the output's owners, not the transaction's own bytes", function () {
    const tx = exportTx([{ address: TO, amount: 6_000_000n, assetId: AVAX, nonce: 0n }]);
    const { peerChain, requests } = atomicRequestsOf(tx, id(9));
    expect(peerChain).to.deep.equal(ctx.xChainId);
    const owner = tx.exportedOutputs[0]!.output.addresses[0]!;
    const trait = requests.put![0]!.traits[0]!;
    expect(trait).to.deep.equal(OWNER);
    owner.fill(0);
    expect(trait).to.deep.equal(shortIdFromPrivateKey(keys[0]!));
  });
});
