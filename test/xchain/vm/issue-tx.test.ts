import { expect } from "chai";
import { decodeCb58, encodeCb58, encodeNodeBytes } from "../../../src/encoding";
import {
  compareTransferableOutputs,
  type Credential,
  type CreateAssetTx,
  decodeUtxo,
  encodeSignedTx,
  encodeUnsignedTx,
  type ExportTx,
  type ImportTx,
  type InitialState,
  type OperationTx,
  signTx,
  TypeId,
  utxoId,
  encodeUtxo,
} from "../../../src/utxo/codec";
import {
  addressOf,
  atomicUtxo,
  AVAX,
  C_CHAIN,
  EWOQ,
  EWOQ_GENESIS_UTXO,
  EWOQ_KEY,
  expectRejected,
  externalSend,
  FEE,
  fixture,
  rejection,
  signed,
  testKey,
  transferIn,
  transferOut,
  X_CHAIN,
  xAddress,
} from "./helpers";

const BOB_KEY = testKey(2);
const BOB = addressOf(BOB_KEY);
const CAROL_KEY = testKey(3);
const CAROL = addressOf(CAROL_KEY);
const CREATE_FEE = 1_000_000n;

/** A CreateAssetTx built by hand, paid from the ewoq genesis UTXO (change is output 0). */
function createAssetTx(initialStates: InitialState[], name = "Hand Made", symbol = "HAND"): CreateAssetTx {
  return {
    typeId: TypeId.CreateAssetTx,
    networkId: 12345,
    blockchainId: X_CHAIN,
    outputs: [transferOut(AVAX, EWOQ_GENESIS_UTXO.amount - CREATE_FEE, [EWOQ])],
    inputs: [transferIn(EWOQ_GENESIS_UTXO, AVAX, EWOQ_GENESIS_UTXO.amount)],
    memo: new Uint8Array(0),
    name,
    symbol,
    denomination: 0,
    initialStates,
  };
}

const CHANGE_AFTER_CREATE = EWOQ_GENESIS_UTXO.amount - CREATE_FEE;

/** An OperationTx spending ewoq's change of a hand-made asset creation (output 0) for the fee. */
function operationTx(createId: Uint8Array, operations: OperationTx["operations"]): OperationTx {
  return {
    typeId: TypeId.OperationTx,
    networkId: 12345,
    blockchainId: X_CHAIN,
    outputs: [transferOut(AVAX, CHANGE_AFTER_CREATE - FEE, [EWOQ])],
    inputs: [transferIn({ txId: createId, outputIndex: 0 }, AVAX, CHANGE_AFTER_CREATE)],
    memo: new Uint8Array(0),
    operations,
  };
}

const mintOwners = (addresses: Uint8Array[], threshold = 1) => ({ locktime: 0n, threshold, addresses: [...addresses].sort((a, b) => Buffer.compare(a, b)) });

