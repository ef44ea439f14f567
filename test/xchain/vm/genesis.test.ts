import { expect } from "chai";
import { SharedMemory } from "../../../src/atomic/shared-memory";
import { decodeCb58, decodeNodeBytes, encodeCb58, encodeNodeBytes, formatBech32Address } from "../../../src/encoding";
import { LOCAL_NETWORK } from "../../../src/network/constants";
import { createStaticXvmApi } from "../../../src/xchain/api";
import { TypeId } from "../../../src/utxo/codec";
import {
  buildGenesisAssets,
  decodeGenesisBytes,
  encodeGenesisBytes,
  genesisAssetId,
  LOCAL_GENESIS_ETH_ADDR,
  LOCAL_GENESIS_HOLDERS,
  localGenesis,
} from "../../../src/xchain/genesis";
import { ExchangeChain } from "../../../src/xchain/vm";
import { addressOf, AVAX_ID, EWOQ, EWOQ_ADDRESS, fixture, rejection, testKey, xAddress } from "./helpers";

describe("xchain/vm genesis", () => {
  describe("the local network's genesis", () => {
    it("creates the native asset with the reference local network's ID 2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe", () => {
      const { assets } = localGenesis();
      expect(assets.map((a) => a.alias)).to.deep.equal(["AVAX"]);
      expect(encodeCb58(genesisAssetId(assets[0]!.tx))).to.equal("2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe");
      expect(encodeCb58(fixture().chain.feeAssetId)).to.equal(AVAX_ID);
    });

    it("gives the ewoq address 300000000000000000 nAVAX in output 1 of the asset's creation (avm.getBalance)", async () => {
      const { x } = fixture();
      expect(await x("avm.getBalance", { address: EWOQ_ADDRESS, assetID: "AVAX" })).to.deep.equal({
        balance: "300000000000000000",
        utxoIDs: [{ txID: AVAX_ID, outputIndex: 1 }],
      });
    });

    it("keeps the other reference allocation (10000000000000000 to local1ur873...) in output 0", async () => {
      const { x } = fixture();
      const result = (await x("xvm.getBalance", { address: `X-${LOCAL_GENESIS_HOLDERS[0]!.address}`, assetID: AVAX_ID })) as { balance: string; utxoIDs: unknown[] };
      expect(result).to.deep.equal({ balance: "10000000000000000", utxoIDs: [{ txID: AVAX_ID, outputIndex: 0 }] });
    });

    it("describes the native asset for an empty assetID: Avalanche, AVAX, denomination \"9\"", async () => {
      const { x } = fixture();
      expect(await x("xvm.getAssetDescription", { assetID: "" })).to.deep.equal({ assetID: AVAX_ID, name: "Avalanche", symbol: "AVAX", denomination: "9" });
      expect(await x("xvm.getAssetDescription", { assetID: "AVAX" })).to.deep.equal({ assetID: AVAX_ID, name: "Avalanche", symbol: "AVAX", denomination: "9" });
    });

    it("stores the genesis CreateAssetTx as accepted, without credentials", async () => {
      const { x } = fixture();
      expect(await x("xvm.getTxStatus", { txID: AVAX_ID })).to.deep.equal({ status: "Accepted" });
      const { tx } = (await x("xvm.getTx", { txID: AVAX_ID, encoding: "json" })) as { tx: { unsignedTx: Record<string, unknown>; credentials: unknown[] } };
      expect(tx.unsignedTx.name).to.equal("Avalanche");
      expect(tx.unsignedTx.memo).to.equal(`0x${LOCAL_GENESIS_ETH_ADDR.slice(2).repeat(2)}`);
      expect(tx.credentials).to.deep.equal([]);
    });

    it("does not index genesis transactions in getAddressTxs (as the reference node)", async () => {
      const { x } = fixture();
      expect(await x("xvm.getAddressTxs", { address: EWOQ_ADDRESS, assetID: "AVAX" })).to.deep.equal({ txIDs: [], cursor: "0" });
    });

    it("adds fundedAddresses as spendable native-asset UTXOs without changing the native asset ID", async () => {
      const bob = addressOf(testKey(2));
      const { x, chain } = fixture({ fundedAddresses: [{ address: xAddress(bob), amount: 5_000n }, { address: bob, amount: 7n }] });
      expect(encodeCb58(chain.feeAssetId)).to.equal(AVAX_ID);
      expect(await x("xvm.getBalance", { address: xAddress(bob), assetID: "AVAX" })).to.have.property("balance", "5007");
      expect(chain.getBalance(EWOQ, chain.feeAssetId).balance).to.equal(300_000_000n * 10n ** 9n);
    });

    it("refuses a genesis whose first asset is not the network's native asset", () => {
      const assets = buildGenesisAssets(LOCAL_NETWORK.networkId, { AVAX: { name: "Other", symbol: "OTH", initialState: { fixedCap: [{ amount: 1n, address: EWOQ }] } } });
      expect(() => new ExchangeChain({ network: LOCAL_NETWORK, sharedMemory: new SharedMemory(), genesis: { assets } })).to.throw(RangeError, "fee asset");
    });
  });

  describe("genesis bytes", () => {
    it("round-trip: decodeGenesisBytes(encodeGenesisBytes(assets)) gives the assets back", () => {
      const assets = buildGenesisAssets(12345, {
        ZED: { name: "Zed", symbol: "Z", denomination: 3, initialState: { variableCap: [{ minters: [EWOQ, addressOf(testKey(1))] }] } },
        ...Object.fromEntries(localGenesis().assets.map((a) => [a.alias, { name: a.tx.name, symbol: a.tx.symbol, denomination: a.tx.denomination, memo: a.tx.memo, initialState: { fixedCap: [{ amount: 9n, address: EWOQ }] } }])),
      });
      expect(decodeGenesisBytes(encodeGenesisBytes(assets))).to.deep.equal(assets);
    });

    it("are laid out as codec version, asset count, then per asset the alias and the CreateAssetTx fields without type ID", () => {
      const [asset] = buildGenesisAssets(7, { A: { name: "N", symbol: "S", denomination: 1, initialState: { fixedCap: [{ amount: 5n, address: new Uint8Array(20).fill(0xab) }] } } });
      const expected =
        "0000" + "00000001" + "0001" + "41" + // version, 1 asset, alias "A"
        "00000007" + "00".repeat(32) + "00000000" + "00000000" + "00000000" + // network 7, empty chain ID, no outs/ins, empty memo
        "0001" + "4e" + "0001" + "53" + "01" + // name "N", symbol "S", denomination 1
        "00000001" + "00000000" + "00000001" + // one state, fx 0, one output
        "00000007" + "0000000000000005" + "0000000000000000" + "00000001" + "00000001" + "ab".repeat(20);
      expect(Buffer.from(encodeGenesisBytes([asset!])).toString("hex")).to.equal(expected);
    });
  });

  describe("xvm.buildGenesis (static service)", () => {
    const holders = LOCAL_GENESIS_HOLDERS.map((h) => ({ amount: h.amount.toString(), address: h.address }));
    const memoHex = (encoding: "hex" | "cb58"): string => encodeNodeBytes(Buffer.from(LOCAL_GENESIS_ETH_ADDR.slice(2).repeat(2), "hex"), encoding);

    it("rebuilds the local network's exchange-chain genesis: its asset's ID is the native asset ID", async () => {
      const { dispatch } = createStaticXvmApi();
      const result = (await dispatch("xvm.buildGenesis", {
        networkID: 12345,
        genesisData: { AVAX: { name: "Avalanche", symbol: "AVAX", denomination: 9, memo: memoHex("hex"), initialState: { fixedCap: holders } } },
        encoding: "hex",
      })) as { bytes: string; encoding: string };
      expect(result.encoding).to.equal("hex");
      const assets = decodeGenesisBytes(decodeNodeBytes(result.bytes, "hex"));
      expect(encodeCb58(genesisAssetId(assets[0]!.tx))).to.equal(AVAX_ID);
      expect(assets).to.deep.equal(localGenesis().assets);
    });

    it("defaults to cb58 and answers as avm.buildGenesis too", async () => {
      const { dispatch } = createStaticXvmApi();
      const params = { networkID: "12345", genesisData: { AVAX: { name: "Avalanche", symbol: "AVAX", denomination: "9", memo: memoHex("cb58"), initialState: { fixedCap: holders } } } };
      const a = (await dispatch("avm.buildGenesis", params)) as { bytes: string; encoding: string };
      expect(a.encoding).to.equal("cb58");
      expect(encodeCb58(genesisAssetId(decodeGenesisBytes(decodeCb58(a.bytes))[0]!.tx))).to.equal(AVAX_ID);
    });

    it("sorts assets by alias and gives variableCap minter sets threshold 1, as the reference static service", async () => {
      const { dispatch } = createStaticXvmApi();
      const minter = formatBech32Address(EWOQ, "local");
      const { bytes } = (await dispatch("xvm.buildGenesis", {
        networkID: 1,
        genesisData: {
          ZZZ: { name: "Last", symbol: "Z", initialState: { variableCap: [{ minters: [minter], threshold: 5 }] } },
          AAA: { name: "First", symbol: "A", initialState: { fixedCap: [{ amount: 1, address: minter }] } },
        },
      })) as { bytes: string };
      const assets = decodeGenesisBytes(decodeCb58(bytes));
      expect(assets.map((a) => a.alias)).to.deep.equal(["AAA", "ZZZ"]);
      const mint = assets[1]!.tx.initialStates[0]!.outputs[0]!;
      expect(mint.typeId).to.equal(TypeId.Secp256k1MintOutput);
      expect(mint.threshold).to.equal(1);
    });

    it("rejects an asset type other than fixedCap and variableCap", async () => {
      const error = await rejection(createStaticXvmApi().dispatch("xvm.buildGenesis", { networkID: 1, genesisData: { NFT: { name: "N", symbol: "N", initialState: { nonFungible: [] } } } }));
      expect(error.code).to.equal(-32602);
      expect(error.message).to.include('unknown asset type "nonFungible"');
    });

    it("rejects a holder address with a chain prefix and says the static endpoint takes bare bech32", async () => {
      const error = await rejection(
        createStaticXvmApi().dispatch("xvm.buildGenesis", { networkID: 1, genesisData: { A: { name: "A", symbol: "A", initialState: { fixedCap: [{ amount: 1, address: EWOQ_ADDRESS }] } } } }),
      );
      expect(error.code).to.equal(-32602);
      expect(error.message).to.include("without chain prefix");
    });
  });
});
