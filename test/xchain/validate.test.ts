import { expect } from "chai";
import fc from "fast-check";
import {
  type BaseTx,
  compareOperations,
  compareOutputs,
  compareShortIds,
  compareTransferableOutputs,
  compareUtxoIds,
  type CreateAssetTx,
  type ExportTx,
  type FeeConfig,
  type ImportTx,
  type Operation,
  type OperationTx,
  type SignedTx,
  type TransferableInput,
  type TransferableOutput,
  type TxValidationCode,
  TxValidationError,
  TypeId,
  type UnsignedTx,
  validateSignedTx,
  validateUnsignedTx,
  type ValidationOptions,
} from "../../src/utxo/codec";
import { arbOperation, arbOutput, arbShortId, arbTransferableInput, arbTransferableOutput, expectThrow, id32 } from "./helpers";

const ASSET = id32(0xaa);
const OTHER_ASSET = id32(0xbb);
const CHAIN = id32(0x0c);
const FEE: FeeConfig = { assetId: ASSET, txFee: 1_000_000n, createAssetTxFee: 10_000_000n };

const addr = (n: number): Uint8Array => {
  const a = new Uint8Array(20);
  a[0] = n;
  return a;
};

const out = (amount: bigint, assetId = ASSET, addresses = [addr(1)], threshold = 1): TransferableOutput => ({
  assetId,
  output: { typeId: TypeId.Secp256k1TransferOutput, amount, locktime: 0n, threshold, addresses },
});

const inp = (txByte: number, outputIndex: number, amount: bigint, assetId = ASSET, signatureIndices = [0]): TransferableInput => ({
  txId: id32(txByte),
  outputIndex,
  assetId,
  input: { typeId: TypeId.Secp256k1TransferInput, amount, signatureIndices },
});

/** Spends 100_000_000 of ASSET, pays 98_000_000 out, 2_000_000 burned (>= the 1_000_000 fee). */
function baseTx(): BaseTx {
  return {
    typeId: TypeId.BaseTx,
    networkId: 12345,
    blockchainId: CHAIN,
    outputs: [out(48_000_000n, ASSET, [addr(1)]), out(50_000_000n, ASSET, [addr(2)])],
    inputs: [inp(1, 0, 100_000_000n)],
    memo: new Uint8Array(0),
  };
}

function createAssetTx(): CreateAssetTx {
  return {
    ...baseTx(),
    typeId: TypeId.CreateAssetTx,
    outputs: [out(90_000_000n)],
    name: "Test Coin 2",
    symbol: "TST",
    denomination: 9,
    initialStates: [
      {
        fxIndex: 0,
        outputs: [
          { typeId: TypeId.Secp256k1TransferOutput, amount: 1000n, locktime: 0n, threshold: 1, addresses: [addr(1)] },
          { typeId: TypeId.Secp256k1TransferOutput, amount: 2000n, locktime: 0n, threshold: 1, addresses: [addr(1)] },
        ],
      },
      { fxIndex: 1, outputs: [{ typeId: TypeId.NftMintOutput, groupId: 0, locktime: 0n, threshold: 1, addresses: [addr(3)] }] },
    ],
  };
}

const mintOp = (txByte: number, amount = 5n): Operation => ({
  assetId: OTHER_ASSET,
  utxoIds: [{ txId: id32(txByte), outputIndex: 0 }],
  operation: {
    typeId: TypeId.Secp256k1MintOperation,
    mintInput: { signatureIndices: [0] },
    mintOutput: { locktime: 0n, threshold: 1, addresses: [addr(4)] },
    transferOutput: { amount, locktime: 0n, threshold: 1, addresses: [addr(5)] },
  },
});

function operationTx(): OperationTx {
  return { ...baseTx(), typeId: TypeId.OperationTx, operations: [mintOp(5), mintOp(6)] };
}

function importTx(): ImportTx {
  return { ...baseTx(), typeId: TypeId.ImportTx, inputs: [], sourceChain: id32(0x0d), importedInputs: [inp(2, 0, 100_000_000n), inp(2, 1, 1n)] };
}

function exportTx(): ExportTx {
  return { ...baseTx(), typeId: TypeId.ExportTx, outputs: [out(48_000_000n)], destinationChain: id32(0x0d), exportedOutputs: [out(50_000_000n)] };
}

