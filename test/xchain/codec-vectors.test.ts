import { expect } from "chai";
import { decodeCb58, encodeCb58 } from "../../src/encoding";
import {
  type BaseTx,
  type CreateAssetTx,
  decodeCredential,
  decodeInitialState,
  decodeOutput,
  decodeSignedTx,
  decodeTransferableInput,
  decodeTransferableOutput,
  decodeUnsignedTx,
  decodeUtxo,
  decodeOperation,
  encodeCredential,
  encodeInitialState,
  encodeOperation,
  encodeOutput,
  encodeSignedTx,
  encodeTransferableInput,
  encodeTransferableOutput,
  encodeUnsignedTx,
  encodeUtxo,
  type ExportTx,
  type FxOperation,
  type ImportTx,
  type Output,
  type Secp256k1TransferOutput,
  shortIdFromPrivateKey,
  txId,
  TypeId,
} from "../../src/utxo/codec";
import { concat, hex, id32, localGenesisAvaxTx, toHex } from "./helpers";
import {
  AD_BASE_TX,
  AD_CREDENTIAL,
  AD_INITIAL_STATE,
  AD_NFT_MINT_OP,
  AD_NFT_MINT_OUTPUT,
  AD_NFT_TRANSFER_OP,
  AD_NFT_TRANSFER_OUTPUT,
  AD_SECP_MINT_OUTPUT,
  AD_SECP_TRANSFER_INPUT,
  AD_SECP_TRANSFER_OUTPUT,
  AD_SIG_0,
  AD_SIG_1,
  AD_TRANSFERABLE_INPUT,
  AD_TRANSFERABLE_OUTPUT,
  AD_UTXO,
  ADDR_A,
  ADDR_B,
  AG_BASE_TX,
  AG_CREATE_ASSET_TX,
  AG_CREATE_ASSET_TX_AGAIN,
  AG_EXPORT_TX,
  AG_IMPORT_TX,
  AG_KEY0_ADDRESS_CB58,
  AG_LOCAL_GENESIS,
  AG_TEST_KEYS,
} from "./vectors";

const NO_CREDENTIALS = hex("00000000");
/** The unsigned bytes are the signed-without-credentials bytes minus the empty credentials slice. */
const unsignedPart = (signedNoCredentials: string): Uint8Array => hex(signedNoCredentials).slice(0, -4);

const key0Address = (): Uint8Array => shortIdFromPrivateKey(decodeCb58(AG_TEST_KEYS[0]));
const ASSET_0_31 = hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
const CHAIN_FFEE = hex("ffffffffeeeeeeeeddddddddccccccccbbbbbbbbaaaaaaaa9999999988888888");
const TX_F1E1 = hex("f1e1d1c1b1a191817161514131211101f0e0d0c0b0a090807060504030201000");
const ID_0F2F = hex("0f2f4f6f8eaeceee0d2d4d6d8cacccec0b2b4b6b8aaacaea0929496988a8c8e8");
const ID_1F3F = hex("1f3f5f7f9ebedefe1d3d5d7d9cbcdcfc1b3b5b7b9abadafa1939597998b8d8f8");
const CHAIN_1F8F = hex("1f8f9f0f1e8e9e0e2d7dadfd2c7cacfc3b6bbbeb3a6abaea4959c9d94858c8d8");

const secpOutAB = (): Secp256k1TransferOutput => ({
  typeId: TypeId.Secp256k1TransferOutput,
  amount: 12345n,
  locktime: 54321n,
  threshold: 1,
  addresses: [hex(ADDR_A), hex(ADDR_B)],
});