describe("xchain/vm issueTx", () => {
  describe("transactions built and signed outside nativekit's wallet", () => {
    it("accepts a hand-built BaseTx signed with the codec's signTx (what an external client library does)", async () => {
      const { x, chain } = fixture();
      const { bytes, txId } = signed(externalSend(BOB, 5_000n), [[EWOQ_KEY]]);
      expect(await x("xvm.issueTx", { tx: encodeCb58(bytes) })).to.deep.equal({ txID: encodeCb58(txId) });
      expect(await x("xvm.getTxStatus", { txID: encodeCb58(txId) })).to.deep.equal({ status: "Accepted" });
      expect(chain.getBalance(BOB, AVAX).balance).to.equal(5_000n);
    });

    it("accepts the same transaction hex-encoded with the node's 4-byte checksum (avm.issueTx)", async () => {
      const { x } = fixture();
      const { bytes, txId } = signed(externalSend(BOB, 5_000n), [[EWOQ_KEY]]);
      expect(await x("avm.issueTx", { tx: encodeNodeBytes(bytes, "hex"), encoding: "hex" })).to.deep.equal({ txID: encodeCb58(txId) });
    });

    it("reads a 0x… transaction sent without `encoding` as hex (the reference node's default, what avalanchejs sends)", async () => {
      const { x, chain } = fixture();
      const { bytes, txId } = signed(externalSend(BOB, 5_000n), [[EWOQ_KEY]]);
      const named = await rejection(x("avm.issueTx", { tx: encodeNodeBytes(bytes, "hex"), encoding: "cb58" }));
      expect(named.code).to.equal(-32602);
      expect(await x("avm.issueTx", { tx: encodeNodeBytes(bytes, "hex") })).to.deep.equal({ txID: encodeCb58(txId) });
      expect(chain.getBalance(BOB, AVAX).balance).to.equal(5_000n);
    });

    it("refuses hex without the checksum, naming the problem", async () => {
      const { x } = fixture();
      const { bytes } = signed(externalSend(BOB, 5_000n), [[EWOQ_KEY]]);
      const error = await rejection(x("xvm.issueTx", { tx: `0x${Buffer.from(bytes).toString("hex")}`, encoding: "hex" }));
      expect(error.code).to.equal(-32602);
      expect(error.message).to.include("invalid input checksum");
    });

    it("serves UTXOs from getUTXOs that decode with the codec and can be spent by a hand-built transaction", async () => {
      const { x, chain } = fixture();
      const first = signed(externalSend(BOB, 50_000_000n), [[EWOQ_KEY]]);
      chain.issueTx(first.bytes);
      const { utxos } = (await x("xvm.getUTXOs", { addresses: [xAddress(BOB)] })) as { utxos: string[] };
      expect(utxos).to.have.length(1);
      const utxo = decodeUtxo(decodeCb58(utxos[0]!));
      expect(utxo.txId).to.deep.equal(first.txId);
      expect(utxo.output.typeId).to.equal(TypeId.Secp256k1TransferOutput);
      const amount = (utxo.output as { amount: bigint }).amount;
      const second = signed(
        { ...externalSend(CAROL, 1n), outputs: [transferOut(AVAX, amount - FEE, [CAROL])], inputs: [transferIn(utxo, AVAX, amount)] },
        [[BOB_KEY]],
      );
      chain.issueTx(second.bytes);
      expect(chain.getBalance(CAROL, AVAX).balance).to.equal(amount - FEE);
      expect(chain.getBalance(BOB, AVAX).balance).to.equal(0n);
    });
  });

  describe("signatures and credentials", () => {
    it("rejects an unsigned transaction: wrong number of credentials", () => {
      const { chain } = fixture();
      const bytes = encodeSignedTx({ unsignedTx: externalSend(BOB, 1n), credentials: [] });
      expectRejected(chain, bytes, "wrong-number-of-credentials", "wrong number of credentials: 0 != 1");
    });

    it("rejects a transaction signed by a key that does not own the UTXO: wrong signature", () => {
      const { chain } = fixture();
      const error = expectRejected(chain, signed(externalSend(BOB, 1n), [[BOB_KEY]]).bytes, "wrong-signature", "wrong signature");
      expect(error.message).to.include(`expected signature from ${xAddress(EWOQ)} but got from ${xAddress(BOB)}`);
    });

    it("rejects a credential with fewer signatures than the input has indices", () => {
      const { chain } = fixture();
      const { tx } = signTx(externalSend(BOB, 1n), [[EWOQ_KEY]]);
      const bytes = encodeSignedTx({ ...tx, credentials: [{ typeId: TypeId.Secp256k1Credential, signatures: [] }] });
      expectRejected(chain, bytes, "signers-mismatch", "input expected a different number of signers than provided in the credential");
    });

    it("rejects a signature index past the output's addresses", () => {
      const { chain } = fixture({ fundedAddresses: [{ address: BOB, amount: 10_000_000n }] });
      const utxo = chain.getAllUtxos([BOB])[0]!.utxo;
      const tx = { ...externalSend(CAROL, 1n), outputs: [transferOut(AVAX, 9_000_000n, [CAROL])], inputs: [transferIn(utxo, AVAX, 10_000_000n, [1])] };
      expectRejected(chain, signed(tx, [[BOB_KEY]]).bytes, "signature-index-out-of-bounds", "input referenced a nonexistent address in the output");
    });

    it("needs the threshold of a multisig output: one of two signatures is too few, both are accepted", () => {
      const { chain } = fixture();
      const shared = signed({ ...externalSend(BOB, 1n), outputs: [transferOut(AVAX, EWOQ_GENESIS_UTXO.amount - FEE, [BOB, CAROL], { threshold: 2 })] }, [[EWOQ_KEY]]);
      chain.issueTx(shared.bytes);
      const amount = EWOQ_GENESIS_UTXO.amount - FEE;
      const spend = (indices: number[]) => ({ ...externalSend(EWOQ, 1n), outputs: [transferOut(AVAX, amount - FEE, [EWOQ])], inputs: [transferIn({ txId: shared.txId, outputIndex: 0 }, AVAX, amount, indices)] });
      const [first, second] = [BOB, CAROL].sort((a, b) => Buffer.compare(a, b));
      const keyOf = (a: Uint8Array) => (Buffer.compare(a, BOB) === 0 ? BOB_KEY : CAROL_KEY);
      expectRejected(chain, signed(spend([0]), [[keyOf(first!)]]).bytes, "too-few-signers", "input has less signers than expected");
      chain.issueTx(signed(spend([0, 1]), [[keyOf(first!), keyOf(second!)]]).bytes);
      expect(chain.getBalance(EWOQ, AVAX).balance).to.equal(amount - FEE);
    });
  });

  describe("state rules", () => {
    it("rejects a double spend: a second transaction spending the same UTXO finds it gone", () => {
      const { chain } = fixture();
      chain.issueTx(signed(externalSend(BOB, 1_000n), [[EWOQ_KEY]]).bytes);
      const error = expectRejected(chain, signed(externalSend(CAROL, 2_000n), [[EWOQ_KEY]]).bytes, "missing-utxo", "not found");
      expect(error.message).to.include("does not exist (already spent, or never created)");
    });

    it("rejects issuing an accepted transaction again", () => {
      const { chain } = fixture();
      const { bytes } = signed(externalSend(BOB, 1_000n), [[EWOQ_KEY]]);
      chain.issueTx(bytes);
      expectRejected(chain, bytes, "already-accepted");
    });

    it("words a repeated transaction as the reference mempool does: duplicate tx: <txID>", () => {
      const { chain } = fixture();
      const { bytes, txId } = signed(externalSend(BOB, 1_000n), [[EWOQ_KEY]]);
      chain.issueTx(bytes);
      expect(expectRejected(chain, bytes, "already-accepted", "duplicate tx").message).to.equal(`duplicate tx: ${encodeCb58(txId)}`);
    });

    it("rejects spending an output whose locktime is in the future, and accepts it once that time has come", () => {
      const f = fixture({ fundedAddresses: [{ address: BOB, amount: 10_000_000n, locktime: 1_800_000_000n }] });
      const utxo = f.chain.getAllUtxos([BOB])[0]!.utxo;
      const tx = { ...externalSend(CAROL, 1n), outputs: [transferOut(AVAX, 9_000_000n, [CAROL])], inputs: [transferIn(utxo, AVAX, 10_000_000n)] };
      const { bytes } = signed(tx, [[BOB_KEY]]);
      const error = expectRejected(f.chain, bytes, "timelocked", "output is time locked");
      expect(error.message).to.include("locked until 1800000000");
      f.setTime(1_800_000_000n);
      f.chain.issueTx(bytes);
      expect(f.chain.getBalance(CAROL, AVAX).balance).to.equal(9_000_000n);
    });

    it("rejects an input whose amount differs from its UTXO's", () => {
      const { chain } = fixture();
      const tx = { ...externalSend(BOB, 1n), inputs: [transferIn(EWOQ_GENESIS_UTXO, AVAX, EWOQ_GENESIS_UTXO.amount + 1n)] };
      const error = expectRejected(chain, signed(tx, [[EWOQ_KEY]]).bytes, "amount-mismatch", "utxo amount and input amount are not equal");
      expect(error.message).to.include(`${EWOQ_GENESIS_UTXO.amount} != ${EWOQ_GENESIS_UTXO.amount + 1n}`);
    });

    it("rejects an input that names another asset than its UTXO holds", () => {
      const { chain } = fixture({ fundedAddresses: [{ address: EWOQ, amount: 1_000n }] });
      const extra = chain.getAllUtxos([EWOQ]).map((s) => s.utxo).find((u) => !Buffer.from(u.txId).equals(Buffer.from(AVAX)))!;
      const inputs = [transferIn(EWOQ_GENESIS_UTXO, AVAX, EWOQ_GENESIS_UTXO.amount), transferIn(extra, new Uint8Array(32).fill(7), 1_000n)].sort((a, b) =>
        Buffer.compare(a.txId, b.txId),
      );
      const tx = { ...externalSend(BOB, 1n), inputs };
      expectRejected(chain, signed(tx, [[EWOQ_KEY], [EWOQ_KEY]]).bytes, "asset-mismatch", "asset IDs in the input don't match the utxo");
    });

    it("rejects outputs worth more than the inputs less the fee: insufficient funds", () => {
      const { chain } = fixture();
      const tx = { ...externalSend(BOB, 1n), outputs: [transferOut(AVAX, EWOQ_GENESIS_UTXO.amount, [BOB])] };
      expectRejected(chain, signed(tx, [[EWOQ_KEY]]).bytes, "insufficient-funds", "insufficient funds");
    });

    it("rejects a transaction for another network", () => {
      const { chain } = fixture();
      expectRejected(chain, signed(externalSend(BOB, 1n, { networkId: 1 }), [[EWOQ_KEY]]).bytes, "wrong-network-id", "tx has wrong network ID");
    });

    it("rejects a transaction for another chain", () => {
      const { chain } = fixture();
      expectRejected(chain, signed(externalSend(BOB, 1n, { blockchainId: C_CHAIN }), [[EWOQ_KEY]]).bytes, "wrong-blockchain-id", "tx has wrong chain ID");
    });

    it("rejects bytes that do not decode (via xvm.issueTx: -32000 with the rule in data)", async () => {
      const { x } = fixture();
      const error = await rejection(x("xvm.issueTx", { tx: encodeCb58(Uint8Array.of(0, 0, 0, 0, 0, 0)) }));
      expect(error.code).to.equal(-32000);
      expect(error.data?.rule).to.equal("malformed");
    });

    it("changes nothing when it rejects a transaction", () => {
      const { chain } = fixture();
      const before = chain.getAllUtxos([EWOQ, BOB]).map((s) => encodeCb58(s.inputId));
      const { bytes, txId } = signed(externalSend(BOB, 1n), [[BOB_KEY]]);
      expectRejected(chain, bytes, "wrong-signature");
      expect(chain.getAllUtxos([EWOQ, BOB]).map((s) => encodeCb58(s.inputId))).to.deep.equal(before);
      expect(chain.getTxStatus(txId)).to.equal("Unknown");
      expect(chain.acceptedTxs()).to.have.length(1);
    });
  });

  describe("operations", () => {
    it("accepts a hand-built mint that recreates the mint output, and the minted units are spendable", () => {
      const { chain } = fixture();
      const create = signed(createAssetTx([{ fxIndex: 0, outputs: [{ typeId: TypeId.Secp256k1MintOutput, ...mintOwners([EWOQ]) }] }]), [[EWOQ_KEY]]);
      chain.issueTx(create.bytes);
      expect(chain.getAsset(create.txId)?.type).to.equal("variableCap");
      const mint = operationTx(create.txId, [
        {
          assetId: create.txId,
          utxoIds: [{ txId: create.txId, outputIndex: 1 }],
          operation: {
            typeId: TypeId.Secp256k1MintOperation,
            mintInput: { signatureIndices: [0] },
            mintOutput: mintOwners([EWOQ]),
            transferOutput: { amount: 777n, locktime: 0n, threshold: 1, addresses: [BOB] },
          },
        },
      ]);
      const minted = signed(mint, [[EWOQ_KEY], [EWOQ_KEY]]);
      chain.issueTx(minted.bytes);
      expect(chain.getBalance(BOB, create.txId).balance).to.equal(777n);
      expect(chain.minterUtxos(create.txId)).to.have.length(1);
    });

    it("rejects a mint whose new mint output has other owners than the spent one", () => {
      const { chain } = fixture();
      const create = signed(createAssetTx([{ fxIndex: 0, outputs: [{ typeId: TypeId.Secp256k1MintOutput, ...mintOwners([EWOQ]) }] }]), [[EWOQ_KEY]]);
      chain.issueTx(create.bytes);
      const mint = operationTx(create.txId, [
        {
          assetId: create.txId,
          utxoIds: [{ txId: create.txId, outputIndex: 1 }],
          operation: {
            typeId: TypeId.Secp256k1MintOperation,
            mintInput: { signatureIndices: [0] },
            mintOutput: mintOwners([BOB]),
            transferOutput: { amount: 1n, locktime: 0n, threshold: 1, addresses: [BOB] },
          },
        },
      ]);
      expectRejected(chain, signed(mint, [[EWOQ_KEY], [EWOQ_KEY]]).bytes, "wrong-mint-output", "wrong mint output created from the operation");
    });

    it("rejects a mint signed by fewer minters than the minter set's threshold", () => {
      const { chain } = fixture();
      const create = signed(createAssetTx([{ fxIndex: 0, outputs: [{ typeId: TypeId.Secp256k1MintOutput, ...mintOwners([EWOQ, BOB], 2) }] }]), [[EWOQ_KEY]]);
      chain.issueTx(create.bytes);
      const ewoqIndex = Buffer.compare(EWOQ, BOB) < 0 ? 0 : 1;
      const mint = operationTx(create.txId, [
        {
          assetId: create.txId,
          utxoIds: [{ txId: create.txId, outputIndex: 1 }],
          operation: {
            typeId: TypeId.Secp256k1MintOperation,
            mintInput: { signatureIndices: [ewoqIndex] },
            mintOutput: mintOwners([EWOQ, BOB], 2),
            transferOutput: { amount: 1n, locktime: 0n, threshold: 1, addresses: [BOB] },
          },
        },
      ]);
      expectRejected(chain, signed(mint, [[EWOQ_KEY], [EWOQ_KEY]]).bytes, "too-few-signers", "input has less signers than expected");
    });

    it("rejects a transfer input that spends a mint output", () => {
      const { chain } = fixture();
      const create = signed(createAssetTx([{ fxIndex: 0, outputs: [{ typeId: TypeId.Secp256k1MintOutput, ...mintOwners([EWOQ]) }] }]), [[EWOQ_KEY]]);
      chain.issueTx(create.bytes);
      const tx = {
        ...externalSend(BOB, 1n),
        outputs: [transferOut(AVAX, CHANGE_AFTER_CREATE - FEE, [EWOQ])],
        inputs: [transferIn({ txId: create.txId, outputIndex: 0 }, AVAX, CHANGE_AFTER_CREATE), transferIn({ txId: create.txId, outputIndex: 1 }, create.txId, 1n)],
      };
      expectRejected(chain, signed(tx, [[EWOQ_KEY], [EWOQ_KEY]]).bytes, "wrong-utxo-type", "wrong utxo type");
    });

    it("rejects an operation whose credential is of another feature extension", () => {
      const { chain } = fixture();
      const create = signed(createAssetTx([{ fxIndex: 0, outputs: [{ typeId: TypeId.Secp256k1MintOutput, ...mintOwners([EWOQ]) }] }]), [[EWOQ_KEY]]);
      chain.issueTx(create.bytes);
      const mint = operationTx(create.txId, [
        {
          assetId: create.txId,
          utxoIds: [{ txId: create.txId, outputIndex: 1 }],
          operation: {
            typeId: TypeId.Secp256k1MintOperation,
            mintInput: { signatureIndices: [0] },
            mintOutput: mintOwners([EWOQ]),
            transferOutput: { amount: 1n, locktime: 0n, threshold: 1, addresses: [BOB] },
          },
        },
      ]);
      const { tx } = signTx(mint, [[EWOQ_KEY], [EWOQ_KEY]]);
      const credentials: Credential[] = [tx.credentials[0]!, { ...tx.credentials[1]!, typeId: TypeId.NftCredential }];
      expectRejected(chain, encodeSignedTx({ ...tx, credentials }), "wrong-credential-type", "wrong credential type");
    });

    it("mints an NFT and transfers it keeping group and payload; a transfer that changes the payload is rejected", () => {
      const { chain } = fixture();
      const create = signed(
        createAssetTx([{ fxIndex: 1, outputs: [{ typeId: TypeId.NftMintOutput, groupId: 0, ...mintOwners([EWOQ]) }] }], "Art", "ART"),
        [[EWOQ_KEY]],
      );
      chain.issueTx(create.bytes);
      expect(chain.getAsset(create.txId)?.type).to.equal("nonFungible");
      const payload = new TextEncoder().encode("ipfs://picture");
      const mint = signed(
        operationTx(create.txId, [
          {
            assetId: create.txId,
            utxoIds: [{ txId: create.txId, outputIndex: 1 }],
            operation: { typeId: TypeId.NftMintOperation, mintInput: { signatureIndices: [0] }, groupId: 0, payload, outputs: [mintOwners([BOB])] },
          },
        ]),
        [[EWOQ_KEY], [EWOQ_KEY]],
      );
      chain.issueTx(mint.bytes);
      const nft = chain.getAllUtxos([BOB])[0]!.utxo;
      expect(nft.output.typeId).to.equal(TypeId.NftTransferOutput);
      const bobFee = 5_000_000n;
      const funding = signed(
        {
          ...externalSend(BOB, 1n),
          outputs: [transferOut(AVAX, bobFee, [BOB]), transferOut(AVAX, CHANGE_AFTER_CREATE - FEE - bobFee - FEE, [EWOQ])].sort(compareTransferableOutputs),
          inputs: [transferIn({ txId: mint.txId, outputIndex: 0 }, AVAX, CHANGE_AFTER_CREATE - FEE)],
        },
        [[EWOQ_KEY]],
      );
      chain.issueTx(funding.bytes);
      const transfer = (newPayload: Uint8Array): OperationTx => ({
        typeId: TypeId.OperationTx,
        networkId: 12345,
        blockchainId: X_CHAIN,
        outputs: [transferOut(AVAX, bobFee - FEE, [BOB])],
        inputs: [transferIn({ txId: funding.txId, outputIndex: 0 }, AVAX, bobFee)],
        memo: new Uint8Array(0),
        operations: [
          {
            assetId: create.txId,
            utxoIds: [{ txId: nft.txId, outputIndex: nft.outputIndex }],
            operation: { typeId: TypeId.NftTransferOperation, input: { signatureIndices: [0] }, output: { groupId: 0, payload: newPayload, ...mintOwners([CAROL]) } },
          },
        ],
      });
      expectRejected(chain, signed(transfer(new TextEncoder().encode("forged")), [[BOB_KEY], [BOB_KEY]]).bytes, "wrong-payload", "wrong bytes provided");
      chain.issueTx(signed(transfer(payload), [[BOB_KEY], [BOB_KEY]]).bytes);
      expect(chain.getAllUtxos([CAROL])[0]!.utxo.output).to.include({ typeId: TypeId.NftTransferOutput, groupId: 0 });
    });
  });

  describe("atomic transactions", () => {
    function exportTx(destinationChain: Uint8Array, amount: bigint, owner: Uint8Array): ExportTx {
      return {
        typeId: TypeId.ExportTx,
        networkId: 12345,
        blockchainId: X_CHAIN,
        outputs: [transferOut(AVAX, EWOQ_GENESIS_UTXO.amount - amount - FEE, [EWOQ])],
        inputs: [transferIn(EWOQ_GENESIS_UTXO, AVAX, EWOQ_GENESIS_UTXO.amount)],
        memo: new Uint8Array(0),
        destinationChain,
        exportedOutputs: [transferOut(AVAX, amount, [owner])],
      };
    }

    it("export puts the UTXO into the contract chain's inbox from the exchange chain, indexed by its owner", () => {
      const { chain, sharedMemory } = fixture();
      const { bytes, txId } = signed(exportTx(C_CHAIN, 123_000_000n, BOB), [[EWOQ_KEY]]);
      chain.issueTx(bytes);
      const key = utxoId(txId, 1);
      expect(sharedMemory.has(C_CHAIN, X_CHAIN, key)).to.equal(true);
      const page = sharedMemory.indexed(C_CHAIN, X_CHAIN, [BOB], undefined, undefined, 10);
      expect(page.values).to.have.length(1);
      const utxo = decodeUtxo(page.values[0]!);
      expect(utxo).to.deep.include({ outputIndex: 1 });
      expect(utxo.txId).to.deep.equal(txId);
      expect(utxo.output).to.deep.include({ amount: 123_000_000n, threshold: 1 });
      expect(chain.getBalance(EWOQ, AVAX).balance).to.equal(EWOQ_GENESIS_UTXO.amount - 123_000_000n - FEE);
    });

    it("rejects an export to this chain itself: same chainID", () => {
      const { chain } = fixture();
      expectRejected(chain, signed(exportTx(X_CHAIN, 1n, BOB), [[EWOQ_KEY]]).bytes, "same-chain", "same chainID");
    });

    it("rejects an export to a chain the node does not know", () => {
      const { chain } = fixture();
      const error = expectRejected(chain, signed(exportTx(new Uint8Array(32).fill(5), 1n, BOB), [[EWOQ_KEY]]).bytes, "unknown-chain");
      expect(error.nodeMessage).to.match(/^failed to get subnet of "/);
    });

    function importTx(utxo: { txId: Uint8Array; outputIndex: number }, amount: bigint, to: Uint8Array): ImportTx {
      return {
        typeId: TypeId.ImportTx,
        networkId: 12345,
        blockchainId: X_CHAIN,
        outputs: [transferOut(AVAX, amount - FEE, [to])],
        inputs: [],
        memo: new Uint8Array(0),
        sourceChain: C_CHAIN,
        importedInputs: [transferIn(utxo, AVAX, amount)],
      };
    }

    it("import takes the atomic UTXO out of shared memory; importing it again fails", () => {
      const { chain, sharedMemory } = fixture();
      const exported = atomicUtxo(new Uint8Array(32).fill(0x11), 0, AVAX, 40_000_000n, BOB);
      sharedMemory.apply(C_CHAIN, [[X_CHAIN, { put: [{ key: utxoId(exported.txId, 0), value: encodeUtxo(exported), traits: [BOB] }] }]]);
      const first = signed(importTx(exported, 40_000_000n, CAROL), [[BOB_KEY]]);
      chain.issueTx(first.bytes);
      expect(chain.getBalance(CAROL, AVAX).balance).to.equal(40_000_000n - FEE);
      expect(sharedMemory.has(X_CHAIN, C_CHAIN, utxoId(exported.txId, 0))).to.equal(false);
      const again = signed(importTx(exported, 40_000_000n, BOB), [[BOB_KEY]]);
      expectRejected(chain, again.bytes, "missing-atomic-utxo", "not found");
    });

    it("rejects an import of a UTXO that was never exported to this chain", () => {
      const { chain } = fixture();
      const ghost = atomicUtxo(new Uint8Array(32).fill(0x22), 0, AVAX, 40_000_000n, BOB);
      expectRejected(chain, signed(importTx(ghost, 40_000_000n, BOB), [[BOB_KEY]]).bytes, "missing-atomic-utxo");
    });

    it("rejects importing a UTXO of an asset this chain never created", () => {
      const { chain, sharedMemory } = fixture();
      const ghost = new Uint8Array(32).fill(9);
      const fee = atomicUtxo(new Uint8Array(32).fill(0x44), 0, AVAX, 40_000_000n, BOB);
      const odd = atomicUtxo(new Uint8Array(32).fill(0x55), 0, ghost, 5n, BOB);
      const put = [fee, odd].map((u) => ({ key: utxoId(u.txId, 0), value: encodeUtxo(u), traits: [BOB] }));
      sharedMemory.apply(C_CHAIN, [[X_CHAIN, { put }]]);
      const tx: ImportTx = { ...importTx(fee, 40_000_000n, BOB), importedInputs: [transferIn(fee, AVAX, 40_000_000n), transferIn(odd, ghost, 5n)] };
      const error = expectRejected(chain, signed(tx, [[BOB_KEY], [BOB_KEY]]).bytes, "unknown-asset", "not found");
      expect(error.message).to.include(`asset ${encodeCb58(ghost)}, which does not exist`);
    });

    it("rejects an import signed by a key that does not own the atomic UTXO", () => {
      const { chain, sharedMemory } = fixture();
      const exported = atomicUtxo(new Uint8Array(32).fill(0x33), 0, AVAX, 40_000_000n, BOB);
      sharedMemory.apply(C_CHAIN, [[X_CHAIN, { put: [{ key: utxoId(exported.txId, 0), value: encodeUtxo(exported), traits: [BOB] }] }]]);
      expectRejected(chain, signed(importTx(exported, 40_000_000n, CAROL), [[CAROL_KEY]]).bytes, "wrong-signature");
      expect(sharedMemory.has(X_CHAIN, C_CHAIN, utxoId(exported.txId, 0))).to.equal(true);
    });
  });

  it("unsigned bytes are not a transaction (encodeUnsignedTx output is refused as malformed)", () => {
    const { chain } = fixture();
    expectRejected(chain, encodeUnsignedTx(externalSend(BOB, 1n)), "malformed");
  });
});
