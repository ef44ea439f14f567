import { expect } from "chai";
import { Address } from "@ethereumjs/util";
import { SharedMemory } from "../../src/atomic/shared-memory";
import { createNativeProvider } from "../../src/engine";
import { NativeStateManager } from "../../src/engine/state-manager";
import { TypeId, encodeUtxo, shortIdFromPrivateKey, utxoId, type TransferableInput, type Utxo } from "../../src/utxo/codec";
import {
  ATOMIC_TX_INTRINSIC_GAS,
  AtomicTxError,
  AtomicTypeId,
  EVM_INPUT_GAS,
  EVM_OUTPUT_GAS,
  P_CHAIN_ID,
  type AtomicTxErrorCode,
  type UnsignedExportTx,
  type UnsignedImportTx,
  applyAtomicStateTransfer,
  atomicTxGasUsed,
  buildExportTx,
  buildImportTx,
  burnedAmount,
  calculateDynamicFee,
  compareEvmOutputs,
  evmAddressOfPrivateKey,
  signAtomicTx,
  verifyAtomicTx,
  verifyAtomicTxSyntax,
} from "../../src/cchain";
import { AJ_EXPORT, CT_DYNAMIC_FEES, CT_GAS_COSTS } from "./vectors";
import { ANT, AVAX, GWEI, ctx, keys } from "./atomic-fixtures";


function id(n: number): Uint8Array {
  const bytes = new Uint8Array(32);
  bytes[0] = n;
  bytes[31] = 1;
  return bytes;
}

function input(txId: Uint8Array, assetId: Uint8Array, amount: bigint, signatureIndices = [0], outputIndex = 0): TransferableInput {
  return { txId, outputIndex, assetId, input: { typeId: TypeId.Secp256k1TransferInput, amount, signatureIndices } };
}

function importTx(overrides: Partial<UnsignedImportTx> = {}): UnsignedImportTx {
  return {
    typeId: AtomicTypeId.ImportTx,
    networkId: ctx.networkId,
    blockchainId: ctx.chainId,
    sourceChain: ctx.xChainId,
    importedInputs: [input(id(1), AVAX, 5_000_000n)],
    outs: [{ address: evmAddressOfPrivateKey(keys[0]!), amount: 5_000_000n, assetId: AVAX }],
    ...overrides,
  };
}

function exportTx(overrides: Partial<UnsignedExportTx> = {}): UnsignedExportTx {
  return {
    typeId: AtomicTypeId.ExportTx,
    networkId: ctx.networkId,
    blockchainId: ctx.chainId,
    destinationChain: ctx.xChainId,
    ins: [{ address: evmAddressOfPrivateKey(keys[0]!), amount: 5_000_000n, assetId: AVAX, nonce: 0n }],
    exportedOutputs: [
      { assetId: AVAX, output: { typeId: TypeId.Secp256k1TransferOutput, amount: 5_000_000n, locktime: 0n, threshold: 1, addresses: [shortIdFromPrivateKey(keys[0]!)] } },
    ],
    ...overrides,
  };
}

function expectAtomicError(fn: () => unknown, code: AtomicTxErrorCode, message: RegExp | string): void {
  try {
    fn();
  } catch (error) {
    expect(error, String(error)).to.be.instanceOf(AtomicTxError);
    expect((error as AtomicTxError).code).to.equal(code);
    if (typeof message === "string") expect((error as Error).message).to.contain(message);
    else expect((error as Error).message).to.match(message);
    return;
  }
  expect.fail(`expected an AtomicTxError (${code})`);
}

async function expectAtomicRejection(promise: Promise<unknown>, code: AtomicTxErrorCode, message: string): Promise<void> {
  try {
    await promise;
  } catch (error) {
    expect(error, String(error)).to.be.instanceOf(AtomicTxError);
    expect((error as AtomicTxError).code).to.equal(code);
    expect((error as Error).message).to.contain(message);
    return;
  }
  expect.fail(`expected an AtomicTxError (${code})`);
}