describe("utxo/codec vectors", () => {
  describe("avalanchego vms/avm/txs tests", () => {
    // The structures below transcribe the Go struct literals of each test.
    const baseTx = (): BaseTx => ({
      typeId: TypeId.BaseTx,
      networkId: 10, // constants.UnitTestID
      blockchainId: id32(5, 4, 3, 2, 1),
      outputs: [
        {
          assetId: id32(1, 2, 3),
          output: { typeId: TypeId.Secp256k1TransferOutput, amount: 12345n, locktime: 0n, threshold: 1, addresses: [key0Address()] },
        },
      ],
      inputs: [
        {
          txId: hex("fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0efeeedecebeae9e8e7e6e5e4e3e2e1e0"),
          outputIndex: 1,
          assetId: id32(1, 2, 3),
          input: { typeId: TypeId.Secp256k1TransferInput, amount: 54321n, signatureIndices: [2] },
        },
      ],
      memo: hex("00010203"),
    });

    it("keys[0] of secp256k1.TestKeys() has the short ID the tests embed (fceda8f9...)", () => {
      expect(toHex(key0Address())).to.equal("fceda8f90fcb5d30614b99d79fc4baa293077626");
      expect(encodeCb58(key0Address())).to.equal(AG_KEY0_ADDRESS_CB58);
    });

    it("BaseTx: encodes byte for byte, decodes back, and has the test's tx ID", () => {
      const bytes = unsignedPart(AG_BASE_TX.signedNoCredentials);
      expect(toHex(encodeUnsignedTx(baseTx()))).to.equal(toHex(bytes));
      expect(decodeUnsignedTx(bytes)).to.deep.equal(baseTx());
      const signed = encodeSignedTx({ unsignedTx: baseTx(), credentials: [] });
      expect(toHex(signed)).to.equal(AG_BASE_TX.signedNoCredentials);
      expect(encodeCb58(txId(signed))).to.equal(AG_BASE_TX.idNoCredentials);
    });

    it("BaseTx with two credentials: decodes the signed bytes, re-encodes them, tx ID matches", () => {
      const signed = concat(unsignedPart(AG_BASE_TX.signedNoCredentials), hex("00000002"), hex(AG_BASE_TX.credentials));
      const tx = decodeSignedTx(signed);
      expect(tx.unsignedTx).to.deep.equal(baseTx());
      expect(tx.credentials).to.have.length(2);
      expect(tx.credentials.map((c) => c.typeId)).to.deep.equal([9, 9]);
      expect(toHex(encodeSignedTx(tx))).to.equal(toHex(signed));
      expect(encodeCb58(txId(signed))).to.equal(AG_BASE_TX.idSigned);
    });

    it("CreateAssetTx (TestCreateAssetTxSerialization): Volatility Index / VIX / 2", () => {
      const tx: CreateAssetTx = {
        typeId: TypeId.CreateAssetTx,
        networkId: 2,
        blockchainId: CHAIN_FFEE,
        outputs: [{ assetId: ASSET_0_31, output: secpOutAB() }],
        inputs: [
          {
            txId: TX_F1E1,
            outputIndex: 5,
            assetId: ASSET_0_31,
            input: { typeId: TypeId.Secp256k1TransferInput, amount: 123456789n, signatureIndices: [3, 7] },
          },
        ],
        memo: hex("00010203"),
        name: "Volatility Index",
        symbol: "VIX",
        denomination: 2,
        initialStates: [{ fxIndex: 0, outputs: [secpOutAB()] }],
      };
      const signed = hex(AG_CREATE_ASSET_TX);
      expect(toHex(encodeSignedTx({ unsignedTx: tx, credentials: [] }))).to.equal(toHex(signed));
      expect(decodeSignedTx(signed)).to.deep.equal({ unsignedTx: tx, credentials: [] });
    });

    it("CreateAssetTx (TestCreateAssetTxSerializationAgain): three outputs, a mint output initial state", () => {
      const addresses = AG_TEST_KEYS.slice(0, 3).map((k) => shortIdFromPrivateKey(decodeCb58(k)));
      const tx: CreateAssetTx = {
        typeId: TypeId.CreateAssetTx,
        networkId: 10,
        blockchainId: id32(5, 4, 3, 2, 1),
        outputs: addresses.map((address) => ({
          assetId: id32(1, 2, 3),
          output: { typeId: TypeId.Secp256k1TransferOutput, amount: 20n * 1_000_000_000_000n, locktime: 0n, threshold: 1, addresses: [address] },
        })),
        inputs: [],
        memo: hex("00010203"),
        name: "name",
        symbol: "symb",
        denomination: 0,
        initialStates: [
          { fxIndex: 0, outputs: [{ typeId: TypeId.Secp256k1MintOutput, locktime: 0n, threshold: 1, addresses: [addresses[0]!] }] },
        ],
      };
      const signed = hex(AG_CREATE_ASSET_TX_AGAIN);
      expect(toHex(encodeSignedTx({ unsignedTx: tx, credentials: [] }))).to.equal(toHex(signed));
      expect(decodeSignedTx(signed).unsignedTx).to.deep.equal(tx);
    });

    const inputOf1F3F = () => ({
      txId: ID_0F2F,
      outputIndex: 0,
      assetId: ID_1F3F,
      input: { typeId: TypeId.Secp256k1TransferInput, amount: 1000n, signatureIndices: [0] },
    });

    it("ExportTx: bytes, tx IDs before and after the test's two credentials", () => {
      const tx: ExportTx = {
        typeId: TypeId.ExportTx,
        networkId: 2,
        blockchainId: CHAIN_FFEE,
        outputs: [],
        inputs: [inputOf1F3F() as ExportTx["inputs"][number]],
        memo: hex("00010203"),
        destinationChain: CHAIN_1F8F,
        exportedOutputs: [],
      };
      const bytes = unsignedPart(AG_EXPORT_TX.signedNoCredentials);
      expect(toHex(encodeUnsignedTx(tx))).to.equal(toHex(bytes));
      expect(decodeUnsignedTx(bytes)).to.deep.equal(tx);
      expect(encodeCb58(txId(concat(bytes, NO_CREDENTIALS)))).to.equal(AG_EXPORT_TX.idNoCredentials);
      const signed = concat(bytes, hex("00000002"), hex(AG_EXPORT_TX.credentials));
      expect(toHex(encodeSignedTx(decodeSignedTx(signed)))).to.equal(toHex(signed));
      expect(encodeCb58(txId(signed))).to.equal(AG_EXPORT_TX.idSigned);
    });

    it("ImportTx: bytes, tx IDs before and after the test's two credentials", () => {
      const tx: ImportTx = {
        typeId: TypeId.ImportTx,
        networkId: 2,
        blockchainId: CHAIN_FFEE,
        outputs: [],
        inputs: [],
        memo: hex("00010203"),
        sourceChain: CHAIN_1F8F,
        importedInputs: [inputOf1F3F() as ImportTx["importedInputs"][number]],
      };
      const bytes = unsignedPart(AG_IMPORT_TX.signedNoCredentials);
      expect(toHex(encodeUnsignedTx(tx))).to.equal(toHex(bytes));
      expect(decodeUnsignedTx(bytes)).to.deep.equal(tx);
      expect(encodeCb58(txId(concat(bytes, NO_CREDENTIALS)))).to.equal(AG_IMPORT_TX.idNoCredentials);
      const signed = concat(bytes, hex("00000002"), hex(AG_IMPORT_TX.credentials));
      expect(toHex(encodeSignedTx(decodeSignedTx(signed)))).to.equal(toHex(signed));
      expect(encodeCb58(txId(signed))).to.equal(AG_IMPORT_TX.idSigned);
    });
  });

  describe("avalanchego genesis: the local network's native asset ID is its genesis CreateAssetTx ID", () => {
    it(`rebuilds the local AVAX CreateAssetTx and gets ${AG_LOCAL_GENESIS.avaxAssetId}`, () => {
      const tx = localGenesisAvaxTx();
      const id = txId(encodeSignedTx({ unsignedTx: tx, credentials: [] }));
      expect(encodeCb58(id)).to.equal(AG_LOCAL_GENESIS.avaxAssetId);
    });
  });

  describe("avalanche-docs avm-transaction-serialization examples", () => {
    it("SECP256K1 transfer and mint outputs", () => {
      expect(toHex(encodeOutput(secpOutAB()))).to.equal(toHex(hex(AD_SECP_TRANSFER_OUTPUT)));
      expect(decodeOutput(hex(AD_SECP_TRANSFER_OUTPUT))).to.deep.equal(secpOutAB());
      const mint: Output = { typeId: TypeId.Secp256k1MintOutput, locktime: 54321n, threshold: 1, addresses: [hex(ADDR_A), hex(ADDR_B)] };
      expect(toHex(encodeOutput(mint))).to.equal(toHex(hex(AD_SECP_MINT_OUTPUT)));
      expect(decodeOutput(hex(AD_SECP_MINT_OUTPUT))).to.deep.equal(mint);
    });

    it("NFT transfer and mint outputs (type IDs 11 and 10)", () => {
      const transfer: Output = {
        typeId: TypeId.NftTransferOutput,
        groupId: 12345,
        payload: hex("431100"),
        locktime: 54321n,
        threshold: 1,
        addresses: [hex(ADDR_A), hex(ADDR_B)],
      };
      expect(toHex(encodeOutput(transfer))).to.equal(toHex(hex(AD_NFT_TRANSFER_OUTPUT)));
      expect(decodeOutput(hex(AD_NFT_TRANSFER_OUTPUT))).to.deep.equal(transfer);
      const mint: Output = { typeId: TypeId.NftMintOutput, groupId: 12345, locktime: 54321n, threshold: 1, addresses: [hex(ADDR_A), hex(ADDR_B)] };
      expect(toHex(encodeOutput(mint))).to.equal(toHex(hex(AD_NFT_MINT_OUTPUT)));
      expect(decodeOutput(hex(AD_NFT_MINT_OUTPUT))).to.deep.equal(mint);
    });

    it("transferable output and transferable input", () => {
      const out = decodeTransferableOutput(hex(AD_TRANSFERABLE_OUTPUT));
      expect(out).to.deep.equal({ assetId: ASSET_0_31, output: secpOutAB() });
      expect(toHex(encodeTransferableOutput(out))).to.equal(toHex(hex(AD_TRANSFERABLE_OUTPUT)));
      const input = decodeTransferableInput(hex(AD_TRANSFERABLE_INPUT));
      expect(input).to.deep.equal({
        txId: TX_F1E1,
        outputIndex: 5,
        assetId: ASSET_0_31,
        input: { typeId: TypeId.Secp256k1TransferInput, amount: 123456789n, signatureIndices: [7, 3] },
      });
      expect(toHex(encodeTransferableInput(input))).to.equal(toHex(hex(AD_TRANSFERABLE_INPUT)));
      expect(toHex(encodeTransferableInput(input)).endsWith(toHex(hex(AD_SECP_TRANSFER_INPUT)))).to.equal(true);
    });

    it("NFT mint op and NFT transfer op (type IDs 12 and 13; the transfer op's output has no type ID)", () => {
      const mintOp: FxOperation = {
        typeId: TypeId.NftMintOperation,
        mintInput: { signatureIndices: [7, 3] },
        groupId: 12345,
        payload: hex("431100"),
        outputs: [{ locktime: 54321n, threshold: 1, addresses: [hex(ADDR_B)] }],
      };
      // An operation is asset ID + UTXO IDs + the typed fx operation; wrap each example in one.
      const wrap = (op: string): Uint8Array => concat(ASSET_0_31, hex("00000000"), hex(op));
      expect(toHex(encodeOperation({ assetId: ASSET_0_31, utxoIds: [], operation: mintOp }))).to.equal(toHex(wrap(AD_NFT_MINT_OP)));
      expect(decodeOperation(wrap(AD_NFT_MINT_OP)).operation).to.deep.equal(mintOp);
      const transferOp: FxOperation = {
        typeId: TypeId.NftTransferOperation,
        input: { signatureIndices: [7, 3] },
        output: { groupId: 12345, payload: hex("431100"), locktime: 54321n, threshold: 1, addresses: [hex(ADDR_A), hex(ADDR_B)] },
      };
      expect(toHex(encodeOperation({ assetId: ASSET_0_31, utxoIds: [], operation: transferOp }))).to.equal(toHex(wrap(AD_NFT_TRANSFER_OP)));
      expect(decodeOperation(wrap(AD_NFT_TRANSFER_OP)).operation).to.deep.equal(transferOp);
    });

    it("initial state and credential", () => {
      const state = decodeInitialState(hex(AD_INITIAL_STATE));
      expect(state).to.deep.equal({ fxIndex: 0, outputs: [secpOutAB()] });
      expect(toHex(encodeInitialState(state))).to.equal(toHex(hex(AD_INITIAL_STATE)));
      const cred = decodeCredential(hex(AD_CREDENTIAL));
      expect(cred).to.deep.equal({ typeId: TypeId.Secp256k1Credential, signatures: [hex(AD_SIG_0), hex(AD_SIG_1)] });
      expect(toHex(encodeCredential(cred))).to.equal(toHex(hex(AD_CREDENTIAL)));
    });

    it("unsigned BaseTx example (the document omits the codec version)", () => {
      const bytes = concat(hex("0000"), hex(AD_BASE_TX));
      const tx = decodeUnsignedTx(bytes);
      expect(tx.typeId).to.equal(TypeId.BaseTx);
      expect(tx.networkId).to.equal(4);
      expect(tx.outputs).to.deep.equal([{ assetId: ASSET_0_31, output: secpOutAB() }]);
      expect(toHex(encodeUnsignedTx(tx))).to.equal(toHex(bytes));
    });

    it("UTXO example: codec version, txID, output index, asset ID, typed output", () => {
      const utxo = decodeUtxo(hex(AD_UTXO));
      expect(utxo).to.deep.equal({
        txId: hex("f966750f438867c3c9828ddcdbe660e21ccdbb36a9276958f011ba472f75d4e7"),
        outputIndex: 0,
        assetId: ASSET_0_31,
        output: {
          typeId: TypeId.Secp256k1TransferOutput,
          amount: 12345n,
          locktime: 54321n,
          threshold: 1,
          addresses: [hex("000102030405060708090a0b0c0d0e0f10111213"), hex("1415161718191a1b1c1d1e1f2021222324252627")],
        },
      });
      expect(toHex(encodeUtxo(utxo))).to.equal(toHex(hex(AD_UTXO)));
    });
  });
});
