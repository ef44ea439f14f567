import { expect } from "chai";
import { sha256 } from "@noble/hashes/sha2.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import {
  aliasIdFromTxId,
  decodeAliasWithNonce,
  decodePBlock,
  decodePSignedTx,
  encodeAliasWithNonce,
  encodePBlock,
  encodePSignedTx,
  encodePUnsignedTx,
  genesisAliasId,
  PTypeId,
  pTypeIdName,
  type PBaseFields,
  type PBlock,
  type PSignedTx,
  type PUnsignedTx,
  signPTx,
} from "../../src/pchain";
import { CodecError, TypeId } from "../../src/utxo/codec";
import { AVAX, EWOQ, EWOQ_KEY, P_CHAIN, testKey, addressOf } from "./helpers";

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
const X_CHAIN = new Uint8Array(32).fill(7);

const base: PBaseFields = {
  networkId: 12345,
  blockchainId: P_CHAIN,
  outputs: [{ assetId: AVAX, output: { typeId: TypeId.Secp256k1TransferOutput, amount: 5n, locktime: 0n, threshold: 1, addresses: [EWOQ] } }],
  inputs: [{ txId: new Uint8Array(32).fill(1), outputIndex: 2, assetId: AVAX, input: { typeId: TypeId.Secp256k1TransferInput, amount: 9n, signatureIndices: [0] } }],
  memo: Uint8Array.of(1, 2),
};

const TXS: PUnsignedTx[] = [
  { typeId: PTypeId.BaseTx, ...base, outputs: [...base.outputs], inputs: [...base.inputs] },
  { typeId: PTypeId.CaminoBaseTx, ...base, outputs: [...base.outputs], inputs: [...base.inputs] },
  { typeId: PTypeId.ImportTx, ...base, outputs: [...base.outputs], inputs: [], sourceChain: X_CHAIN, importedInputs: [...base.inputs] },
  { typeId: PTypeId.ExportTx, ...base, outputs: [], inputs: [...base.inputs], destinationChain: X_CHAIN, exportedOutputs: [...base.outputs] },
  {
    typeId: PTypeId.MultisigAliasTx,
    ...base,
    outputs: [...base.outputs],
    inputs: [...base.inputs],
    alias: { id: new Uint8Array(20), memo: Uint8Array.of(9), owners: { locktime: 0n, threshold: 1, addresses: [EWOQ] } },
    auth: { signatureIndices: [] },
  },
];

