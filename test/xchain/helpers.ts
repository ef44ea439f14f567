import { expect } from "chai";
import fc from "fast-check";
import { parseChainAddress } from "../../src/encoding";
import {
  type CreateAssetTx,
  type Credential,
  type CredentialTypeId,
  type FxOperation,
  type InitialState,
  type Input,
  type NftTransferOutputBody,
  type Operation,
  type Output,
  type OutputOwners,
  type Secp256k1TransferOutput,
  type Secp256k1TransferOutputBody,
  type SignedTx,
  type TransferableInput,
  type TransferableOutput,
  TypeId,
  type UnsignedTx,
  type Utxo,
  type UtxoId,
} from "../../src/utxo/codec";
import { AG_LOCAL_GENESIS } from "./vectors";

/** Bytes of a hex string (with or without 0x, whitespace ignored). */
export function hex(text: string): Uint8Array {
  const clean = text.replace(/^0x/, "").replace(/\s+/g, "");
  if (clean.length % 2 !== 0 || /[^0-9a-f]/i.test(clean)) throw new Error(`bad hex in test: ${text.slice(0, 40)}`);
  return Uint8Array.from(Buffer.from(clean, "hex"));
}

/** Lowercase hex (no 0x) of bytes. */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(parts));
}

/** 32 bytes: the given leading bytes, then zeros (like Go's ids.ID{5, 4, 3}). */
export function id32(...lead: number[]): Uint8Array {
  const out = new Uint8Array(32);
  out.set(lead);
  return out;
}

/** Run `fn`, expect an error of class `type` whose message contains every fragment; return it. */
export function expectThrow<E extends Error>(fn: () => unknown, type: new (...args: never[]) => E, ...fragments: (string | RegExp)[]): E {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, "expected an error to be thrown").to.be.instanceOf(type);
  const error = thrown as E;
  for (const fragment of fragments) {
    if (typeof fragment === "string") expect(error.message).to.include(fragment);
    else expect(error.message).to.match(fragment);
  }
  return error;
}

// ---------------------------------------------------------------------------------------
// fast-check arbitraries for every structure (any value the codec can carry, valid or not
// under the node's syntactic rules)
// ---------------------------------------------------------------------------------------

export const arbBytes = (length: number): fc.Arbitrary<Uint8Array> => fc.uint8Array({ minLength: length, maxLength: length });
export const arbVarBytes = (maxLength: number): fc.Arbitrary<Uint8Array> => fc.uint8Array({ maxLength });
export const arbU32 = fc.integer({ min: 0, max: 0xffff_ffff });
export const arbU64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
export const arbId = arbBytes(32);
export const arbShortId = arbBytes(20);

export const arbOwners: fc.Arbitrary<OutputOwners> = fc.record({
  locktime: arbU64,
  threshold: arbU32,
  addresses: fc.array(arbShortId, { maxLength: 3 }),
});

export const arbInput: fc.Arbitrary<Input> = fc.record({ signatureIndices: fc.array(arbU32, { maxLength: 4 }) });

const arbSecpBody: fc.Arbitrary<Secp256k1TransferOutputBody> = fc
  .tuple(arbU64, arbOwners)
  .map(([amount, owners]) => ({ amount, ...owners }));

const arbNftBody: fc.Arbitrary<NftTransferOutputBody> = fc
  .tuple(arbU32, arbVarBytes(40), arbOwners)
  .map(([groupId, payload, owners]) => ({ groupId, payload, ...owners }));

export const arbSecpTransferOutput: fc.Arbitrary<Secp256k1TransferOutput> = arbSecpBody.map((body) => ({
  typeId: TypeId.Secp256k1TransferOutput,
  ...body,
}));

export const arbOutput: fc.Arbitrary<Output> = fc.oneof(
  arbSecpTransferOutput,
  arbOwners.map((o): Output => ({ typeId: TypeId.Secp256k1MintOutput, ...o })),
  fc.tuple(arbU32, arbOwners).map(([groupId, o]): Output => ({ typeId: TypeId.NftMintOutput, groupId, ...o })),
  arbNftBody.map((b): Output => ({ typeId: TypeId.NftTransferOutput, ...b })),
  arbOwners.map((o): Output => ({ typeId: TypeId.PropertyMintOutput, ...o })),
  arbOwners.map((o): Output => ({ typeId: TypeId.PropertyOwnedOutput, ...o })),
);

export const arbFxOperation: fc.Arbitrary<FxOperation> = fc.oneof(
  fc
    .tuple(arbInput, arbOwners, arbSecpBody)
    .map(([mintInput, mintOutput, transferOutput]): FxOperation => ({ typeId: TypeId.Secp256k1MintOperation, mintInput, mintOutput, transferOutput })),
  fc
    .tuple(arbInput, arbU32, arbVarBytes(40), fc.array(arbOwners, { maxLength: 3 }))
    .map(([mintInput, groupId, payload, outputs]): FxOperation => ({ typeId: TypeId.NftMintOperation, mintInput, groupId, payload, outputs })),
  fc.tuple(arbInput, arbNftBody).map(([input, output]): FxOperation => ({ typeId: TypeId.NftTransferOperation, input, output })),
  fc
    .tuple(arbInput, arbOwners, arbOwners)
    .map(([mintInput, mintOutput, ownedOutput]): FxOperation => ({ typeId: TypeId.PropertyMintOperation, mintInput, mintOutput, ownedOutput })),
  arbInput.map((input): FxOperation => ({ typeId: TypeId.PropertyBurnOperation, ...input })),
);

