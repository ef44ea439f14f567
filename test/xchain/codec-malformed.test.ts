import { expect } from "chai";
import fc from "fast-check";
import {
  type BaseTx,
  CodecError,
  type CreateAssetTx,
  decodeCredential,
  decodeInitialState,
  decodeOperation,
  decodeOutput,
  decodeSignedTx,
  decodeTransferableInput,
  decodeTransferableOutput,
  decodeUnsignedTx,
  decodeUtxo,
  encodeSignedTx,
  encodeUnsignedTx,
  encodeUtxo,
  MAX_CODEC_SIZE,
  type SignedTx,
  TypeId,
  type UnsignedTx,
} from "../../src/utxo/codec";
import { arbSignedTx, arbUtxo, concat, expectThrow, hex, id32, toHex } from "./helpers";
import { AD_UTXO, AG_BASE_TX } from "./vectors";

/** avalanchego base_tx_test.go BaseTx, unsigned (codec version + tx). */
const BASE_TX_UNSIGNED = hex(AG_BASE_TX.signedNoCredentials).slice(0, -4);

const DECODERS: [string, (bytes: Uint8Array) => unknown][] = [
  ["decodeUnsignedTx", decodeUnsignedTx],
  ["decodeSignedTx", decodeSignedTx],
  ["decodeUtxo", decodeUtxo],
  ["decodeOutput", decodeOutput],
  ["decodeTransferableOutput", decodeTransferableOutput],
  ["decodeTransferableInput", decodeTransferableInput],
  ["decodeOperation", decodeOperation],
  ["decodeInitialState", decodeInitialState],
  ["decodeCredential", decodeCredential],
];

function simpleBaseTx(): BaseTx {
  return {
    typeId: TypeId.BaseTx,
    networkId: 1,
    blockchainId: id32(1),
    outputs: [{ assetId: id32(2), output: { typeId: TypeId.Secp256k1TransferOutput, amount: 5n, locktime: 0n, threshold: 1, addresses: [new Uint8Array(20)] } }],
    inputs: [],
    memo: new Uint8Array(0),
  };
}