/** A UTXO in the contract chain's inbox from the exchange chain, as an exchange-chain export leaves it. */
function exported(memory: SharedMemory, txId: Uint8Array, assetId: Uint8Array, amount: bigint, owners: Uint8Array[], opts: { locktime?: bigint; threshold?: number } = {}): Utxo {
  const utxo: Utxo = {
    txId,
    outputIndex: 0,
    assetId,
    output: { typeId: TypeId.Secp256k1TransferOutput, amount, locktime: opts.locktime ?? 0n, threshold: opts.threshold ?? 1, addresses: owners },
  };
  memory.apply(ctx.xChainId, [[ctx.chainId, { put: [{ key: utxoId(txId, 0), value: encodeUtxo(utxo), traits: owners }] }]]);
  return utxo;
}

describe("contract-chain atomic rules: gas and fees", function () {
  it("dynamic fee = ceil(gas x base fee / 10^9) nAVAX (coreth vectors)", function () {
    for (const v of CT_DYNAMIC_FEES) expect(calculateDynamicFee(v.gas, v.baseFee)).to.equal(v.fee);
    expect(calculateDynamicFee(1n, 1n)).to.equal(1n); // rounded up
    expect(calculateDynamicFee(0n, 25n * GWEI)).to.equal(0n);
  });

  it("export gas: unsigned bytes + 1000 per EVM input (+ 10 000 intrinsic) (coreth vectors)", function () {
    const simple = exportTx();
    const v = CT_GAS_COSTS.simpleExport;
    expect(atomicTxGasUsed(simple, undefined, false)).to.equal(v.gas);
    expect(atomicTxGasUsed(simple)).to.equal(v.gasFixed);
    for (const { baseFee, fee } of v.fees) expect(calculateDynamicFee(v.gas, baseFee)).to.equal(fee);
    const complex = exportTx({
      ins: [0, 1, 2].map((i) => ({ address: evmAddressOfPrivateKey(keys[i]!), amount: 5_000_000n, assetId: AVAX, nonce: 0n })),
    });
    expect(atomicTxGasUsed(complex, undefined, false)).to.equal(CT_GAS_COSTS.complexExport.gas);
    for (const { baseFee, fee } of CT_GAS_COSTS.complexExport.fees) expect(calculateDynamicFee(CT_GAS_COSTS.complexExport.gas, baseFee)).to.equal(fee);
  });

  it("import gas: unsigned bytes + 1000 per signature index (+ 10 000 intrinsic) (coreth vectors)", function () {
    const to = evmAddressOfPrivateKey(keys[0]!);
    const at25 = (gas: bigint): bigint => calculateDynamicFee(gas, 25n * GWEI);
    const cases: [UnsignedImportTx, { gas: bigint; fee25: bigint }][] = [
      [importTx(), CT_GAS_COSTS.simpleImport],
      [importTx({ importedInputs: [input(id(1), AVAX, 5_000_000n), input(id(2), ANT, 5_000_000n)], outs: [{ address: to, amount: 5_000_000n, assetId: ANT }] }), CT_GAS_COSTS.antImport],
      [
        importTx({
          importedInputs: [input(id(1), AVAX, 5_000_000n), input(id(2), ANT, 5_000_000n)],
          outs: [
            { address: to, amount: 5_000_000n, assetId: AVAX },
            { address: to, amount: 5_000_000n, assetId: ANT },
          ],
        }),
        CT_GAS_COSTS.complexAntImport,
      ],
      [importTx({ importedInputs: [input(id(1), AVAX, 5_000_000n, [0, 1])] }), CT_GAS_COSTS.multisigImport],
      [importTx({ importedInputs: Array.from({ length: 10 }, (_, i) => input(id(i + 1), AVAX, 5_000_000n)), outs: [{ address: to, amount: 50_000_000n, assetId: AVAX }] }), CT_GAS_COSTS.largeImport],
    ];
    for (const [tx, v] of cases) {
      expect(atomicTxGasUsed(tx, undefined, false)).to.equal(v.gas);
      expect(at25(v.gas)).to.equal(v.fee25);
    }
    expect(atomicTxGasUsed(importTx())).to.equal(CT_GAS_COSTS.simpleImport.gasFixed);
    expect(ATOMIC_TX_INTRINSIC_GAS).to.equal(10_000n);
    expect(EVM_OUTPUT_GAS).to.equal(60n);
    expect(EVM_INPUT_GAS).to.equal(1068n);
  });

  it("burned amount: consumed minus produced of one asset", function () {
    const tx = importTx({ outs: [{ address: evmAddressOfPrivateKey(keys[0]!), amount: 4_000_000n, assetId: AVAX }] });
    expect(burnedAmount(tx, AVAX)).to.equal(1_000_000n);
    expect(burnedAmount(tx, ANT)).to.equal(0n);
  });
});

