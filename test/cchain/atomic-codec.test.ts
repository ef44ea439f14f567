import { expect } from "chai";
import { sha256 } from "@noble/hashes/sha2.js";
import { decodeCb58 } from "../../src/encoding";
import { CodecError, MAX_CODEC_SIZE, TypeId, decodeUtxo, encodeUtxo, shortIdFromPrivateKey } from "../../src/utxo/codec";
import {
  AtomicTypeId,
  type UnsignedExportTx,
  type UnsignedImportTx,
  atomicTxId,
  decodeEvmInput,
  decodeEvmOutput,
  decodeSignedAtomicTx,
  decodeUnsignedAtomicTx,
  encodeEvmInput,
  encodeEvmOutput,
  encodeSignedAtomicTx,
  encodeUnsignedAtomicTx,
  evmAddressOfPrivateKey,
  parseSignedAtomicTx,
  recoverEvmAddress,
  signAtomicTx,
} from "../../src/cchain";
import { AG_TEST_KEYS, DOC_EVM_INPUT, DOC_EVM_OUTPUT, DOC_EXPORT_TX, DOC_IMPORT_TX, DOC_SIGNED_IMPORT_TX, DOC_UTXO } from "./vectors";

const bytes = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex, "hex"));
const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
const DBCF = "dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db";
const BLOCKCHAIN = "91060eabfb5a571720109b5896e5ff00010a1cfe6b103d585e6ebf27b97a1735";
const PEER = "d891ad56056d9c01f18f43f58b5c784ad07a4a49cf3d1f11623804b5cba2c6bf";

function expectCodecError(fn: () => unknown, pattern: RegExp): CodecError {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(CodecError);
    expect((error as Error).message).to.match(pattern);
    return error as CodecError;
  }
  expect.fail("expected a CodecError");
}