describe("utxo/codec rejects malformed bytes", () => {
  describe("truncation and trailing bytes", () => {
    it("names the offset, the primitive and the field: the BaseTx vector cut inside the input amount", () => {
      // From the end: memo (4 + 4 bytes), signature indices (4 + 4), then the 8-byte amount.
      const amountOffset = BASE_TX_UNSIGNED.length - 8 - 8 - 8;
      const cut = BASE_TX_UNSIGNED.slice(0, amountOffset + 4);
      const error = expectThrow(
        () => decodeUnsignedTx(cut),
        CodecError,
        `unexpected end of input at offset ${amountOffset} reading uint64 (BaseTx.inputs[0].input.amount): need 8 bytes, 4 remain`,
      );
      expect(error.offset).to.equal(amountOffset);
      expect(error.path).to.equal("BaseTx.inputs[0].input.amount");
    });

    it("every strict prefix of a signed tx or UTXO fails with 'unexpected end of input'", () => {
      fc.assert(
        fc.property(arbSignedTx, fc.double({ min: 0, max: 1, noNaN: true }), (tx, cutAt) => {
          const bytes = encodeSignedTx(tx);
          const prefix = bytes.subarray(0, Math.floor(cutAt * bytes.length));
          if (prefix.length === bytes.length) return;
          expectThrow(() => decodeSignedTx(prefix), CodecError, "unexpected end of input");
        }),
        { numRuns: 200 },
      );
      fc.assert(
        fc.property(arbUtxo, fc.nat(), (utxo, cutAt) => {
          const bytes = encodeUtxo(utxo);
          expectThrow(() => decodeUtxo(bytes.subarray(0, cutAt % bytes.length)), CodecError, "unexpected end of input");
        }),
        { numRuns: 100 },
      );
    });

    it("every decoder rejects trailing bytes", () => {
      expectThrow(() => decodeUnsignedTx(concat(BASE_TX_UNSIGNED, hex("00"))), CodecError, "trailing bytes after BaseTx: 1 unread byte(s) at offset 226");
      expectThrow(() => decodeSignedTx(concat(hex(AG_BASE_TX.signedNoCredentials), hex("ff"))), CodecError, "trailing bytes after SignedTx");
      expectThrow(() => decodeUtxo(concat(hex(AD_UTXO), hex("0000"))), CodecError, "trailing bytes after Utxo: 2 unread byte(s)");
      // The unsigned bytes followed by a credentials slice are not unsigned bytes.
      expectThrow(() => decodeUnsignedTx(hex(AG_BASE_TX.signedNoCredentials)), CodecError, "trailing bytes after BaseTx: 4 unread byte(s)");
      fc.assert(
        fc.property(arbSignedTx, fc.uint8Array({ minLength: 1, maxLength: 8 }), (tx, extra) => {
          expectThrow(() => decodeSignedTx(concat(encodeSignedTx(tx), extra)), CodecError, "trailing bytes");
        }),
        { numRuns: 50 },
      );
    });

    it("empty input and a lone version byte", () => {
      for (const [name, decode] of DECODERS) {
        const e = expectThrow(() => decode(new Uint8Array(0)), CodecError, "unexpected end of input at offset 0");
        expect(e.offset, name).to.equal(0);
      }
      expectThrow(() => decodeSignedTx(hex("00")), CodecError, "unexpected end of input at offset 0 reading uint16 (SignedTx.codecVersion)");
    });

    it("random bytes only ever fail with a CodecError", () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
          for (const [, decode] of DECODERS) {
            try {
              decode(bytes);
            } catch (error) {
              expect(error).to.be.instanceOf(CodecError);
            }
          }
        }),
        { numRuns: 300 },
      );
    });
  });

  describe("codec version, type IDs, lengths", () => {
    it("rejects a codec version other than 0", () => {
      const bytes = BASE_TX_UNSIGNED.slice();
      bytes[1] = 1;
      const e = expectThrow(() => decodeUnsignedTx(bytes), CodecError, "unsupported codec version 1 (expected 0) at offset 0 (UnsignedTx.codecVersion)");
      expect(e.offset).to.equal(0);
      const utxo = hex(AD_UTXO);
      utxo[0] = 0x80;
      expectThrow(() => decodeUtxo(utxo), CodecError, "unsupported codec version 32768");
    });

    it("rejects unknown transaction type IDs and type IDs that are not transactions", () => {
      const bytes = BASE_TX_UNSIGNED.slice();
      bytes[5] = 20;
      expectThrow(() => decodeUnsignedTx(bytes), CodecError, "unknown type ID 20 is not allowed here", "at offset 2 (UnsignedTx.typeId)");
      bytes[5] = 7;
      expectThrow(() => decodeUnsignedTx(bytes), CodecError, "type ID 7 (Secp256k1TransferOutput) is not allowed here (expected 0 (BaseTx), 1 (CreateAssetTx)");
    });

    it("accepts only the output, input, operation and credential types the node's interfaces allow at each position", () => {
      // A transaction output must be a secp256k1fx TransferOutput (the only TransferableOut).
      const nftOut = hex(`${"11".repeat(32)} 0000000b 00000000 00000000 0000000000000000 00000000 00000000`);
      expectThrow(() => decodeTransferableOutput(nftOut), CodecError, "type ID 11 (NftTransferOutput) is not allowed here (expected 7 (Secp256k1TransferOutput)) at offset 32 (TransferableOutput.output.typeId)");
      // ... but a UTXO may hold an NFT transfer output.
      const utxo = decodeUtxo(concat(hex("0000"), id32(1), hex("00000000"), nftOut));
      expect(utxo.output.typeId).to.equal(TypeId.NftTransferOutput);
      // An input must be a secp256k1fx TransferInput.
      const input = hex(`${"22".repeat(32)} 00000000 ${"11".repeat(32)} 00000009 0000000000000001 00000000`);
      expectThrow(() => decodeTransferableInput(input), CodecError, "type ID 9 (Secp256k1Credential) is not allowed here (expected 5 (Secp256k1TransferInput))");
      // An operation must be one of the five fx operations.
      const op = hex(`${"11".repeat(32)} 00000000 00000007`);
      expectThrow(() => decodeOperation(op), CodecError, "type ID 7 (Secp256k1TransferOutput) is not allowed here (expected 8 (Secp256k1MintOperation), 12 (NftMintOperation)");
      // A credential must be one of the three credential types.
      expectThrow(() => decodeCredential(hex("00000005 00000000")), CodecError, "type ID 5 (Secp256k1TransferInput) is not allowed here (expected 9 (Secp256k1Credential), 14 (NftCredential), 19 (PropertyCredential))");
      // An initial state output may not be an input.
      expectThrow(() => decodeInitialState(hex("00000000 00000001 00000005")), CodecError, "type ID 5 (Secp256k1TransferInput) is not allowed here", "InitialState.outputs[0].typeId");
    });

    it("rejects slice counts above the codec maximum, and counts the input cannot hold at the first missing element", () => {
      expectThrow(() => decodeCredential(hex("00000009 ffffffff")), CodecError, "slice length 4294967295 exceeds the codec maximum 2147483647 at offset 4 (Credential.signatures)");
      expectThrow(() => decodeCredential(hex("00000009 7fffffff 00")), CodecError, "unexpected end of input at offset 8 reading [65]byte (Credential.signatures[0]): need 65 bytes, 1 remain");
      const memoTooLong = concat(hex("0000 00000000 00000001"), id32(), hex("00000000 00000000 00001000 0102"));
      expectThrow(() => decodeUnsignedTx(memoTooLong), CodecError, "BaseTx.memo");
    });

    it("rejects a name that is not UTF-8", () => {
      const tx: CreateAssetTx = { ...simpleBaseTx(), typeId: TypeId.CreateAssetTx, name: "ab", symbol: "C", denomination: 0, initialStates: [] };
      const bytes = encodeUnsignedTx(tx);
      const at = toHex(bytes).indexOf("00026162") / 2 + 2; // name length 2, then "ab"
      bytes[at] = 0xff;
      expectThrow(() => decodeUnsignedTx(bytes), CodecError, "string of 2 bytes is not valid UTF-8", "(CreateAssetTx.name)");
    });

    it("refuses inputs above the reference codec's 256 KiB limit", () => {
      const big = new Uint8Array(MAX_CODEC_SIZE + 1);
      expectThrow(() => decodeSignedTx(big), CodecError, `input is ${MAX_CODEC_SIZE + 1} bytes, above the reference codec's limit of ${MAX_CODEC_SIZE} bytes`);
      const tx: BaseTx = { ...simpleBaseTx(), memo: new Uint8Array(MAX_CODEC_SIZE) };
      expectThrow(() => encodeUnsignedTx(tx), CodecError, "exceed the reference codec's limit");
    });
  });

  describe("encoding refuses values the codec cannot carry", () => {
    const withOutput = (patch: Record<string, unknown>): UnsignedTx =>
      ({ ...simpleBaseTx(), outputs: [{ assetId: id32(2), output: { ...simpleBaseTx().outputs[0]!.output, ...patch } }] }) as unknown as UnsignedTx;

    it("wrong byte lengths name the field", () => {
      expectThrow(() => encodeUnsignedTx(withOutput({ addresses: [new Uint8Array(19)] })), CodecError, "cannot encode BaseTx.outputs[0].output.addresses[0]: expected 20 bytes, got 19");
      expectThrow(() => encodeUnsignedTx({ ...simpleBaseTx(), blockchainId: new Uint8Array(33) }), CodecError, "BaseTx.blockchainId: expected 32 bytes, got 33");
      const badSig = { unsignedTx: simpleBaseTx(), credentials: [{ typeId: 9, signatures: [new Uint8Array(64)] }] } as SignedTx;
      expectThrow(() => encodeSignedTx(badSig), CodecError, "SignedTx.credentials[0].signatures[0]: expected 65 bytes, got 64");
    });

    it("out-of-range integers", () => {
      expectThrow(() => encodeUnsignedTx(withOutput({ amount: -1n })), CodecError, "BaseTx.outputs[0].output.amount: expected a bigint in [0, 2^64 - 1] (uint64), got -1n");
      expectThrow(() => encodeUnsignedTx(withOutput({ amount: 1n << 64n })), CodecError, "uint64");
      expectThrow(() => encodeUnsignedTx(withOutput({ amount: 5 })), CodecError, "got number 5");
      expectThrow(() => encodeUnsignedTx(withOutput({ threshold: 1.5 })), CodecError, "BaseTx.outputs[0].output.threshold: expected an integer in [0, 4294967295] (uint32), got number 1.5");
      expectThrow(() => encodeUnsignedTx({ ...simpleBaseTx(), networkId: 2 ** 32 }), CodecError, "BaseTx.networkId");
      const tx = { ...simpleBaseTx(), typeId: TypeId.CreateAssetTx, name: "a", symbol: "B", denomination: 256, initialStates: [] } as CreateAssetTx;
      expectThrow(() => encodeUnsignedTx(tx), CodecError, "CreateAssetTx.denomination: expected an integer in [0, 255] (uint8)");
    });

    it("type IDs that are not allowed at a position", () => {
      expectThrow(() => encodeUnsignedTx(withOutput({ typeId: TypeId.NftTransferOutput, groupId: 0, payload: new Uint8Array(0) })), CodecError, "BaseTx.outputs[0].output.typeId: type ID 11 (NftTransferOutput) is not allowed here");
      expectThrow(() => encodeUnsignedTx({ ...simpleBaseTx(), typeId: 9 } as unknown as UnsignedTx), CodecError, "UnsignedTx.typeId: type ID 9 (Secp256k1Credential) is not allowed here");
    });

    it("strings that are not encodable and values of the wrong kind", () => {
      const tx = { ...simpleBaseTx(), typeId: TypeId.CreateAssetTx, name: "a\ud800", symbol: "B", denomination: 0, initialStates: [] } as CreateAssetTx;
      expectThrow(() => encodeUnsignedTx(tx), CodecError, "CreateAssetTx.name: string contains a lone UTF-16 surrogate");
      expectThrow(() => encodeUnsignedTx({ ...simpleBaseTx(), memo: "hi" } as unknown as UnsignedTx), CodecError, "BaseTx.memo: expected a Uint8Array");
      expectThrow(() => encodeUnsignedTx({ ...simpleBaseTx(), outputs: {} } as unknown as UnsignedTx), CodecError, "BaseTx.outputs: expected an array");
      expectThrow(() => encodeSignedTx(null as unknown as SignedTx), CodecError, "SignedTx: expected an object, got null");
    });
  });
});
