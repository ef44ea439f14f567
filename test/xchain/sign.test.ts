import { expect } from "chai";
import fc from "fast-check";
import { sha256 } from "@noble/hashes/sha2.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { decodeCb58, decodePrivateKey, encodeCb58, formatChainAddress } from "../../src/encoding";
import {
  type BaseTx,
  CodecError,
  type Credential,
  credentialTypeIdsOf,
  decodeSignedTx,
  encodeSignedTx,
  encodeUnsignedTx,
  type OperationTx,
  parseSignedTx,
  publicKeyFromPrivateKey,
  recoverPublicKey,
  recoverSigners,
  SignatureError,
  shortIdFromPrivateKey,
  shortIdFromPublicKey,
  signHash,
  signTx,
  signUnsignedTx,
  txId,
  TypeId,
  utxoId,
  validateSignedTx,
  TxValidationError,
} from "../../src/utxo/codec";
import { concat, expectThrow, hex, id32, toHex } from "./helpers";
import { AG_BASE_TX, AG_EXPORT_TX, AG_IMPORT_TX, AG_SIGNING_VECTORS, AG_TEST_KEYS, AJ_UTXO_IDS, EWOQ } from "./vectors";

const key0 = (): Uint8Array => decodeCb58(AG_TEST_KEYS[0]);
const ewoqKey = (): Uint8Array => decodePrivateKey(EWOQ.privateKey);
const N = secp256k1.Point.CURVE().n;

/** A valid local-network BaseTx spending one UTXO of the ewoq key. */
function ewoqBaseTx(): BaseTx {
  const ewoq = shortIdFromPrivateKey(ewoqKey());
  return {
    typeId: TypeId.BaseTx,
    networkId: 12345,
    blockchainId: id32(9, 9, 9),
    outputs: [
      {
        assetId: id32(0xaa),
        output: { typeId: TypeId.Secp256k1TransferOutput, amount: 900n, locktime: 0n, threshold: 1, addresses: [ewoq] },
      },
    ],
    inputs: [
      {
        txId: id32(1),
        outputIndex: 0,
        assetId: id32(0xaa),
        input: { typeId: TypeId.Secp256k1TransferInput, amount: 1000n, signatureIndices: [0] },
      },
    ],
    memo: new Uint8Array(0),
  };
}