describe("contract-chain atomic codec: the reference layout byte for byte", function () {
  it("registers the types with the reference numbering: 0 import, 1 export, secp256k1fx 5/7/9 (then 10, 11)", function () {
    expect(AtomicTypeId).to.deep.equal({
      ImportTx: 0,
      ExportTx: 1,
      Secp256k1TransferInput: 5,
      Secp256k1TransferOutput: 7,
      Secp256k1Credential: 9,
      Secp256k1Input: 10,
      Secp256k1OutputOwners: 11,
    });
  });

  it("EVMInput and EVMOutput: the documented 68- and 60-byte examples", function () {
    const input = decodeEvmInput(bytes(DOC_EVM_INPUT));
    expect(hex(input.address)).to.equal("8db97c7cece249c2b98bdc0226cc4c2a57bf52fc");
    expect(input.amount).to.equal(2_000_000n);
    expect(hex(input.assetId)).to.equal(DBCF);
    expect(input.nonce).to.equal(0n);
    expect(hex(encodeEvmInput(input))).to.equal(DOC_EVM_INPUT);

    const output = decodeEvmOutput(bytes(DOC_EVM_OUTPUT));
    expect(hex(output.address)).to.equal("c3344128e060128ede3523a24a461c8943ab0859");
    expect(output.amount).to.equal(500_000_000_000n);
    expect(hex(encodeEvmOutput(output))).to.equal(DOC_EVM_OUTPUT);
  });

  it("ExportTx: the documented example decodes to its fields and re-encodes identically", function () {
    const encoded = bytes("0000" + DOC_EXPORT_TX);
    const tx = decodeUnsignedAtomicTx(encoded) as UnsignedExportTx;
    expect(tx.typeId).to.equal(AtomicTypeId.ExportTx);
    expect(tx.networkId).to.equal(4);
    expect(hex(tx.blockchainId)).to.equal(BLOCKCHAIN);
    expect(hex(tx.destinationChain)).to.equal(PEER);
    expect(tx.ins).to.have.length(1);
    expect(tx.ins[0]!.amount).to.equal(2_000_000n);
    expect(tx.exportedOutputs).to.have.length(1);
    const out = tx.exportedOutputs[0]!;
    expect(hex(out.assetId)).to.equal(DBCF);
    expect(out.output).to.deep.include({ typeId: TypeId.Secp256k1TransferOutput, amount: 1_000_000n, locktime: 0n, threshold: 1 });
    expect(out.output.addresses.map(hex)).to.deep.equal(["66f90db6137a78f76b3693f7f2bc507956dae563"]);
    expect(hex(encodeUnsignedAtomicTx(tx))).to.equal("0000" + DOC_EXPORT_TX);
  });

  it("ImportTx: the documented example decodes to its fields and re-encodes identically", function () {
    const tx = decodeUnsignedAtomicTx(bytes("0000" + DOC_IMPORT_TX)) as UnsignedImportTx;
    expect(tx.typeId).to.equal(AtomicTypeId.ImportTx);
    expect(hex(tx.sourceChain)).to.equal(PEER);
    expect(tx.importedInputs).to.have.length(1);
    const input = tx.importedInputs[0]!;
    expect(hex(input.txId)).to.equal("6613a40dcdd8d22ea4aa99a4c84349056317cf550b6685e045e459954f258e59");
    expect(input.outputIndex).to.equal(1);
    expect(input.input).to.deep.equal({ typeId: TypeId.Secp256k1TransferInput, amount: 500_000_000_000n, signatureIndices: [0] });
    expect(tx.outs).to.have.length(1);
    expect(hex(tx.outs[0]!.address)).to.equal("0eb5ccb85c29009b6060decb353a38ea3b52cd20");
    expect(hex(encodeUnsignedAtomicTx(tx))).to.equal("0000" + DOC_IMPORT_TX);
  });

  it("signed tx: the documented example splits into unsigned bytes and one credential; ID = sha256(signed bytes)", function () {
    const signed = bytes(DOC_SIGNED_IMPORT_TX);
    const parsed = parseSignedAtomicTx(signed);
    const tx = parsed.tx.unsignedTx as UnsignedImportTx;
    expect(tx.networkId).to.equal(12345);
    expect(parsed.unsignedBytes).to.have.length(230);
    expect(hex(parsed.unsignedBytes)).to.equal(DOC_SIGNED_IMPORT_TX.slice(0, 460));
    expect(parsed.tx.credentials).to.have.length(1);
    expect(parsed.tx.credentials[0]!.typeId).to.equal(TypeId.Secp256k1Credential);
    expect(hex(parsed.tx.credentials[0]!.signatures[0]!)).to.equal(DOC_SIGNED_IMPORT_TX.slice(-130));
    expect(hex(parsed.id)).to.equal(hex(sha256(signed)));
    expect(hex(atomicTxId(signed))).to.equal(hex(parsed.id));
    expect(hex(encodeSignedAtomicTx(decodeSignedAtomicTx(signed)))).to.equal(DOC_SIGNED_IMPORT_TX);
  });

  it("atomic UTXOs have the exchange chain's UTXO layout (the documented example round-trips)", function () {
    const utxo = decodeUtxo(bytes(DOC_UTXO));
    expect(utxo.outputIndex).to.equal(0);
    expect(utxo.output.typeId).to.equal(TypeId.Secp256k1TransferOutput);
    expect(hex(encodeUtxo(utxo))).to.equal(DOC_UTXO);
  });

  it("signs over sha256(unsigned bytes): import credentials recover the owners' short IDs, export ones the EVM address", function () {
    const key = decodeCb58(AG_TEST_KEYS[1]);
    const unsigned: UnsignedExportTx = {
      typeId: AtomicTypeId.ExportTx,
      networkId: 12345,
      blockchainId: bytes(BLOCKCHAIN),
      destinationChain: bytes(PEER),
      ins: [{ address: evmAddressOfPrivateKey(key), amount: 5n, assetId: bytes(DBCF), nonce: 7n }],
      exportedOutputs: [
        { assetId: bytes(DBCF), output: { typeId: TypeId.Secp256k1TransferOutput, amount: 1n, locktime: 0n, threshold: 1, addresses: [shortIdFromPrivateKey(key)] } },
      ],
    };
    const parsed = signAtomicTx(unsigned, [[key]]);
    expect(hex(parsed.unsignedBytes)).to.equal(hex(encodeUnsignedAtomicTx(unsigned)));
    expect(hex(parsed.id)).to.equal(hex(sha256(parsed.signedBytes)));
    const signature = parsed.tx.credentials[0]!.signatures[0]!;
    expect(signature).to.have.length(65);
    expect(hex(recoverEvmAddress(parsed.unsignedBytes, signature))).to.equal(hex(evmAddressOfPrivateKey(key)));
    // deterministic (RFC 6979): signing again gives the same bytes and ID
    expect(hex(signAtomicTx(unsigned, [[key]]).signedBytes)).to.equal(hex(parsed.signedBytes));
  });

  it("ethereum address of the ewoq key is the well-known local-network account", function () {
    expect(hex(evmAddressOfPrivateKey(decodeCb58(AG_TEST_KEYS[3])))).to.equal("8db97c7cece249c2b98bdc0226cc4c2a57bf52fc");
  });

  it("refuses bytes above the codec's size limit in the words every UTXO chain's codec uses", function () {
    const error = expectCodecError(() => parseSignedAtomicTx(new Uint8Array(MAX_CODEC_SIZE + 1)), /input is \d+ bytes/);
    expect(error.message).to.include(`input is ${MAX_CODEC_SIZE + 1} bytes, above the reference codec's limit of ${MAX_CODEC_SIZE} bytes`);
  });

  it("rejects malformed bytes with the offending field and offset", function () {
    const good = bytes(DOC_SIGNED_IMPORT_TX);
    expectCodecError(() => parseSignedAtomicTx(good.subarray(0, 100)), /unexpected end of input at offset \d+ .*ImportTx\.importedInputs\[0\]/);
    expectCodecError(() => parseSignedAtomicTx(new Uint8Array([...good, 0])), /trailing bytes after SignedAtomicTx/);
    const badVersion = good.slice();
    badVersion[1] = 1;
    expectCodecError(() => parseSignedAtomicTx(badVersion), /unsupported codec version 1/);
    const badType = good.slice();
    badType[5] = 2; // type ID 2: skipped by the atomic codec
    expectCodecError(() => parseSignedAtomicTx(badType), /unexpected type ID 2 \(expected 0, ImportTx, or 1, ExportTx\)/);
    const badInputType = good.slice();
    badInputType[2 + 4 + 4 + 32 + 32 + 4 + 32 + 4 + 32 + 3] = 6; // the input's type: MintOutput is not an input
    expectCodecError(() => parseSignedAtomicTx(badInputType), /unexpected type ID 6 \(expected 5, secp256k1fx TransferInput\) at offset 146 \(ImportTx\.importedInputs\[0\]\.input\.typeId\)/);
    const badCredential = good.slice();
    badCredential[230 + 4 + 3] = 14; // an nftfx credential
    expectCodecError(() => parseSignedAtomicTx(badCredential), /unexpected type ID 14 \(expected 9, secp256k1fx Credential\) .*credentials\[0\]\.typeId/);
  });

  it("refuses to encode values that do not fit (the path names the field)", function () {
    const tx = decodeUnsignedAtomicTx(bytes("0000" + DOC_IMPORT_TX)) as UnsignedImportTx;
    expectCodecError(() => encodeUnsignedAtomicTx({ ...tx, outs: [{ ...tx.outs[0]!, amount: 1n << 64n }] }), /ImportTx\.outs\[0\]\.amount/);
    expectCodecError(() => encodeUnsignedAtomicTx({ ...tx, sourceChain: new Uint8Array(31) }), /ImportTx\.sourceChain: expected 32 bytes/);
  });
});