describe("pchain codec", () => {
  for (const tx of TXS) {
    it(`round-trips a signed ${pTypeIdName(tx.typeId)} (${tx.typeId}) with both credential types`, () => {
      const signed = signPTx(tx, [{ keys: [EWOQ_KEY] }]);
      const multi: PSignedTx = { ...signed.tx, credentials: [...signed.tx.credentials, { typeId: PTypeId.MultisigCredential, signatures: signed.tx.credentials[0]!.signatures, sigIdxs: [3] }] };
      const bytes = encodePSignedTx(multi);
      const { tx: decoded, unsignedLength } = decodePSignedTx(bytes);
      expect(encodePSignedTx(decoded)).to.deep.equal(bytes);
      expect(unsignedLength).to.equal(encodePUnsignedTx(tx).length);
      expect(hex(signed.txId)).to.equal(hex(sha256(signed.bytes)));
    });
  }

  it("writes codec version 0, then the type ID big-endian (BaseTx 34, Camino MultisigAliasTx 8201)", () => {
    expect(hex(encodePUnsignedTx(TXS[0]!).subarray(0, 6))).to.equal("000000000022");
    expect(hex(encodePUnsignedTx(TXS[1]!).subarray(0, 6))).to.equal("000000002008");
    expect(hex(encodePUnsignedTx(TXS[2]!).subarray(0, 6))).to.equal("000000000011");
    expect(hex(encodePUnsignedTx(TXS[3]!).subarray(0, 6))).to.equal("000000000012");
    expect(hex(encodePUnsignedTx(TXS[4]!).subarray(0, 6))).to.equal("000000002009");
  });

  it("lays a MultisigAliasTx's alias out as ID, memo, owners (type 11), then auth (type 10)", () => {
    const bytes = encodePUnsignedTx(TXS[4]!);
    const tail = hex(bytes.subarray(bytes.length - (20 + 4 + 1 + 4 + 8 + 4 + 4 + 20 + 4 + 4)));
    expect(tail).to.equal(["00".repeat(20), "00000001", "09", "0000000b", "0000000000000000", "00000001", "00000001", hex(EWOQ), "0000000a", "00000000"].join(""));
  });

  it("lays a MultisigCredential out as type 8204, signatures, sigIdxs", () => {
    const signature = new Uint8Array(65).fill(5);
    const bytes = encodePSignedTx({ unsignedTx: TXS[0]!, credentials: [{ typeId: PTypeId.MultisigCredential, signatures: [signature], sigIdxs: [1] }] });
    expect(hex(bytes.subarray(bytes.length - (4 + 4 + 4 + 65 + 4 + 4)))).to.equal(["00000001", "0000200c", "00000001", hex(signature), "00000001", "00000001"].join(""));
  });

  it("encodes a Banff standard block (type 32: time, parent, height, txs) whose ID is sha256 of its bytes", () => {
    const signed = signPTx(TXS[0]!, [{ keys: [EWOQ_KEY] }]);
    const block: PBlock = { typeId: PTypeId.BanffStandardBlock, time: 1_700_000_000n, parentId: new Uint8Array(32).fill(3), height: 5n, txs: [signed.tx] };
    const bytes = encodePBlock(block);
    expect(hex(bytes.subarray(0, 6 + 8 + 32 + 8 + 4))).to.equal("0000" + "00000020" + "000000006553f100" + "03".repeat(32) + "0000000000000005" + "00000001");
    // The transaction inside a block is the signed transaction without its codec version.
    expect(hex(bytes.subarray(58))).to.equal(hex(signed.bytes.subarray(2)));
    expect(encodePBlock(decodePBlock(bytes))).to.deep.equal(bytes);
    const commit = encodePBlock({ typeId: PTypeId.ApricotCommitBlock, parentId: new Uint8Array(32), height: 0n });
    expect(hex(commit)).to.equal("0000" + "00000002" + "00".repeat(32) + "00".repeat(8));
  });

  it("derives alias IDs as Camino does: ripemd160(txID), and at genesis ripemd160(sha256(empty ID ‖ threshold LE ‖ memo ‖ addresses))", () => {
    const txId = sha256(Uint8Array.of(1));
    expect(hex(aliasIdFromTxId(txId))).to.equal(hex(ripemd160(txId)));
    const a = addressOf(testKey(1));
    const preimage = Buffer.concat([Buffer.alloc(32), Buffer.from([2, 0, 0, 0]), Buffer.from("m"), Buffer.from(a)]);
    expect(hex(genesisAliasId(2, new TextEncoder().encode("m"), [a]))).to.equal(hex(ripemd160(sha256(preimage))));
    const stored = { alias: { id: a, memo: Uint8Array.of(1), owners: { locktime: 0n, threshold: 1, addresses: [EWOQ] } }, nonce: 3n };
    expect(decodeAliasWithNonce(encodeAliasWithNonce(stored))).to.deep.equal(stored);
  });

  it("refuses bytes it cannot read, naming the field and offset", () => {
    const bytes = encodePSignedTx({ unsignedTx: TXS[0]!, credentials: [] });
    expect(() => decodePSignedTx(bytes.subarray(0, 20))).to.throw(CodecError, /unexpected end of input at offset 10 reading \[32\]byte \(Tx\.unsignedTx\(BaseTx\)\.blockchainId\)/);
    const addValidator = Uint8Array.from([0, 0, 0, 0, 0, 12]);
    expect(() => decodePSignedTx(addValidator)).to.throw(CodecError, /type ID 12 \(not supported by this simulator\)/);
    expect(() => decodePSignedTx(Uint8Array.from([...bytes, 0]))).to.throw(CodecError, /trailing bytes/);
    expect(() => decodePSignedTx(Uint8Array.from([0, 1, ...bytes.subarray(2)]))).to.throw(CodecError, /unsupported codec version 1/);
  });
});
