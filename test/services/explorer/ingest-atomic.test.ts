import { expect } from "chai";
import { AtomicTypeId, signAtomicTx, type UnsignedAtomicTx } from "../../../src/cchain/atomic-codec";
import { decodeCb58, encodeCb58, formatBech32Address } from "../../../src/encoding";
import { LOCAL_NETWORK } from "../../../src/network/constants";
import type { ExplorerContext } from "../../../src/services/explorer";
import { decodeAtomicTx, decodeExtData } from "../../../src/services/explorer/ingest/atomic-tx";
import { shortIdFromPrivateKey, TypeId, utxoId } from "../../../src/utxo/codec";

/** The explorer's own reader of contract-chain atomic transactions against the node's encoder. */
const KEY = new Uint8Array(32).fill(7);
const OWNER = shortIdFromPrivateKey(KEY);
const AVAX = decodeCb58(LOCAL_NETWORK.nativeAsset.id);
const X = decodeCb58(LOCAL_NETWORK.xChainId);
const C = decodeCb58(LOCAL_NETWORK.cChainId);
const context: ExplorerContext = { networkId: LOCAL_NETWORK.networkId, hrp: "local", nativeAssetId: LOCAL_NETWORK.nativeAsset.id, chains: { X: LOCAL_NETWORK.xChainId, P: "11111111111111111111111111111111LpoYY", C: LOCAL_NETWORK.cChainId } };
const EVM = new Uint8Array(20).fill(0xab);

const exportTx: UnsignedAtomicTx = {
  typeId: AtomicTypeId.ExportTx,
  networkId: LOCAL_NETWORK.networkId,
  blockchainId: C,
  destinationChain: X,
  ins: [{ address: EVM, amount: 5_000_000n, assetId: AVAX, nonce: 3n }],
  exportedOutputs: [{ assetId: AVAX, output: { typeId: TypeId.Secp256k1TransferOutput, amount: 4_000_000n, locktime: 0n, threshold: 1, addresses: [OWNER] } }],
};
const importTx: UnsignedAtomicTx = {
  typeId: AtomicTypeId.ImportTx,
  networkId: LOCAL_NETWORK.networkId,
  blockchainId: C,
  sourceChain: X,
  importedInputs: [{ txId: new Uint8Array(32).fill(9), outputIndex: 2, assetId: AVAX, input: { typeId: TypeId.Secp256k1TransferInput, amount: 3_000_000n, signatureIndices: [0] } }],
  outs: [{ address: EVM, amount: 2_000_000n, assetId: AVAX }],
};

describe("explorer ingest: the contract chain's atomic transactions", () => {
  it("reads a signed export: its ID, exported output on the destination chain, signer and fee", () => {
    const signed = signAtomicTx(exportTx, [[KEY]]);
    const row = decodeAtomicTx(context, signed.signedBytes, 1000, "0xblock");
    expect(row).to.include({ id: encodeCb58(signed.id), chainId: context.chains.C, type: "export", destinationChainId: context.chains.X, sourceChainId: null, txFee: 1_000_000n, blockId: "0xblock" });
    expect(row.outputs.map((o) => ({ id: o.id, chainId: o.chainId, amount: o.amount }))).to.deep.equal([{ id: encodeCb58(utxoId(signed.id, 0)), chainId: context.chains.X, amount: 4_000_000n }]);
    expect(row.credentials.map((c) => c.address)).to.deep.equal([formatBech32Address(OWNER, "local")]);
  });

  it("reads a signed import: the output it spends on the source chain and its fee", () => {
    const signed = signAtomicTx(importTx, [[KEY]]);
    const row = decodeAtomicTx(context, signed.signedBytes, 1000, null);
    expect(row).to.include({ id: encodeCb58(signed.id), type: "import", sourceChainId: context.chains.X, txFee: 1_000_000n });
    expect(row.inputs.map((i) => i.outputId)).to.deep.equal([encodeCb58(utxoId(new Uint8Array(32).fill(9), 2))]);
  });

  it("reads a block's extData list (one codec version for all) to the same IDs and signers", () => {
    const a = signAtomicTx(exportTx, [[KEY]]);
    const b = signAtomicTx(importTx, [[KEY]]);
    const count = new Uint8Array([0, 0, 0, 2]);
    const extData = Buffer.concat([Buffer.from([0, 0]), count, a.signedBytes.subarray(2), b.signedBytes.subarray(2)]);
    const rows = decodeExtData(context, new Uint8Array(extData), 1000, "0xblock");
    expect(rows.map((r) => r.id)).to.deep.equal([encodeCb58(a.id), encodeCb58(b.id)]);
    expect(rows.map((r) => r.credentials[0]!.address)).to.deep.equal([formatBech32Address(OWNER, "local"), formatBech32Address(OWNER, "local")]);
  });

  it("reads a block's extData holding one transaction (before the list format)", () => {
    const a = signAtomicTx(exportTx, [[KEY]]);
    expect(decodeExtData(context, a.signedBytes, 1000, "0xblock").map((r) => r.id)).to.deep.equal([encodeCb58(a.id)]);
  });
});
