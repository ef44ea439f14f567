import { expect } from "chai";
import { encodeCb58 } from "../../src/encoding";
import {
  consumedUtxos,
  decodeUtxo,
  encodeSignedTx,
  encodeUtxo,
  type ExportTx,
  type ImportTx,
  type OperationTx,
  producedUtxos,
  txId,
  TypeId,
  utxoId,
} from "../../src/utxo/codec";
import { hex, id32, localGenesisAvaxTx, toHex } from "./helpers";
import { AG_LOCAL_GENESIS } from "./vectors";

const owners = (n: number) => ({ locktime: 0n, threshold: 1, addresses: [id32(n).subarray(0, 20)] });

describe("utxo/codec UTXOs a transaction creates and spends", () => {
  it("the local genesis CreateAssetTx creates its holders' UTXOs, indices 0.., asset ID = tx ID", () => {
    const tx = localGenesisAvaxTx();
    const id = txId(encodeSignedTx({ unsignedTx: tx, credentials: [] }));
    const { utxos, exportedUtxos } = producedUtxos(tx, id);
    expect(exportedUtxos).to.deep.equal([]);
    expect(utxos.map((u) => u.outputIndex)).to.deep.equal([0, 1]);
    for (const u of utxos) expect(encodeCb58(u.assetId)).to.equal(AG_LOCAL_GENESIS.avaxAssetId);
    expect(utxos[1]!.output).to.deep.equal(tx.initialStates[0]!.outputs[1]);
    // A UTXO survives its byte form; its ID is derived from (tx ID, index).
    expect(decodeUtxo(encodeUtxo(utxos[1]!))).to.deep.equal(utxos[1]);
    expect(toHex(utxoId(utxos[1]!.txId, 1))).to.have.length(64);
  });

  it("OperationTx: base outputs first, then each operation's outputs (the node's Outs()) with the operation's asset", () => {
    const tx: OperationTx = {
      typeId: TypeId.OperationTx,
      networkId: 1,
      blockchainId: id32(1),
      outputs: [{ assetId: id32(0xaa), output: { typeId: TypeId.Secp256k1TransferOutput, amount: 7n, ...owners(1) } }],
      inputs: [{ txId: id32(2), outputIndex: 3, assetId: id32(0xaa), input: { typeId: TypeId.Secp256k1TransferInput, amount: 8n, signatureIndices: [0] } }],
      memo: new Uint8Array(0),
      operations: [
        {
          assetId: id32(0xb1),
          utxoIds: [{ txId: id32(4), outputIndex: 0 }],
          operation: { typeId: TypeId.Secp256k1MintOperation, mintInput: { signatureIndices: [0] }, mintOutput: owners(2), transferOutput: { amount: 5n, ...owners(3) } },
        },
        {
          assetId: id32(0xb2),
          utxoIds: [{ txId: id32(5), outputIndex: 1 }],
          operation: { typeId: TypeId.NftMintOperation, mintInput: { signatureIndices: [0] }, groupId: 9, payload: hex("cafe"), outputs: [owners(4), owners(5)] },
        },
        { assetId: id32(0xb3), utxoIds: [{ txId: id32(6), outputIndex: 2 }], operation: { typeId: TypeId.PropertyBurnOperation, signatureIndices: [0] } },
        {
          assetId: id32(0xb4),
          utxoIds: [{ txId: id32(7), outputIndex: 0 }],
          operation: { typeId: TypeId.PropertyMintOperation, mintInput: { signatureIndices: [0] }, mintOutput: owners(6), ownedOutput: owners(7) },
        },
      ],
    };
    const id = id32(0xee);
    const { utxos } = producedUtxos(tx, id);
    expect(utxos.map((u) => [u.outputIndex, u.assetId[0], u.output.typeId])).to.deep.equal([
      [0, 0xaa, TypeId.Secp256k1TransferOutput],
      [1, 0xb1, TypeId.Secp256k1MintOutput],
      [2, 0xb1, TypeId.Secp256k1TransferOutput],
      [3, 0xb2, TypeId.NftTransferOutput],
      [4, 0xb2, TypeId.NftTransferOutput],
      [5, 0xb4, TypeId.PropertyMintOutput],
      [6, 0xb4, TypeId.PropertyOwnedOutput],
    ]);
    expect(utxos[3]!.output).to.deep.equal({ typeId: TypeId.NftTransferOutput, groupId: 9, payload: hex("cafe"), ...owners(4) });
    const consumed = consumedUtxos(tx);
    expect(consumed.local.map((u) => [u.txId[0], u.outputIndex])).to.deep.equal([
      [2, 3],
      [4, 0],
      [5, 1],
      [6, 2],
      [7, 0],
    ]);
    expect(consumed.imported).to.deep.equal([]);
  });

  it("ExportTx: exported outputs continue the numbering and go to the destination chain", () => {
    const out = (n: bigint) => ({ assetId: id32(0xaa), output: { typeId: TypeId.Secp256k1TransferOutput, amount: n, ...owners(1) } });
    const tx: ExportTx = {
      typeId: TypeId.ExportTx,
      networkId: 1,
      blockchainId: id32(1),
      outputs: [out(1n), out(2n)],
      inputs: [],
      memo: new Uint8Array(0),
      destinationChain: id32(0xcc),
      exportedOutputs: [out(3n)],
    };
    const { utxos, exportedUtxos } = producedUtxos(tx, id32(0xee));
    expect(utxos.map((u) => u.outputIndex)).to.deep.equal([0, 1]);
    expect(exportedUtxos.map((u) => [u.outputIndex, (u.output as { amount: bigint }).amount])).to.deep.equal([[2, 3n]]);
  });

  it("ImportTx: imported inputs are spent from the source chain", () => {
    const input = (b: number) => ({ txId: id32(b), outputIndex: 0, assetId: id32(0xaa), input: { typeId: TypeId.Secp256k1TransferInput, amount: 1n, signatureIndices: [0] } });
    const tx: ImportTx = {
      typeId: TypeId.ImportTx,
      networkId: 1,
      blockchainId: id32(1),
      outputs: [],
      inputs: [input(1)],
      memo: new Uint8Array(0),
      sourceChain: id32(0xcc),
      importedInputs: [input(2), input(3)],
    };
    const consumed = consumedUtxos(tx);
    expect(consumed.local.map((u) => u.txId[0])).to.deep.equal([1]);
    expect(consumed.imported.map((u) => u.txId[0])).to.deep.equal([2, 3]);
  });
});
