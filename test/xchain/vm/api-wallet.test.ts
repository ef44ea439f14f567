import { expect } from "chai";
import { decodeCb58, encodeCb58, encodeNodeBytes, formatChainAddress } from "../../../src/encoding";
import { decodeSignedTx, decodeUtxo, encodeUtxo, TypeId, utxoId } from "../../../src/utxo/codec";
import {
  addressOf,
  atomicUtxo,
  AVAX,
  AVAX_ID,
  C_CHAIN,
  EWOQ,
  EWOQ_ADDRESS,
  EWOQ_GENESIS_UTXO,
  FEE,
  fundedUser,
  rejection,
  testKey,
  X_CHAIN,
  xAddress,
} from "./helpers";

const BOB_KEY = testKey(2);
const BOB = addressOf(BOB_KEY);
const BOB_ADDRESS = xAddress(BOB);
const CREATE_FEE = 1_000_000n;
type TxReply = { txID: string; changeAddr: string };
type AssetReply = { assetID: string; changeAddr: string };

describe("xchain/vm API: wallet methods", () => {
  describe("send and sendMultiple", () => {
    it("send moves the amount to `to`, burns the fee and returns change to the user's first address", async () => {
      const { x, user, chain } = await fundedUser();
      const { address: second } = (await x("xvm.createAddress", user)) as { address: string };
      const reply = (await x("xvm.send", { ...user, amount: "2500", assetID: "AVAX", to: BOB_ADDRESS })) as TxReply;
      expect(reply.changeAddr).to.equal(EWOQ_ADDRESS);
      expect(second).not.to.equal(EWOQ_ADDRESS);
      expect(chain.getBalance(BOB, AVAX).balance).to.equal(2500n);
      expect(chain.getBalance(EWOQ, AVAX).balance).to.equal(EWOQ_GENESIS_UTXO.amount - 2500n - FEE);
      expect(await x("xvm.getTxStatus", { txID: reply.txID })).to.deep.equal({ status: "Accepted" });
    });

    it("send puts the memo in the transaction", async () => {
      const { x, user, chain } = await fundedUser();
      const { txID } = (await x("xvm.send", { ...user, amount: 1, assetID: AVAX_ID, to: BOB_ADDRESS, memo: "invoice 42" })) as TxReply;
      expect(new TextDecoder().decode(chain.getTx(decodeCb58(txID))!.tx.unsignedTx.memo)).to.equal("invoice 42");
    });

    it("send refuses a memo above 256 bytes", async () => {
      const { x, user } = await fundedUser();
      const error = await rejection(x("xvm.send", { ...user, amount: 1, assetID: "AVAX", to: BOB_ADDRESS, memo: "é".repeat(129) }));
      expect(error).to.include({ code: -32602, message: "max memo length is 256 but provided memo field is length 258" });
    });

    it("send sends change to changeAddr when given", async () => {
      const { x, user, chain } = await fundedUser();
      const reply = (await x("xvm.send", { ...user, amount: 10, assetID: "AVAX", to: BOB_ADDRESS, changeAddr: xAddress(addressOf(testKey(3))) })) as TxReply;
      expect(reply.changeAddr).to.equal(xAddress(addressOf(testKey(3))));
      expect(chain.getBalance(addressOf(testKey(3)), AVAX).balance).to.equal(EWOQ_GENESIS_UTXO.amount - 10n - FEE);
    });

    it("send spends only the `from` addresses and defaults change to the first of them", async () => {
      const { x, user, chain } = await fundedUser({ fundedAddresses: [{ address: BOB, amount: 50_000_000n }] });
      await x("xvm.importKey", { ...user, privateKey: `PrivateKey-${encodeCb58(BOB_KEY)}` });
      const reply = (await x("xvm.send", { ...user, amount: 1_000, assetID: "AVAX", to: xAddress(addressOf(testKey(5))), from: [BOB_ADDRESS] })) as TxReply;
      expect(reply.changeAddr).to.equal(BOB_ADDRESS);
      expect(chain.getBalance(EWOQ, AVAX).balance).to.equal(EWOQ_GENESIS_UTXO.amount);
      expect(chain.getBalance(BOB, AVAX).balance).to.equal(50_000_000n - 1_000n - FEE);
    });

    it("send with `from` addresses the user has no key for is refused: no keys or funds", async () => {
      const { x, user } = await fundedUser();
      const error = await rejection(x("xvm.send", { ...user, amount: 1, assetID: "AVAX", to: BOB_ADDRESS, from: [BOB_ADDRESS] }));
      expect(error).to.include({ code: -32000, message: "from addresses have no keys or funds" });
    });

    it("send refuses more than the user holds: insufficient funds", async () => {
      const { x, user } = await fundedUser();
      const error = await rejection(x("xvm.send", { ...user, amount: EWOQ_GENESIS_UTXO.amount.toString(), assetID: "AVAX", to: BOB_ADDRESS }));
      expect(error.code).to.equal(-32000);
      expect(error.message).to.equal(`want to spend ${EWOQ_GENESIS_UTXO.amount + FEE} of asset ${AVAX_ID} but only have ${EWOQ_GENESIS_UTXO.amount}`);
      expect(error.data?.problem).to.equal("insufficient-funds");
    });

    it("send refuses a zero amount", async () => {
      const { x, user } = await fundedUser();
      expect(await rejection(x("xvm.send", { ...user, amount: 0, assetID: "AVAX", to: BOB_ADDRESS }))).to.include({ code: -32602, message: "amount must be positive" });
    });

    it("send refuses a negative amount, naming the parameter", async () => {
      const { x, user } = await fundedUser();
      const error = await rejection(x("xvm.send", { ...user, amount: -1, assetID: "AVAX", to: BOB_ADDRESS }));
      expect(error.code).to.equal(-32602);
      expect(error.message).to.match(/^amount must be a non-negative integer/);
    });

    it("send refuses an asset that is neither an alias nor an ID", async () => {
      const { x, user } = await fundedUser();
      expect(await rejection(x("xvm.send", { ...user, amount: 1, assetID: "NOPE", to: BOB_ADDRESS }))).to.include({ code: -32602, message: "assetID: couldn't find asset NOPE" });
    });

    it("send refuses a `to` address of another network", async () => {
      const { x, user } = await fundedUser();
      const fuji = formatChainAddress(EWOQ, "fuji", "X");
      const error = await rejection(x("xvm.send", { ...user, amount: 1, assetID: "AVAX", to: fuji }));
      expect(error).to.include({ code: -32602, message: `couldn't parse to address "${fuji}": expected hrp "local" but got "fuji"` });
    });

    it("sendMultiple pays several outputs, of several assets, in one transaction", async () => {
      const { x, user, chain } = await fundedUser();
      const { assetID } = (await x("xvm.createFixedCapAsset", { ...user, name: "Gold", symbol: "GLD", initialHolders: [{ address: EWOQ_ADDRESS, amount: 100 }] })) as AssetReply;
      const carol = addressOf(testKey(3));
      const { txID } = (await x("xvm.sendMultiple", {
        ...user,
        outputs: [
          { assetID: "AVAX", amount: 7, to: BOB_ADDRESS },
          { assetID, amount: 30, to: BOB_ADDRESS },
          { assetID, amount: 20, to: xAddress(carol) },
        ],
        memo: "batch",
      })) as TxReply;
      expect(chain.getBalance(BOB, AVAX).balance).to.equal(7n);
      expect(chain.getBalance(BOB, decodeCb58(assetID)).balance).to.equal(30n);
      expect(chain.getBalance(carol, decodeCb58(assetID)).balance).to.equal(20n);
      expect(chain.getBalance(EWOQ, decodeCb58(assetID)).balance).to.equal(50n);
      expect(chain.getTx(decodeCb58(txID))!.tx.unsignedTx.outputs).to.have.length(5);
    });

    it("sendMultiple names the output whose field is wrong by its place in the list", async () => {
      const { x, user } = await fundedUser();
      const outputs = [{ assetID: "AVAX", amount: 1, to: BOB_ADDRESS }, { assetID: "AVAX", amount: "-3", to: BOB_ADDRESS }];
      const error = await rejection(x("xvm.sendMultiple", { ...user, outputs }));
      expect(error.code).to.equal(-32602);
      expect(error.message).to.match(/^outputs\[1\]\.amount must be a non-negative integer/);
      expect(await rejection(x("xvm.sendMultiple", { ...user, outputs: [{ assetID: "NOPE", amount: 1, to: BOB_ADDRESS }] }))).to.include({
        code: -32602,
        message: "outputs[0].assetID: couldn't find asset NOPE",
      });
    });

    it("sendMultiple without outputs says no outputs to send", async () => {
      const { x, user } = await fundedUser();
      expect(await rejection(x("xvm.sendMultiple", { ...user, outputs: [] }))).to.include({ code: -32602, message: "no outputs to send" });
    });
  });

  describe("assets", () => {
    it("createFixedCapAsset creates the asset with its initial holders, paying createAssetTxFee", async () => {
      const { x, user, chain } = await fundedUser();
      const reply = (await x("xvm.createFixedCapAsset", {
        ...user,
        name: "Fixed Coin",
        symbol: "FIX",
        denomination: 2,
        initialHolders: [
          { address: BOB_ADDRESS, amount: "1000" },
          { address: EWOQ_ADDRESS, amount: 5 },
        ],
      })) as AssetReply;
      expect(reply.changeAddr).to.equal(EWOQ_ADDRESS);
      expect(await x("xvm.getAssetDescription", { assetID: reply.assetID })).to.deep.equal({ assetID: reply.assetID, name: "Fixed Coin", symbol: "FIX", denomination: "2" });
      expect(chain.getBalance(BOB, decodeCb58(reply.assetID)).balance).to.equal(1000n);
      expect(chain.getAsset(decodeCb58(reply.assetID))?.type).to.equal("fixedCap");
      expect(chain.getBalance(EWOQ, AVAX).balance).to.equal(EWOQ_GENESIS_UTXO.amount - CREATE_FEE);
    });

    it("createFixedCapAsset refuses a symbol longer than 4 characters with the node's rule", async () => {
      const { x, user } = await fundedUser();
      const error = await rejection(x("xvm.createFixedCapAsset", { ...user, name: "Long", symbol: "TOOLONG", initialHolders: [{ address: BOB_ADDRESS, amount: 1 }] }));
      expect(error).to.include({ code: -32000, message: "problem issuing transaction: symbol is too long, maximum size is 4: CreateAssetTx.symbol: symbol is 7 bytes, the maximum is 4" });
      expect(error.data).to.deep.equal({ rule: "symbol-too-long", nodeMessage: "symbol is too long, maximum size is 4" });
    });

    it("createFixedCapAsset without holders or minters says so", async () => {
      const { x, user } = await fundedUser();
      expect(await rejection(x("xvm.createFixedCapAsset", { ...user, name: "None", symbol: "NO" }))).to.include({ code: -32602, message: "no minters or initialHolders provided" });
    });

    it("mint creates units of a variable-cap asset for a minter and keeps the minter set for later mints", async () => {
      const { x, user, chain } = await fundedUser();
      const { assetID } = (await x("xvm.createVariableCapAsset", { ...user, name: "Var", symbol: "VAR", minterSets: [{ minters: [EWOQ_ADDRESS], threshold: 1 }] })) as AssetReply;
      expect(chain.getAsset(decodeCb58(assetID))?.type).to.equal("variableCap");
      await x("xvm.mint", { ...user, amount: 1000, assetID, to: BOB_ADDRESS });
      await x("xvm.mint", { ...user, amount: "234", assetID, to: BOB_ADDRESS });
      expect(chain.getBalance(BOB, decodeCb58(assetID)).balance).to.equal(1234n);
      expect(chain.minterUtxos(decodeCb58(assetID))).to.have.length(1);
    });

    it("mint without the threshold of a minter set is refused: no authority to mint", async () => {
      const { x, user } = await fundedUser();
      const { assetID } = (await x("xvm.createVariableCapAsset", { ...user, name: "Two Keys", symbol: "TWO", minterSets: [{ minters: [EWOQ_ADDRESS, BOB_ADDRESS], threshold: 2 }] })) as AssetReply;
      const error = await rejection(x("xvm.mint", { ...user, amount: 1, assetID, to: BOB_ADDRESS }));
      expect(error).to.include({ code: -32000, message: "provided addresses don't have the authority to mint the provided asset" });
    });

    it("mint succeeds once the user holds the threshold of the minter set", async () => {
      const { x, user, chain } = await fundedUser();
      const { assetID } = (await x("xvm.createVariableCapAsset", { ...user, name: "Two Keys", symbol: "TWO", minterSets: [{ minters: [EWOQ_ADDRESS, BOB_ADDRESS], threshold: 2 }] })) as AssetReply;
      await x("xvm.importKey", { ...user, privateKey: `PrivateKey-${encodeCb58(BOB_KEY)}` });
      const { txID } = (await x("xvm.mint", { ...user, amount: 5, assetID, to: BOB_ADDRESS })) as TxReply;
      expect(chain.getBalance(BOB, decodeCb58(assetID)).balance).to.equal(5n);
      const op = decodeSignedTx(chain.getTx(decodeCb58(txID))!.bytes);
      expect(op.credentials.at(-1)!.signatures).to.have.length(2);
    });

    it("mint of an asset without mint outputs (fixed cap) is refused", async () => {
      const { x, user } = await fundedUser();
      const { assetID } = (await x("xvm.createFixedCapAsset", { ...user, name: "Fixed", symbol: "FX", initialHolders: [{ address: EWOQ_ADDRESS, amount: 1 }] })) as AssetReply;
      expect((await rejection(x("xvm.mint", { ...user, amount: 1, assetID, to: BOB_ADDRESS }))).message).to.equal(
        "provided addresses don't have the authority to mint the provided asset",
      );
    });

    it("mint refuses a zero amount", async () => {
      const { x, user } = await fundedUser();
      expect(await rejection(x("xvm.mint", { ...user, amount: 0, assetID: "AVAX", to: BOB_ADDRESS }))).to.include({ code: -32602, message: "amount minted must be positive" });
    });

    it("createNFTAsset then mintNFT gives `to` an NFT with the payload (hex encoding with checksum)", async () => {
      const { x, user, chain } = await fundedUser();
      const { assetID } = (await x("xvm.createNFTAsset", { ...user, name: "Art", symbol: "ART", minterSets: [{ minters: [EWOQ_ADDRESS], threshold: 1 }] })) as AssetReply;
      expect(chain.getAsset(decodeCb58(assetID))?.type).to.equal("nonFungible");
      const payload = new TextEncoder().encode("ipfs://art");
      await x("xvm.mintNFT", { ...user, assetID, payload: encodeNodeBytes(payload, "hex"), encoding: "hex", to: BOB_ADDRESS });
      const nft = chain.getAllUtxos([BOB])[0]!.utxo;
      expect(nft.output).to.deep.include({ typeId: TypeId.NftTransferOutput, groupId: 0 });
      expect(Buffer.from((nft.output as { payload: Uint8Array }).payload).toString()).to.equal("ipfs://art");
    });

    it("mintNFT consumes the group's mint output, so a second mint of that group is refused (as the reference nftfx)", async () => {
      const { x, user } = await fundedUser();
      const { assetID } = (await x("xvm.createNFTAsset", { ...user, name: "Once", symbol: "ONE", minterSets: [{ minters: [EWOQ_ADDRESS], threshold: 1 }] })) as AssetReply;
      await x("xvm.mintNFT", { ...user, assetID, payload: encodeCb58(Uint8Array.of(1)), to: BOB_ADDRESS });
      const error = await rejection(x("xvm.mintNFT", { ...user, assetID, payload: encodeCb58(Uint8Array.of(2)), to: BOB_ADDRESS }));
      expect(error.message).to.equal("provided addresses don't have the authority to mint the provided asset");
    });

    it("mintNFT refuses a payload above 1024 bytes", async () => {
      const { x, user } = await fundedUser();
      const { assetID } = (await x("xvm.createNFTAsset", { ...user, name: "Big", symbol: "BIG", minterSets: [{ minters: [EWOQ_ADDRESS], threshold: 1 }] })) as AssetReply;
      const error = await rejection(x("xvm.mintNFT", { ...user, assetID, payload: encodeCb58(new Uint8Array(1025)), to: BOB_ADDRESS }));
      expect(error).to.include({ code: -32602, message: "payload too large: 1025 bytes, at most 1024" });
    });

    it("createNFTAsset without minter sets says no minters provided", async () => {
      const { x, user } = await fundedUser();
      expect(await rejection(x("xvm.createNFTAsset", { ...user, name: "None", symbol: "NO", minterSets: [] }))).to.include({ code: -32602, message: "no minters provided" });
    });
  });

  describe("export and import", () => {
    it("export to a C- address puts an atomic UTXO for that key in the contract chain's inbox", async () => {
      const { x, user, chain, sharedMemory } = await fundedUser();
      const reply = (await x("xvm.export", { ...user, amount: "1000000000", assetID: "AVAX", to: "C-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u" })) as TxReply;
      expect(reply.changeAddr).to.equal(EWOQ_ADDRESS);
      const txId = decodeCb58(reply.txID);
      const tx = chain.getTx(txId)!.tx.unsignedTx;
      expect(tx.typeId).to.equal(TypeId.ExportTx);
      const index = tx.outputs.length;
      expect(sharedMemory.has(C_CHAIN, X_CHAIN, utxoId(txId, index))).to.equal(true);
      const [bytes] = sharedMemory.indexed(C_CHAIN, X_CHAIN, [EWOQ], undefined, undefined, 10).values;
      expect(decodeUtxo(bytes!).output).to.deep.include({ amount: 1_000_000_000n, addresses: [EWOQ] });
      expect(chain.getBalance(EWOQ, AVAX).balance).to.equal(EWOQ_GENESIS_UTXO.amount - 1_000_000_000n - FEE);
    });

    it("export of another asset pays the fee in the native asset", async () => {
      const { x, user, chain, sharedMemory } = await fundedUser();
      const { assetID } = (await x("xvm.createFixedCapAsset", { ...user, name: "Gold", symbol: "GLD", initialHolders: [{ address: EWOQ_ADDRESS, amount: 100 }] })) as AssetReply;
      await x("xvm.export", { ...user, amount: 40, assetID, to: `C-${BOB_ADDRESS.slice(2)}` });
      expect(chain.getBalance(EWOQ, decodeCb58(assetID)).balance).to.equal(60n);
      const [bytes] = sharedMemory.indexed(C_CHAIN, X_CHAIN, [BOB], undefined, undefined, 10).values;
      expect(encodeCb58(decodeUtxo(bytes!).assetId)).to.equal(assetID);
      expect(chain.getBalance(EWOQ, AVAX).balance).to.equal(EWOQ_GENESIS_UTXO.amount - CREATE_FEE - FEE);
    });

    it("export to an X- address is refused by the chain: same chainID", async () => {
      const { x, user } = await fundedUser();
      const error = await rejection(x("xvm.export", { ...user, amount: 1, assetID: "AVAX", to: BOB_ADDRESS }));
      expect(error.code).to.equal(-32000);
      expect(error.message).to.match(/^problem issuing transaction: same chainID/);
    });

    it("import from C takes every atomic UTXO the user's keys own, less the fee, to `to`", async () => {
      const { x, user, chain, sharedMemory } = await fundedUser();
      const exported = [atomicUtxo(new Uint8Array(32).fill(0xc1), 0, AVAX, 2_000_000_000n, EWOQ), atomicUtxo(new Uint8Array(32).fill(0xc2), 3, AVAX, 5_000_000n, EWOQ)];
      sharedMemory.apply(C_CHAIN, [[X_CHAIN, { put: exported.map((u) => ({ key: utxoId(u.txId, u.outputIndex), value: encodeUtxo(u), traits: [EWOQ] })) }]]);
      const listed = (await x("xvm.getUTXOs", { addresses: [EWOQ_ADDRESS], sourceChain: "C" })) as { numFetched: string; utxos: string[] };
      expect(listed.numFetched).to.equal("2");
      const { txID } = (await x("xvm.import", { ...user, sourceChain: "C", to: BOB_ADDRESS })) as { txID: string };
      expect(chain.getBalance(BOB, AVAX).balance).to.equal(2_005_000_000n - FEE);
      expect(chain.getTx(decodeCb58(txID))!.tx.unsignedTx.typeId).to.equal(TypeId.ImportTx);
      expect(await x("xvm.getUTXOs", { addresses: [EWOQ_ADDRESS], sourceChain: encodeCb58(C_CHAIN) })).to.include({ numFetched: "0" });
      expect(chain.getBalance(EWOQ, AVAX).balance).to.equal(EWOQ_GENESIS_UTXO.amount);
    });

    it("import with nothing to import is refused by the chain: no import inputs", async () => {
      const { x, user } = await fundedUser();
      const error = await rejection(x("xvm.import", { ...user, sourceChain: "C", to: EWOQ_ADDRESS }));
      expect(error.message).to.match(/^problem issuing transaction: no import inputs/);
    });

    it("import from an unknown chain is a parameter error", async () => {
      const { x, user } = await fundedUser();
      const error = await rejection(x("xvm.import", { ...user, sourceChain: "Q", to: EWOQ_ADDRESS }));
      expect(error).to.include({ code: -32602, message: 'problem parsing sourceChain "Q": there is no chain with alias/ID "Q"' });
    });
  });
});