export const arbUtxoId: fc.Arbitrary<UtxoId> = fc.record({ txId: arbId, outputIndex: arbU32 });

export const arbTransferableOutput: fc.Arbitrary<TransferableOutput> = fc.record({ assetId: arbId, output: arbSecpTransferOutput });

export const arbTransferableInput: fc.Arbitrary<TransferableInput> = fc
  .tuple(arbUtxoId, arbId, arbU64, arbInput)
  .map(([utxo, assetId, amount, input]) => ({ ...utxo, assetId, input: { typeId: TypeId.Secp256k1TransferInput, amount, ...input } }));

export const arbOperation: fc.Arbitrary<Operation> = fc.record({
  assetId: arbId,
  utxoIds: fc.array(arbUtxoId, { maxLength: 3 }),
  operation: arbFxOperation,
});

export const arbInitialState: fc.Arbitrary<InitialState> = fc.record({ fxIndex: arbU32, outputs: fc.array(arbOutput, { maxLength: 3 }) });

export const arbCredential: fc.Arbitrary<Credential> = fc.record({
  typeId: fc.constantFrom<CredentialTypeId>(TypeId.Secp256k1Credential, TypeId.NftCredential, TypeId.PropertyCredential),
  signatures: fc.array(arbBytes(65), { maxLength: 3 }),
});

const arbBaseFields = fc.record({
  networkId: arbU32,
  blockchainId: arbId,
  outputs: fc.array(arbTransferableOutput, { maxLength: 3 }),
  inputs: fc.array(arbTransferableInput, { maxLength: 3 }),
  memo: arbVarBytes(300),
});

export const arbUnsignedTx: fc.Arbitrary<UnsignedTx> = fc.oneof(
  arbBaseFields.map((b): UnsignedTx => ({ typeId: TypeId.BaseTx, ...b })),
  fc
    .tuple(arbBaseFields, fc.string({ unit: "binary", maxLength: 12 }), fc.string({ maxLength: 6 }), fc.integer({ min: 0, max: 255 }), fc.array(arbInitialState, { maxLength: 3 }))
    .map(([b, name, symbol, denomination, initialStates]): UnsignedTx => ({ typeId: TypeId.CreateAssetTx, ...b, name, symbol, denomination, initialStates })),
  fc.tuple(arbBaseFields, fc.array(arbOperation, { maxLength: 3 })).map(([b, operations]): UnsignedTx => ({ typeId: TypeId.OperationTx, ...b, operations })),
  fc
    .tuple(arbBaseFields, arbId, fc.array(arbTransferableInput, { maxLength: 3 }))
    .map(([b, sourceChain, importedInputs]): UnsignedTx => ({ typeId: TypeId.ImportTx, ...b, sourceChain, importedInputs })),
  fc
    .tuple(arbBaseFields, arbId, fc.array(arbTransferableOutput, { maxLength: 3 }))
    .map(([b, destinationChain, exportedOutputs]): UnsignedTx => ({ typeId: TypeId.ExportTx, ...b, destinationChain, exportedOutputs })),
);

export const arbSignedTx: fc.Arbitrary<SignedTx> = fc.record({ unsignedTx: arbUnsignedTx, credentials: fc.array(arbCredential, { maxLength: 3 }) });

export const arbUtxo: fc.Arbitrary<Utxo> = fc.tuple(arbUtxoId, arbId, arbOutput).map(([u, assetId, output]) => ({ ...u, assetId, output }));

/**
 * The local network's AVAX CreateAssetTx as avalanchego's genesis builds it (from
 * AG_LOCAL_GENESIS): a memo of the ETH address once per holder, and one secp256k1 output per
 * holder. Its ID is the native asset ID.
 */
export function localGenesisAvaxTx(): CreateAssetTx {
  const eth = hex(AG_LOCAL_GENESIS.ethAddr);
  return {
    typeId: TypeId.CreateAssetTx,
    networkId: AG_LOCAL_GENESIS.networkId,
    blockchainId: new Uint8Array(32),
    outputs: [],
    inputs: [],
    memo: concat(...AG_LOCAL_GENESIS.holders.map(() => eth)),
    name: "Avalanche",
    symbol: "AVAX",
    denomination: 9,
    initialStates: [
      {
        fxIndex: 0,
        outputs: AG_LOCAL_GENESIS.holders.map((h) => ({
          typeId: TypeId.Secp256k1TransferOutput,
          amount: h.amount,
          locktime: 0n,
          threshold: 1,
          addresses: [parseChainAddress(h.address).shortId],
        })),
      },
    ],
  };
}
