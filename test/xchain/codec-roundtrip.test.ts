import { expect } from "chai";
import fc from "fast-check";
import {
  decodeCredential,
  decodeInitialState,
  decodeOperation,
  decodeOutput,
  decodeSignedTx,
  decodeSignedTxWithLength,
  decodeTransferableInput,
  decodeTransferableOutput,
  decodeUnsignedTx,
  decodeUtxo,
  encodeCredential,
  encodeInitialState,
  encodeOperation,
  encodeOutput,
  encodeSignedTx,
  encodeTransferableInput,
  encodeTransferableOutput,
  encodeUnsignedTx,
  encodeUtxo,
} from "../../src/utxo/codec";
import {
  arbCredential,
  arbInitialState,
  arbOperation,
  arbOutput,
  arbSignedTx,
  arbTransferableInput,
  arbTransferableOutput,
  arbUnsignedTx,
  arbUtxo,
  toHex,
} from "./helpers";

const RUNS = { numRuns: 200 };

/**
 * For an encode/decode pair: decode(encode(x)) equals x, and encode(decode(bytes)) gives the
 * same bytes back (the encoding is canonical: one byte string per value).
 */
function roundTrip<T>(name: string, arb: fc.Arbitrary<T>, encode: (value: T) => Uint8Array, decode: (bytes: Uint8Array) => T): void {
  it(`${name}: decode(encode(x)) = x and encode(decode(b)) = b`, () => {
    fc.assert(
      fc.property(arb, (value) => {
        const bytes = encode(value);
        const decoded = decode(bytes);
        expect(decoded).to.deep.equal(value);
        expect(toHex(encode(decoded))).to.equal(toHex(bytes));
      }),
      RUNS,
    );
  });
}

describe("utxo/codec round trips (fast-check)", () => {
  roundTrip("UnsignedTx", arbUnsignedTx, encodeUnsignedTx, decodeUnsignedTx);
  roundTrip("SignedTx", arbSignedTx, encodeSignedTx, decodeSignedTx);
  roundTrip("Utxo", arbUtxo, encodeUtxo, decodeUtxo);
  roundTrip("Output", arbOutput, encodeOutput, decodeOutput);
  roundTrip("TransferableOutput", arbTransferableOutput, encodeTransferableOutput, decodeTransferableOutput);
  roundTrip("TransferableInput", arbTransferableInput, encodeTransferableInput, decodeTransferableInput);
  roundTrip("Operation", arbOperation, encodeOperation, decodeOperation);
  roundTrip("InitialState", arbInitialState, encodeInitialState, decodeInitialState);
  roundTrip("Credential", arbCredential, encodeCredential, decodeCredential);

  it("signed bytes = unsigned bytes + credentials slice, and decodeSignedTxWithLength finds the boundary", () => {
    fc.assert(
      fc.property(arbSignedTx, (tx) => {
        const unsigned = encodeUnsignedTx(tx.unsignedTx);
        const signed = encodeSignedTx(tx);
        expect(toHex(signed.subarray(0, unsigned.length))).to.equal(toHex(unsigned));
        const creds = signed.subarray(unsigned.length);
        expect(new DataView(creds.buffer, creds.byteOffset).getUint32(0)).to.equal(tx.credentials.length);
        expect(decodeSignedTxWithLength(signed).unsignedLength).to.equal(unsigned.length);
      }),
      RUNS,
    );
  });

  it("every encoding starts with codec version 0 and then the type ID (txs) or the tx ID (UTXOs)", () => {
    fc.assert(
      fc.property(arbUnsignedTx, arbUtxo, (tx, utxo) => {
        const txBytes = encodeUnsignedTx(tx);
        expect(toHex(txBytes.subarray(0, 6))).to.equal(`0000${tx.typeId.toString(16).padStart(8, "0")}`);
        const utxoBytes = encodeUtxo(utxo);
        expect(toHex(utxoBytes.subarray(0, 34))).to.equal(`0000${toHex(utxo.txId)}`);
      }),
      { numRuns: 50 },
    );
  });
});