const signed = (unsignedTx: UnsignedTx, count: number): SignedTx => ({
  unsignedTx,
  credentials: Array.from({ length: count }, () => ({ typeId: TypeId.Secp256k1Credential, signatures: [new Uint8Array(65)] })),
});

const STRICT: ValidationOptions = { networkId: 12345, blockchainId: CHAIN, fee: FEE };

function expectViolation(tx: UnsignedTx | SignedTx, code: TxValidationCode, nodeMessage: string, path: string, options: ValidationOptions = STRICT): TxValidationError {
  const error = expectThrow(() => ("unsignedTx" in tx ? validateSignedTx(tx, options) : validateUnsignedTx(tx, options)), TxValidationError);
  expect(error.code, error.message).to.equal(code);
  expect(error.nodeMessage).to.equal(nodeMessage);
  expect(error.path).to.equal(path);
  expect(error.message.startsWith(`${path}: `)).to.equal(true);
  return error;
}

/** Every rule, with a transaction that breaks it (and only it, as far as the node's order goes). */
const CASES: { code: TxValidationCode; nodeMessage: string; path: string; make: () => UnsignedTx | SignedTx; options?: ValidationOptions }[] = [
  { code: "wrong-network-id", nodeMessage: "tx has wrong network ID", path: "BaseTx.networkId", make: () => ({ ...baseTx(), networkId: 1 }) },
  { code: "wrong-blockchain-id", nodeMessage: "tx has wrong chain ID", path: "BaseTx.blockchainId", make: () => ({ ...baseTx(), blockchainId: id32(1) }) },
  { code: "memo-too-large", nodeMessage: "memo exceeds maximum length: 257 > 256", path: "BaseTx.memo", make: () => ({ ...baseTx(), memo: new Uint8Array(257) }) },
  { code: "wrong-number-of-credentials", nodeMessage: "wrong number of credentials: 0 != 1", path: "SignedTx.credentials", make: () => signed(baseTx(), 0) },
  { code: "empty-asset-id", nodeMessage: "empty asset ID is not valid", path: "BaseTx.outputs[0].assetId", make: () => ({ ...baseTx(), outputs: [out(1n, new Uint8Array(32))] }) },
  { code: "output-no-value", nodeMessage: "output has no value", path: "BaseTx.outputs[0].output.amount", make: () => ({ ...baseTx(), outputs: [out(0n)] }) },
  { code: "output-unspendable", nodeMessage: "output is unspendable", path: "BaseTx.outputs[0].output.threshold", make: () => ({ ...baseTx(), outputs: [out(1n, ASSET, [addr(1)], 2)] }) },
  { code: "output-unoptimized", nodeMessage: "output representation should be optimized", path: "BaseTx.outputs[0].output.threshold", make: () => ({ ...baseTx(), outputs: [out(1n, ASSET, [addr(1)], 0)] }) },
  { code: "addresses-not-sorted-unique", nodeMessage: "addresses not sorted and unique", path: "BaseTx.outputs[0].output.addresses", make: () => ({ ...baseTx(), outputs: [out(1n, ASSET, [addr(2), addr(1)])] }) },
  { code: "outputs-not-sorted", nodeMessage: "outputs not sorted", path: "BaseTx.outputs", make: () => ({ ...baseTx(), outputs: [out(2n), out(1n)] }) },
  {
    code: "payload-too-large",
    nodeMessage: "payload too large",
    path: "CreateAssetTx.initialStates[0].outputs[0].payload",
    make: () => ({
      ...createAssetTx(),
      initialStates: [{ fxIndex: 1, outputs: [{ typeId: TypeId.NftTransferOutput, groupId: 0, payload: new Uint8Array(1025), locktime: 0n, threshold: 0, addresses: [] }] }],
    }),
  },
  { code: "input-no-value", nodeMessage: "input has no value", path: "BaseTx.inputs[0].input.amount", make: () => ({ ...baseTx(), inputs: [inp(1, 0, 0n)] }) },
  {
    code: "signature-indices-not-sorted-unique",
    nodeMessage: "address indices not sorted and unique",
    path: "BaseTx.inputs[0].input.signatureIndices",
    make: () => ({ ...baseTx(), inputs: [inp(1, 0, 100_000_000n, ASSET, [1, 1])] }),
  },
  { code: "inputs-not-sorted-unique", nodeMessage: "inputs not sorted and unique", path: "BaseTx.inputs", make: () => ({ ...baseTx(), inputs: [inp(1, 1, 50_000_000n), inp(1, 0, 50_000_000n)] }) },
  { code: "no-import-inputs", nodeMessage: "no import inputs", path: "ImportTx.importedInputs", make: () => ({ ...importTx(), importedInputs: [] }) },
  { code: "no-export-outputs", nodeMessage: "no export outputs", path: "ExportTx.exportedOutputs", make: () => ({ ...exportTx(), exportedOutputs: [] }) },
  {
    code: "amount-overflow",
    nodeMessage: "overflow",
    path: "BaseTx.inputs[1].input.amount",
    make: () => ({ ...baseTx(), inputs: [inp(1, 0, 100_000_000n), inp(1, 1, (1n << 64n) - 1n)] }),
  },
  { code: "insufficient-funds", nodeMessage: "insufficient funds", path: "inputs", make: () => ({ ...baseTx(), inputs: [inp(1, 0, 98_999_999n)] }) },
  { code: "name-too-short", nodeMessage: "name is too short, minimum size is 1", path: "CreateAssetTx.name", make: () => ({ ...createAssetTx(), name: "" }) },
  { code: "name-too-long", nodeMessage: "name is too long, maximum size is 128", path: "CreateAssetTx.name", make: () => ({ ...createAssetTx(), name: "a".repeat(129) }) },
  { code: "symbol-too-short", nodeMessage: "symbol is too short, minimum size is 1", path: "CreateAssetTx.symbol", make: () => ({ ...createAssetTx(), symbol: "" }) },
  { code: "symbol-too-long", nodeMessage: "symbol is too long, maximum size is 4", path: "CreateAssetTx.symbol", make: () => ({ ...createAssetTx(), symbol: "ABCDE" }) },
  { code: "no-initial-states", nodeMessage: "assets must support at least one Fx", path: "CreateAssetTx.initialStates", make: () => ({ ...createAssetTx(), initialStates: [] }) },
  { code: "denomination-too-large", nodeMessage: "denomination is too large", path: "CreateAssetTx.denomination", make: () => ({ ...createAssetTx(), denomination: 33 }) },
  { code: "name-unexpected-whitespace", nodeMessage: "unexpected whitespace provided", path: "CreateAssetTx.name", make: () => ({ ...createAssetTx(), name: " Coin" }) },
  { code: "name-illegal-character", nodeMessage: "asset's name must be made up of only letters and numbers", path: "CreateAssetTx.name", make: () => ({ ...createAssetTx(), name: "Coin!" }) },
  { code: "symbol-illegal-character", nodeMessage: "asset's symbol must be all upper case letters", path: "CreateAssetTx.symbol", make: () => ({ ...createAssetTx(), symbol: "Tst" }) },
  { code: "unknown-fx", nodeMessage: "unknown feature extension", path: "CreateAssetTx.initialStates[0].fxIndex", make: () => ({ ...createAssetTx(), initialStates: [{ fxIndex: 3, outputs: [] }] }) },
  {
    code: "initial-state-outputs-not-sorted",
    nodeMessage: "outputs not sorted",
    path: "CreateAssetTx.initialStates[0].outputs",
    make: () => {
      const tx = createAssetTx();
      return { ...tx, initialStates: [{ fxIndex: 0, outputs: [...tx.initialStates[0]!.outputs].reverse() }] };
    },
  },
  {
    code: "initial-states-not-sorted-unique",
    nodeMessage: "initial states not sorted and unique",
    path: "CreateAssetTx.initialStates",
    make: () => ({ ...createAssetTx(), initialStates: [{ fxIndex: 0, outputs: [] }, { fxIndex: 0, outputs: [] }] }),
  },
  { code: "no-operations", nodeMessage: "an operationTx must have at least one operation", path: "OperationTx.operations", make: () => ({ ...operationTx(), operations: [] }) },
  {
    code: "utxo-ids-not-sorted-unique",
    nodeMessage: "utxo IDs not sorted and unique",
    path: "OperationTx.operations[0].utxoIds",
    make: () => ({ ...operationTx(), operations: [{ ...mintOp(5), utxoIds: [{ txId: id32(5), outputIndex: 1 }, { txId: id32(5), outputIndex: 0 }] }] }),
  },
  { code: "double-spend", nodeMessage: "inputs attempt to double spend an input", path: "OperationTx.operations[0].utxoIds[0]", make: () => ({ ...operationTx(), operations: [mintOp(1)] }) },
  { code: "operations-not-sorted-unique", nodeMessage: "operations not sorted and unique", path: "OperationTx.operations", make: () => ({ ...operationTx(), operations: [mintOp(6), mintOp(5)] }) },
];