describe("contract-chain atomic rules: syntax (the node's Verify, in its order)", function () {
  it("accepts well-formed imports and exports", function () {
    verifyAtomicTxSyntax(importTx(), ctx);
    verifyAtomicTxSyntax(exportTx(), ctx);
    verifyAtomicTxSyntax(exportTx({ destinationChain: P_CHAIN_ID }), ctx);
  });

  it("import rules", function () {
    const to = evmAddressOfPrivateKey(keys[0]!);
    const cases: [Partial<UnsignedImportTx>, AtomicTxErrorCode, string][] = [
      [{ importedInputs: [] }, "no-import-inputs", "tx has no imported inputs"],
      [{ networkId: 1 }, "wrong-network-id", "tx was issued with a different network ID"],
      [{ blockchainId: ctx.xChainId }, "wrong-chain-id", "tx has wrong chain ID"],
      [{ outs: [] }, "no-evm-outputs", "tx has no EVM outputs"],
      [{ sourceChain: ctx.chainId }, "wrong-chain-id", "tx has wrong chain ID (source chain"],
      [{ sourceChain: id(9) }, "wrong-chain-id", "not another chain of this network"],
      [{ outs: [{ address: to, amount: 0n, assetId: AVAX }] }, "invalid-output", "EVM Output failed verification: output has no value"],
      [{ outs: [{ address: to, amount: 1n, assetId: new Uint8Array(32) }] }, "invalid-output", "empty asset ID is not valid"],
      [{ importedInputs: [input(id(1), AVAX, 0n)] }, "invalid-input", "atomic input failed verification: input has no value"],
      [{ importedInputs: [input(id(1), AVAX, 1n, [1, 0])] }, "invalid-input", "address indices not sorted and unique"],
      [{ importedInputs: [input(id(2), AVAX, 1n), input(id(1), AVAX, 1n)] }, "inputs-not-sorted-unique", "inputs not sorted and unique"],
      [{ importedInputs: [input(id(1), AVAX, 1n), input(id(1), AVAX, 1n)] }, "inputs-not-sorted-unique", "inputs not sorted and unique"],
      [
        {
          outs: [
            { address: to, amount: 1n, assetId: AVAX },
            { address: to, amount: 2n, assetId: AVAX },
          ],
        },
        "outputs-not-sorted-unique",
        "outputs not sorted and unique",
      ],
    ];
    for (const [overrides, code, message] of cases) expectAtomicError(() => verifyAtomicTxSyntax(importTx(overrides), ctx), code, message);
  });

  it("export rules", function () {
    const a = evmAddressOfPrivateKey(keys[0]!);
    const owner = shortIdFromPrivateKey(keys[0]!);
    const out = (amount: bigint, assetId = AVAX, addresses = [owner], threshold = 1) => ({
      assetId,
      output: { typeId: TypeId.Secp256k1TransferOutput, amount, locktime: 0n, threshold, addresses },
    });
    const cases: [Partial<UnsignedExportTx>, AtomicTxErrorCode, string][] = [
      [{ exportedOutputs: [] }, "no-export-outputs", "tx has no export outputs"],
      [{ networkId: 5 }, "wrong-network-id", "tx was issued with a different network ID"],
      [{ blockchainId: id(3) }, "wrong-chain-id", "tx has wrong chain ID"],
      [{ destinationChain: ctx.chainId }, "wrong-chain-id", "tx has wrong chain ID"],
      [{ ins: [{ address: a, amount: 0n, assetId: AVAX, nonce: 0n }] }, "invalid-input", "input has no value"],
      [{ exportedOutputs: [out(0n)] }, "invalid-output", "output has no value"],
      [{ exportedOutputs: [out(1n, AVAX, [owner], 2)] }, "invalid-output", "output is unspendable"],
      [{ exportedOutputs: [out(1n, AVAX, [owner], 0)] }, "invalid-output", "output representation should be optimized"],
      [{ destinationChain: P_CHAIN_ID, exportedOutputs: [out(1n, ANT)] }, "wrong-chain-id", "only the native coin can be exported to the platform chain"],
      [{ exportedOutputs: [out(2n), out(1n)] }, "outputs-not-sorted", "tx outputs not sorted"],
      [
        {
          ins: [
            { address: a, amount: 1n, assetId: AVAX, nonce: 0n },
            { address: a, amount: 2n, assetId: AVAX, nonce: 0n },
          ],
        },
        "inputs-not-sorted-unique",
        "inputs not sorted and unique",
      ],
    ];
    for (const [overrides, code, message] of cases) expectAtomicError(() => verifyAtomicTxSyntax(exportTx(overrides), ctx), code, message);
  });

  it("Banff rule (optional): only the native coin crosses chains", function () {
    const banff = { ...ctx, nativeOnly: true };
    const to = evmAddressOfPrivateKey(keys[0]!);
    expectAtomicError(
      () => verifyAtomicTxSyntax(importTx({ importedInputs: [input(id(1), ANT, 1n)], outs: [{ address: to, amount: 1n, assetId: ANT }] }), banff),
      "non-native-asset",
      "import output cannot contain non-AVAX in Banff",
    );
    expectAtomicError(() => verifyAtomicTxSyntax(exportTx({ ins: [{ address: to, amount: 1n, assetId: ANT, nonce: 0n }] }), banff), "non-native-asset", "export input cannot contain non-AVAX in Banff");
    verifyAtomicTxSyntax(importTx(), banff);
  });
});