describe("utxo/codec signing and IDs", () => {
  describe("keys and addresses", () => {
    it("the ewoq key controls X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u", () => {
      expect(toHex(ewoqKey())).to.equal(EWOQ.privateKeyHex);
      const shortId = shortIdFromPrivateKey(ewoqKey());
      expect(formatChainAddress(shortId, "local")).to.equal(EWOQ.xAddress);
      expect(toHex(shortIdFromPublicKey(publicKeyFromPrivateKey(ewoqKey())))).to.equal(toHex(shortId));
    });

    it("short ID = ripemd160(sha256(33-byte compressed public key)), for compressed and uncompressed input", () => {
      const compressed = publicKeyFromPrivateKey(key0());
      expect(compressed).to.have.length(33);
      const uncompressed = secp256k1.getPublicKey(key0(), false);
      expect(toHex(shortIdFromPublicKey(uncompressed))).to.equal(toHex(shortIdFromPublicKey(compressed)));
      expect(toHex(shortIdFromPublicKey(compressed))).to.equal("fceda8f90fcb5d30614b99d79fc4baa293077626");
    });

    it("rejects invalid private keys", () => {
      expectThrow(() => publicKeyFromPrivateKey(new Uint8Array(32)), SignatureError, "not a valid secp256k1 private key");
      expectThrow(() => publicKeyFromPrivateKey(new Uint8Array(31)), SignatureError, "expected 32 bytes, got 31");
    });
  });

  describe("signatures", () => {
    for (const vector of AG_SIGNING_VECTORS) {
      it(`reproduces the reference signature of sha256(${JSON.stringify(vector.message)}) and recovers the key`, () => {
        const hash = sha256(new TextEncoder().encode(vector.message));
        const signature = signHash(hash, key0());
        expect(toHex(signature)).to.equal(vector.signature);
        expect(toHex(recoverPublicKey(hash, signature))).to.equal(toHex(publicKeyFromPrivateKey(key0())));
      });
    }

    it("signatures are low-s, [r || s || v] with v in {0, 1}, and deterministic", () => {
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (hash) => {
          const sig = signHash(hash, ewoqKey());
          const s = BigInt(`0x${toHex(sig.subarray(32, 64))}`);
          expect(s <= N >> 1n).to.equal(true);
          expect(sig[64]).to.be.oneOf([0, 1]);
          expect(toHex(signHash(hash, ewoqKey()))).to.equal(toHex(sig));
          expect(toHex(recoverPublicKey(hash, sig))).to.equal(toHex(publicKeyFromPrivateKey(ewoqKey())));
        }),
        { numRuns: 25 },
      );
    });

    it("recovery rejects what the node rejects: high s, recovery byte > 3, zero r", () => {
      const hash = sha256(new TextEncoder().encode("hello world"));
      const sig = hex(AG_SIGNING_VECTORS[0].signature);
      // (r, n - s, v ^ 1) is the same signature with a high s: valid ECDSA, but the node calls it mutated.
      const s = BigInt(`0x${toHex(sig.subarray(32, 64))}`);
      const highS = sig.slice();
      highS.set(hex((N - s).toString(16).padStart(64, "0")), 32);
      highS[64] = sig[64]! ^ 1;
      const e1 = expectThrow(() => recoverPublicKey(hash, highS), SignatureError, "high s");
      expect(e1.nodeMessage).to.equal("signature was mutated from its original format");
      const badV = sig.slice();
      badV[64] = 4;
      const e2 = expectThrow(() => recoverPublicKey(hash, badV), SignatureError, "recovery byte is 4");
      expect(e2.nodeMessage).to.equal("wasn't expecting a compressed key");
      const zeroR = sig.slice();
      zeroR.fill(0, 0, 32);
      expectThrow(() => recoverPublicKey(hash, zeroR), SignatureError, "out of range");
      expectThrow(() => recoverPublicKey(hash, sig.subarray(0, 64)), SignatureError, "expected 65 bytes");
    });
  });

  describe("transaction signing (avalanchego vms/avm/txs tests: keys[0] signs twice, in two credentials)", () => {
    for (const [name, vector] of [
      ["BaseTx", AG_BASE_TX],
      ["ExportTx", AG_EXPORT_TX],
      ["ImportTx", AG_IMPORT_TX],
    ] as const) {
      it(`${name}: signatures over sha256(unsigned bytes) match the test's credential bytes and signed tx ID`, () => {
        const unsigned = hex(vector.signedNoCredentials).slice(0, -4);
        const hash = sha256(unsigned);
        const sig = signHash(hash, key0());
        const credentials: Credential[] = [0, 1].map(() => ({ typeId: TypeId.Secp256k1Credential, signatures: [sig, sig] }));
        const tx = decodeSignedTx(concat(unsigned, hex("00000000")));
        const signed = encodeSignedTx({ unsignedTx: tx.unsignedTx, credentials });
        expect(toHex(signed)).to.equal(toHex(concat(unsigned, hex("00000002"), hex(vector.credentials))));
        expect(encodeCb58(txId(signed))).to.equal(vector.idSigned);
        const signers = recoverSigners(signed);
        expect(signers.map((list) => list.map(toHex))).to.deep.equal([
          ["fceda8f90fcb5d30614b99d79fc4baa293077626", "fceda8f90fcb5d30614b99d79fc4baa293077626"],
          ["fceda8f90fcb5d30614b99d79fc4baa293077626", "fceda8f90fcb5d30614b99d79fc4baa293077626"],
        ]);
      });
    }

    it("the BaseTx vector carries 2 credentials for 1 input, which the node's syntactic check refuses", () => {
      const signed = concat(hex(AG_BASE_TX.signedNoCredentials).slice(0, -4), hex("00000002"), hex(AG_BASE_TX.credentials));
      const error = expectThrow(() => validateSignedTx(decodeSignedTx(signed)), TxValidationError, "2 credential(s) for 1 input(s)");
      expect(error.code).to.equal("wrong-number-of-credentials");
      expect(error.nodeMessage).to.equal("wrong number of credentials: 2 != 1");
    });
  });

  describe("sign and recover round trip with the ewoq key", () => {
    it("signUnsignedTx -> encodeSignedTx -> recoverSigners gives back the ewoq X-local address", () => {
      const unsigned = ewoqBaseTx();
      const unsignedBytes = encodeUnsignedTx(unsigned);
      const credentials = signUnsignedTx(unsignedBytes, [[ewoqKey()]]);
      expect(credentials).to.have.length(1);
      expect(credentials[0]!.typeId).to.equal(TypeId.Secp256k1Credential);
      const signed = encodeSignedTx({ unsignedTx: unsigned, credentials });
      const signers = recoverSigners(signed);
      expect(signers).to.have.length(1);
      expect(formatChainAddress(signers[0]![0]!, "local")).to.equal(EWOQ.xAddress);
      // From the object form too.
      expect(recoverSigners({ unsignedTx: unsigned, credentials }).map((l) => l.map(toHex))).to.deep.equal(signers.map((l) => l.map(toHex)));
      validateSignedTx(decodeSignedTx(signed), { networkId: 12345, blockchainId: id32(9, 9, 9) });
    });

    it("signTx returns the signed tx, its bytes and its ID; parseSignedTx splits them like the node", () => {
      const { tx, bytes, txId: id } = signTx(ewoqBaseTx(), [[ewoqKey()]]);
      expect(toHex(bytes)).to.equal(toHex(encodeSignedTx(tx)));
      expect(toHex(id)).to.equal(toHex(sha256(bytes)));
      const parsed = parseSignedTx(bytes);
      expect(toHex(parsed.unsignedBytes)).to.equal(toHex(encodeUnsignedTx(tx.unsignedTx)));
      expect(toHex(parsed.txId)).to.equal(toHex(id));
      expect(parsed.tx).to.deep.equal(tx);
    });

    it("a signature over other bytes recovers a different address", () => {
      const unsigned = ewoqBaseTx();
      const credentials = signUnsignedTx(encodeUnsignedTx(unsigned), [[ewoqKey()]]);
      const tampered: BaseTx = { ...unsigned, memo: hex("01") };
      const signers = recoverSigners({ unsignedTx: tampered, credentials });
      expect(formatChainAddress(signers[0]![0]!, "local")).to.not.equal(EWOQ.xAddress);
    });

    it("refuses a key list count that does not match the credentials the tx needs", () => {
      const bytes = encodeUnsignedTx(ewoqBaseTx());
      const error = expectThrow(() => signUnsignedTx(bytes, [[ewoqKey()], [ewoqKey()]]), SignatureError, "2 key list(s)", "needs 1 credential(s)");
      expect(error.nodeMessage).to.equal("wrong number of credentials: 2 != 1");
      expectThrow(() => signUnsignedTx(bytes, [[new Uint8Array(32)]]), SignatureError, "keysPerInput[0][0]");
      expectThrow(() => signUnsignedTx(bytes.subarray(0, 10), [[ewoqKey()]]), CodecError, "unexpected end of input");
    });

    it("credential types follow the operations' feature extensions (inputs first)", () => {
      const base = ewoqBaseTx();
      const op = (operation: OperationTx["operations"][number]["operation"]) => ({ assetId: id32(7), utxoIds: [{ txId: id32(2), outputIndex: 0 }], operation });
      const tx: OperationTx = {
        ...base,
        typeId: TypeId.OperationTx,
        operations: [
          op({ typeId: TypeId.NftTransferOperation, input: { signatureIndices: [0] }, output: { groupId: 0, payload: hex("00"), locktime: 0n, threshold: 0, addresses: [] } }),
          op({ typeId: TypeId.PropertyBurnOperation, signatureIndices: [0] }),
          op({
            typeId: TypeId.Secp256k1MintOperation,
            mintInput: { signatureIndices: [0] },
            mintOutput: { locktime: 0n, threshold: 0, addresses: [] },
            transferOutput: { amount: 1n, locktime: 0n, threshold: 0, addresses: [] },
          }),
        ],
      };
      expect(credentialTypeIdsOf(tx)).to.deep.equal([9, 14, 19, 9]);
      const creds = signUnsignedTx(encodeUnsignedTx(tx), [[ewoqKey()], [ewoqKey()], [], [ewoqKey(), ewoqKey()]]);
      expect(creds.map((c) => [c.typeId, c.signatures.length])).to.deep.equal([
        [9, 1],
        [14, 1],
        [19, 0],
        [9, 2],
      ]);
    });
  });

  describe("IDs", () => {
    it("tx ID = sha256(signed bytes)", () => {
      const signed = hex(AG_BASE_TX.signedNoCredentials);
      expect(encodeCb58(txId(signed))).to.equal(AG_BASE_TX.idNoCredentials);
    });

    for (const v of AJ_UTXO_IDS) {
      it(`UTXO ID of (${v.txId.slice(0, 4)}..., ${v.outputIndex}) is ${v.utxoId} (avalanchejs utxoId.test.ts)`, () => {
        expect(encodeCb58(utxoId(hex(v.txId), v.outputIndex))).to.equal(v.utxoId);
      });
    }

    it("UTXO ID = sha256(uint64 big-endian index || txID) (avalanchego ids.ID.Prefix)", () => {
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.integer({ min: 0, max: 0xffff_ffff }), (id, index) => {
          const preimage = concat(hex(index.toString(16).padStart(16, "0")), id);
          expect(toHex(utxoId(id, index))).to.equal(toHex(sha256(preimage)));
        }),
        { numRuns: 50 },
      );
      expectThrow(() => utxoId(new Uint8Array(31), 0), CodecError, "32-byte transaction ID");
      expectThrow(() => utxoId(new Uint8Array(32), -1), CodecError, "output index");
      expectThrow(() => utxoId(new Uint8Array(32), 2 ** 32), CodecError, "output index");
    });
  });
});