const ALL_CODES: Record<TxValidationCode, true> = {
  "wrong-network-id": true,
  "wrong-blockchain-id": true,
  "memo-too-large": true,
  "wrong-number-of-credentials": true,
  "empty-asset-id": true,
  "output-no-value": true,
  "output-unspendable": true,
  "output-unoptimized": true,
  "addresses-not-sorted-unique": true,
  "outputs-not-sorted": true,
  "payload-too-large": true,
  "input-no-value": true,
  "signature-indices-not-sorted-unique": true,
  "inputs-not-sorted-unique": true,
  "no-import-inputs": true,
  "no-export-outputs": true,
  "amount-overflow": true,
  "insufficient-funds": true,
  "name-too-short": true,
  "name-too-long": true,
  "symbol-too-short": true,
  "symbol-too-long": true,
  "no-initial-states": true,
  "denomination-too-large": true,
  "name-unexpected-whitespace": true,
  "name-illegal-character": true,
  "symbol-illegal-character": true,
  "unknown-fx": true,
  "initial-state-outputs-not-sorted": true,
  "initial-states-not-sorted-unique": true,
  "no-operations": true,
  "utxo-ids-not-sorted-unique": true,
  "double-spend": true,
  "operations-not-sorted-unique": true,
};

describe("utxo/codec syntactic validation (the node's checks before semantic verification)", () => {
  describe("valid transactions pass", () => {
    const valid: [string, () => UnsignedTx, number][] = [
      ["BaseTx", baseTx, 1],
      ["CreateAssetTx", createAssetTx, 1],
      ["OperationTx", operationTx, 3],
      ["ImportTx", importTx, 2],
      ["ExportTx", exportTx, 1],
    ];
    for (const [name, make, credentials] of valid) {
      it(`${name} (with ${credentials} credential(s), network, chain and fee checks on)`, () => {
        validateUnsignedTx(make(), STRICT);
        validateSignedTx(signed(make(), credentials), STRICT);
      });
    }

    it("the fee boundary: inputs = outputs + fee passes, one unit less fails", () => {
      const exact: BaseTx = { ...baseTx(), inputs: [inp(1, 0, 99_000_000n)] };
      validateUnsignedTx(exact, STRICT);
      expectViolation({ ...exact, inputs: [inp(1, 0, 98_999_999n)] }, "insufficient-funds", "insufficient funds", "inputs");
      // CreateAssetTx burns its own, larger fee.
      const create: CreateAssetTx = { ...createAssetTx(), outputs: [out(90_000_000n)] };
      validateUnsignedTx(create, STRICT);
      expectViolation({ ...create, outputs: [out(90_000_001n)] }, "insufficient-funds", "insufficient funds", "inputs");
    });

    it("without a fee configuration the value flow is not checked (structure still is)", () => {
      validateUnsignedTx({ ...baseTx(), inputs: [] }, {});
      expectViolation({ ...baseTx(), inputs: [] }, "insufficient-funds", "insufficient funds", "inputs");
    });

    it("outputs may repeat (sorted, not unique); an anyone-can-spend output has threshold 0 and no addresses", () => {
      validateUnsignedTx({ ...baseTx(), outputs: [out(49_000_000n), out(49_000_000n)] }, STRICT);
      validateUnsignedTx({ ...baseTx(), outputs: [out(1n, ASSET, [], 0)] }, STRICT);
    });

    it("a name may contain inner spaces and digits; the symbol may be 1 to 4 capitals", () => {
      validateUnsignedTx({ ...createAssetTx(), name: "My Coin 2", symbol: "A" }, STRICT);
      validateUnsignedTx({ ...createAssetTx(), name: "x".repeat(128), symbol: "ABCD", denomination: 32 }, STRICT);
    });
  });

  describe("each rule has its own error code, path and the node's message", () => {
    for (const c of CASES) {
      it(`${c.code}: ${c.nodeMessage}`, () => {
        expectViolation(c.make(), c.code, c.nodeMessage, c.path, c.options);
      });
    }

    it("every code of TxValidationCode is exercised above", () => {
      expect(new Set(CASES.map((c) => c.code))).to.deep.equal(new Set(Object.keys(ALL_CODES)));
    });

    it("NFT and property operations check payload, owners and signature indices", () => {
      const nftMint: Operation = {
        assetId: OTHER_ASSET,
        utxoIds: [{ txId: id32(5), outputIndex: 0 }],
        operation: { typeId: TypeId.NftMintOperation, mintInput: { signatureIndices: [0] }, groupId: 1, payload: new Uint8Array(1025), outputs: [] },
      };
      expectViolation({ ...operationTx(), operations: [nftMint] }, "payload-too-large", "payload too large", "OperationTx.operations[0].operation.payload");
      const burn: Operation = { ...nftMint, operation: { typeId: TypeId.PropertyBurnOperation, signatureIndices: [2, 1] } };
      expectViolation({ ...operationTx(), operations: [burn] }, "signature-indices-not-sorted-unique", "address indices not sorted and unique", "OperationTx.operations[0].operation.signatureIndices");
      const propMint: Operation = {
        ...nftMint,
        operation: {
          typeId: TypeId.PropertyMintOperation,
          mintInput: { signatureIndices: [] },
          mintOutput: { locktime: 0n, threshold: 1, addresses: [addr(1)] },
          ownedOutput: { locktime: 0n, threshold: 2, addresses: [addr(1)] },
        },
      };
      expectViolation({ ...operationTx(), operations: [propMint] }, "output-unspendable", "output is unspendable", "OperationTx.operations[0].operation.ownedOutput.threshold");
      const emptyAsset: Operation = { ...mintOp(5), assetId: new Uint8Array(32) };
      expectViolation({ ...operationTx(), operations: [emptyAsset] }, "empty-asset-id", "empty asset ID is not valid", "OperationTx.operations[0].assetId");
      const zeroMint = mintOp(5, 0n);
      expectViolation({ ...operationTx(), operations: [zeroMint] }, "output-no-value", "output has no value", "OperationTx.operations[0].operation.transferOutput.amount");
    });
  });

  describe("the node's order decides which violation is reported", () => {
    it("CreateAssetTx: name/symbol/states/denomination rules come before the envelope and the outputs", () => {
      const tx: CreateAssetTx = { ...createAssetTx(), networkId: 1, memo: new Uint8Array(300), symbol: "TOOLONG", outputs: [out(0n)] };
      expectViolation(tx, "symbol-too-long", "symbol is too long, maximum size is 4", "CreateAssetTx.symbol");
      // Whitespace is judged before the character set: a trailing tab is "whitespace", an inner one "illegal".
      expectViolation({ ...createAssetTx(), name: "Coin\t" }, "name-unexpected-whitespace", "unexpected whitespace provided", "CreateAssetTx.name");
      expectViolation({ ...createAssetTx(), name: "Co\tin" }, "name-illegal-character", "asset's name must be made up of only letters and numbers", "CreateAssetTx.name");
      // Non-ASCII letters are refused, and lengths count UTF-8 bytes.
      expectViolation({ ...createAssetTx(), name: "Café" }, "name-illegal-character", "asset's name must be made up of only letters and numbers", "CreateAssetTx.name");
      expectViolation({ ...createAssetTx(), symbol: "ÉÉÉ" }, "symbol-too-long", "symbol is too long, maximum size is 4", "CreateAssetTx.symbol");
    });

    it("the envelope (network, chain, memo) comes before outputs; outputs before inputs; the value flow last", () => {
      expectViolation({ ...baseTx(), networkId: 5, outputs: [out(0n)] }, "wrong-network-id", "tx has wrong network ID", "BaseTx.networkId");
      expectViolation({ ...baseTx(), outputs: [out(0n)], inputs: [inp(1, 0, 0n)] }, "output-no-value", "output has no value", "BaseTx.outputs[0].output.amount");
      expectViolation({ ...baseTx(), inputs: [inp(1, 0, 0n), inp(0, 0, 1n)] }, "input-no-value", "input has no value", "BaseTx.inputs[0].input.amount");
      // An overflow is reported after the sorting checks, even if it happens in an earlier output.
      const overflowing: BaseTx = { ...baseTx(), outputs: [out((1n << 64n) - 1n), out(1n, OTHER_ASSET)], inputs: [inp(1, 1, 1n), inp(1, 0, 1n)] };
      expectViolation(overflowing, "inputs-not-sorted-unique", "inputs not sorted and unique", "BaseTx.inputs");
      expectViolation({ ...overflowing, inputs: [inp(1, 0, 1n)] }, "amount-overflow", "overflow", "BaseTx.outputs[0].output.amount");
    });

    it("ExportTx: base outputs and exported outputs are each sorted on their own", () => {
      validateUnsignedTx({ ...exportTx(), outputs: [out(30_000_000n)], exportedOutputs: [out(10_000_000n), out(20_000_000n)] }, STRICT);
      expectViolation({ ...exportTx(), exportedOutputs: [out(20_000_000n), out(10_000_000n)] }, "outputs-not-sorted", "outputs not sorted", "ExportTx.exportedOutputs");
    });

    it("ImportTx: imported inputs are sorted on their own and count towards the credentials", () => {
      expectViolation({ ...importTx(), importedInputs: [inp(2, 1, 1n), inp(2, 0, 100_000_000n)] }, "inputs-not-sorted-unique", "inputs not sorted and unique", "ImportTx.importedInputs");
      expectViolation(signed(importTx(), 1), "wrong-number-of-credentials", "wrong number of credentials: 1 != 2", "SignedTx.credentials");
    });

    it("OperationTx needs one credential per input and per operation", () => {
      expectViolation(signed(operationTx(), 2), "wrong-number-of-credentials", "wrong number of credentials: 2 != 3", "SignedTx.credentials");
    });
  });

  describe("the compare functions produce the orders the rules require", () => {
    it("sorting with them makes outputs, inputs, addresses, initial-state outputs and operations pass", () => {
      fc.assert(
        fc.property(
          fc.array(arbTransferableOutput, { maxLength: 4 }),
          fc.uniqueArray(arbTransferableInput, { maxLength: 4, selector: (i) => `${Buffer.from(i.txId).toString("hex")}:${i.outputIndex}` }),
          fc.uniqueArray(arbShortId, { maxLength: 4, selector: (a) => Buffer.from(a).toString("hex") }),
          fc.array(arbOutput, { maxLength: 4 }),
          fc.uniqueArray(arbOperation, { maxLength: 3, selector: (o) => JSON.stringify(o, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)) }),
          (outputs, inputs, addresses, stateOutputs, operations) => {
            const fix = <T extends { output: { amount: bigint; threshold: number; addresses: Uint8Array[] } }>(x: T): T => ({
              ...x,
              output: { ...x.output, amount: 1n, threshold: 0, addresses: [] },
            });
            const tx: BaseTx = {
              ...baseTx(),
              outputs: outputs.map((o) => ({ ...fix(o), assetId: ASSET })).sort(compareTransferableOutputs),
              inputs: inputs.map((i) => ({ ...i, assetId: ASSET, input: { ...i.input, amount: 1n, signatureIndices: [] } })).sort(compareUtxoIds),
            };
            validateUnsignedTx(tx, {});
            const sortedAddresses = [...addresses].sort(compareShortIds);
            validateUnsignedTx({ ...baseTx(), outputs: [out(1n, ASSET, sortedAddresses, sortedAddresses.length)] }, {});
            const sortedStates = [...stateOutputs].sort(compareOutputs);
            for (let i = 1; i < sortedStates.length; i++) expect(compareOutputs(sortedStates[i - 1]!, sortedStates[i]!)).to.be.at.most(0);
            const sortedOps = [...operations].sort(compareOperations);
            for (let i = 1; i < sortedOps.length; i++) expect(compareOperations(sortedOps[i - 1]!, sortedOps[i]!)).to.be.lessThan(0);
          },
        ),
        { numRuns: 100 },
      );
    });
  });
});