describe("contract-chain atomic rules: semantics against shared memory", function () {
  const owner = shortIdFromPrivateKey(keys[0]!);
  const now = 1_700_000_000n;

  function setup(amount = 5_000_000_000n, opts: { locktime?: bigint; threshold?: number; owners?: Uint8Array[] } = {}) {
    const memory = new SharedMemory();
    const utxo = exported(memory, id(7), AVAX, amount, opts.owners ?? [owner], opts);
    return { memory, utxo };
  }

  function signedImport(utxo: Utxo, outAmount: bigint, signers: Uint8Array[][] = [[keys[0]!]], signatureIndices = [0]) {
    return signAtomicTx(
      importTx({
        importedInputs: [input(utxo.txId, utxo.assetId, (utxo.output as { amount: bigint }).amount, signatureIndices)],
        outs: [{ address: evmAddressOfPrivateKey(keys[0]!), amount: outAmount, assetId: AVAX }],
      }),
      signers,
    );
  }

  it("accepts an import signed by the owner that pays the fee; the fee follows the base fee", function () {
    const { memory, utxo } = setup();
    const parsed = signedImport(utxo, 5_000_000_000n - 1_000_000n);
    const gas = atomicTxGasUsed(parsed.tx.unsignedTx, parsed.unsignedBytes);
    verifyAtomicTx(parsed, { ctx, sharedMemory: memory, baseFee: 25n * GWEI, now });
    // at a base fee whose fee exceeds the 1 000 000 burned, the flow check fails
    const tooHigh = (1_000_000n * GWEI) / gas + GWEI;
    expectAtomicError(() => verifyAtomicTx(parsed, { ctx, sharedMemory: memory, baseFee: tooHigh, now }), "insufficient-funds", "import tx flow check failed due to: insufficient funds");
  });

  it("import: missing UTXO, wrong signer, time lock, threshold, amount and asset mismatches, credential count", function () {
    const env = (memory: SharedMemory) => ({ ctx, sharedMemory: memory, baseFee: 25n * GWEI, now });
    {
      const { utxo } = setup();
      expectAtomicError(() => verifyAtomicTx(signedImport(utxo, 1n), env(new SharedMemory())), "utxo-not-found", "failed to fetch import UTXOs from");
    }
    {
      const { memory, utxo } = setup();
      expectAtomicError(() => verifyAtomicTx(signedImport(utxo, 1n, [[keys[1]!]]), env(memory)), "transfer-failed", "import tx transfer failed verification: wrong signature");
      expectAtomicError(() => verifyAtomicTx(signedImport(utxo, 1n, []), env(memory)), "wrong-number-of-credentials", "incorrect number of credentials");
      expectAtomicError(() => verifyAtomicTx(signedImport(utxo, 1n, [[keys[0]!, keys[0]!]]), env(memory)), "transfer-failed", "input expected a different number of signers than provided in the credential");
    }
    {
      const { memory, utxo } = setup(5_000_000_000n, { locktime: now + 1n });
      expectAtomicError(() => verifyAtomicTx(signedImport(utxo, 1n), env(memory)), "transfer-failed", "output is time locked");
    }
    {
      const owners = [shortIdFromPrivateKey(keys[0]!), shortIdFromPrivateKey(keys[1]!)].sort(Buffer.compare);
      const { memory, utxo } = setup(5_000_000_000n, { threshold: 2, owners });
      expectAtomicError(() => verifyAtomicTx(signedImport(utxo, 1n), env(memory)), "transfer-failed", "input has less signers than expected");
      const signers = owners.map((o) => keys.find((k) => Buffer.compare(shortIdFromPrivateKey(k), o) === 0)!);
      verifyAtomicTx(signedImport(utxo, 1n, [signers], [0, 1]), env(memory));
    }
    {
      const { memory, utxo } = setup();
      const lying = signAtomicTx(importTx({ importedInputs: [input(utxo.txId, AVAX, 6_000_000_000n)], outs: [{ address: owner.slice(0, 20), amount: 1n, assetId: AVAX }] }), [[keys[0]!]]);
      expectAtomicError(() => verifyAtomicTx(lying, env(memory)), "transfer-failed", "utxo amount and input amount are not equal: 5000000000 != 6000000000");
      const otherAsset = signAtomicTx(
        importTx({ importedInputs: [input(utxo.txId, ANT, 5_000_000_000n), input(id(200), AVAX, 1_000_000n)], outs: [{ address: owner, amount: 1n, assetId: ANT }] }),
        [[keys[0]!], [keys[0]!]],
      );
      exported(memory, id(200), AVAX, 1_000_000n, [owner]);
      expectAtomicError(() => verifyAtomicTx(otherAsset, env(memory)), "asset-mismatch", "asset IDs in the input don't match the utxo");
    }
  });

  it("export: one signature per EVM input, from the key of the input's address", function () {
    const env = { ctx, sharedMemory: new SharedMemory(), baseFee: 25n * GWEI, now };
    const tx = exportTx({ ins: [{ address: evmAddressOfPrivateKey(keys[0]!), amount: 6_000_000n, assetId: AVAX, nonce: 0n }] });
    verifyAtomicTx(signAtomicTx(tx, [[keys[0]!]]), env);
    expectAtomicError(() => verifyAtomicTx(signAtomicTx(tx, [[keys[1]!]]), env), "signature-mismatch", "signature doesn't match public key");
    expectAtomicError(() => verifyAtomicTx(signAtomicTx(tx, [[keys[0]!, keys[0]!]]), env), "wrong-number-of-signatures", "want 1 signature for EVM Input Credential, but got 2");
    expectAtomicError(() => verifyAtomicTx(signAtomicTx(tx, []), env), "wrong-number-of-credentials", "export tx contained incorrect number of credentials want 1 got 0");
    expectAtomicError(() => verifyAtomicTx(signAtomicTx(exportTx(), [[keys[0]!]]), env), "insufficient-funds", "export tx flow check failed due to: insufficient funds");
  });
});

describe("contract-chain atomic rules: state transfer and builders", function () {
  it("import credits 10^9 wei per nAVAX and the multi-coin balance unscaled; export checks nonce and funds, then bumps the nonce", async function () {
    const state = new NativeStateManager();
    const to = evmAddressOfPrivateKey(keys[0]!);
    const address = new Address(to);
    const outs = [
      { address: to, amount: 3n, assetId: AVAX },
      { address: to, amount: 7n, assetId: ANT },
    ].sort(compareEvmOutputs);
    await applyAtomicStateTransfer(importTx({ outs }), state, AVAX);
    expect((await state.getAccount(address))!.balance).to.equal(3n * GWEI);
    expect(state.getAssetBalance(address, Buffer.from(ANT).toString("hex"))).to.equal(7n);

    const spend = (amount: bigint, nonce: bigint, assetId = AVAX) => exportTx({ ins: [{ address: to, amount, assetId, nonce }] });
    await expectAtomicRejection(applyAtomicStateTransfer(spend(1n, 1n), state, AVAX), "invalid-nonce", "invalid nonce");
    await expectAtomicRejection(applyAtomicStateTransfer(spend(4n, 0n), state, AVAX), "insufficient-funds", "insufficient funds");
    await expectAtomicRejection(applyAtomicStateTransfer(spend(8n, 0n, ANT), state, AVAX), "insufficient-funds", "insufficient funds");
  });

  it("export builder: 1 AVAX at 25 nAVAX/gas spends 1 000 280 750 with the account's nonce (avalanchejs vector)", async function () {
    const provider = await createNativeProvider({ accounts: [] });
    const engine = provider.engine;
    const key = keys[1]!;
    const from = new Address(evmAddressOfPrivateKey(key));
    await engine.setBalance(from, 2n * 10n ** 18n);
    await engine.setNonce(from, AJ_EXPORT.nonce);
    const parsed = await buildExportTx({
      ctx,
      state: engine.stateManager,
      assetId: AVAX,
      amount: AJ_EXPORT.amount,
      destinationChain: ctx.xChainId,
      to: shortIdFromPrivateKey(keys[2]!),
      baseFee: AJ_EXPORT.baseFeeGwei * GWEI,
      keys: [key],
    });
    const tx = parsed.tx.unsignedTx as UnsignedExportTx;
    expect(tx.ins).to.have.length(1);
    expect(tx.ins[0]!.amount).to.equal(AJ_EXPORT.inputAmount);
    expect(tx.ins[0]!.nonce).to.equal(AJ_EXPORT.nonce);
    expect(tx.exportedOutputs[0]!.output.amount).to.equal(AJ_EXPORT.amount);
    // the burned amount is exactly the fee of the final transaction
    expect(burnedAmount(tx, AVAX)).to.equal(calculateDynamicFee(atomicTxGasUsed(tx, parsed.unsignedBytes), AJ_EXPORT.baseFeeGwei * GWEI));
  });

  it("import builder: spends what the keys can spend, pays the fee from the native coin, skips locked UTXOs", function () {
    const owner = shortIdFromPrivateKey(keys[0]!);
    const memory = new SharedMemory();
    const utxos = [
      exported(memory, id(1), AVAX, 2_000_000n, [owner]),
      exported(memory, id(2), ANT, 9n, [owner]),
      exported(memory, id(3), AVAX, 1_000_000n, [owner], { locktime: 2_000_000_000n }),
      exported(memory, id(4), AVAX, 1_000_000n, [shortIdFromPrivateKey(keys[1]!)]),
    ];
    const to = evmAddressOfPrivateKey(keys[4]!);
    const parsed = buildImportTx({ ctx, sourceChain: ctx.xChainId, to, baseFee: 25n * GWEI, keys: [keys[0]!], utxos, now: 1_700_000_000n });
    const tx = parsed.tx.unsignedTx as UnsignedImportTx;
    expect(tx.importedInputs.map((i) => i.txId[0])).to.deep.equal([1, 2]);
    const gas = atomicTxGasUsed(tx, parsed.unsignedBytes);
    const native = tx.outs.find((o) => Buffer.compare(o.assetId, AVAX) === 0)!;
    expect(native.amount).to.equal(2_000_000n - calculateDynamicFee(gas, 25n * GWEI));
    expect(tx.outs.find((o) => Buffer.compare(o.assetId, ANT) === 0)!.amount).to.equal(9n);
    verifyAtomicTx(parsed, { ctx, sharedMemory: memory, baseFee: 25n * GWEI, now: 1_700_000_000n });
    expectAtomicError(
      () => buildImportTx({ ctx, sourceChain: ctx.xChainId, to, baseFee: 25n * GWEI, keys: [keys[3]!], utxos, now: 1_700_000_000n }),
      "insufficient-funds-for-fee",
      "insufficient AVAX funds to pay transaction fee",
    );
  });
});
