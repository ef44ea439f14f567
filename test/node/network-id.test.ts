import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { createCliNode } from "../../src/cli/main";
import { startedCliNode } from "../helpers/cli-node";
import type { CliNode } from "../../src/cli/cli";
import { formatBech32Address, parseBech32Address } from "../../src/encoding";
import { LOCAL_NETWORK, LOCAL_TEST_KEY } from "../../src/network/constants";
import { networkHrp, networkName } from "../../src/network/names";
import { networkForId } from "../../src/node/network-for-id";
import { LOCAL_GENESIS_HOLDERS } from "../../src/xchain/genesis";

const USER = { username: "alice", password: "correct horse battery staple" };
/** The local test key's short ID (the second local genesis holder). */
const TEST_KEY_SHORT_ID = parseBech32Address(LOCAL_GENESIS_HOLDERS[1]!.address).shortId;
const testKeyAddress = (chain: string, hrp: string): string => `${chain}-${formatBech32Address(TEST_KEY_SHORT_ID, hrp)}`;

/** A call on one of the node's routes; throws the error's message. */
async function call<T>(node: CliNode, route: string, method: string, params: unknown = {}): Promise<T> {
  const dispatch = node.routes[route];
  if (dispatch === undefined) throw new Error(`the node serves no ${route}`);
  return (await dispatch(method, params)) as T;
}

describe("--network-id: the network ID every API reports and the hrp of its addresses", function () {
  this.timeout(60_000);

  describe("the reference's names and hrps by network ID", () => {
    it("maps the named networks and gives any other ID the hrp custom and the name network-<id>", () => {
      expect([1, 5, 12345, 54321].map(networkHrp)).to.deep.equal(["avax", "fuji", "local", "custom"]);
      expect([1, 5, 12345, 54321].map(networkName)).to.deep.equal(["mainnet", "fuji", "local", "network-54321"]);
    });

    it("keeps the local network's identifiers for 12345, and changes the ID, hrp and native asset ID for another", () => {
      expect(networkForId(12345)).to.equal(LOCAL_NETWORK);
      const custom = networkForId(54321);
      expect(custom).to.include({ networkId: 54321, hrp: "custom", xChainId: LOCAL_NETWORK.xChainId, cChainId: LOCAL_NETWORK.cChainId, evmChainId: 43112 });
      expect(custom.nativeAsset.id).to.match(/^[1-9A-HJ-NP-Za-km-z]{49,50}$/).and.not.equal(LOCAL_NETWORK.nativeAsset.id);
      expect(custom.nativeAsset).to.include({ alias: "AVAX", symbol: "AVAX", denomination: 9 });
      expect(() => networkForId(2 ** 32)).to.throw(RangeError, /from 1 to 4294967295/);
    });
  });

  describe("a node started with --network-id 54321", () => {
    let node: CliNode;
    before(async () => {
      node = await createCliNode({ networkId: 54321 });
    });
    after(async () => {
      await node.close?.();
    });

    it("info.getNetworkID and info.getNetworkName answer 54321 and network-54321", async () => {
      expect(await call(node, "/ext/info", "info.getNetworkID")).to.deep.equal({ networkID: "54321" });
      expect(await call(node, "/ext/info", "info.getNetworkName")).to.deep.equal({ networkName: "network-54321" });
    });

    it("platform.getConfiguration reports the network ID, the hrp custom and the network's native asset", async () => {
      const configuration = await call<Record<string, unknown>>(node, "/ext/bc/P", "platform.getConfiguration");
      const staking = await call<{ assetID: string }>(node, "/ext/bc/P", "platform.getStakingAssetID");
      expect(configuration).to.include({ networkID: "54321", hrp: "custom", assetSymbol: "AVAX", assetID: staking.assetID });
      expect(configuration.assetID).to.equal(networkForId(54321).nativeAsset.id);
    });

    it("the keystore's users get custom1 addresses on the exchange and platform chains", async () => {
      await call(node, "/ext/keystore", "keystore.createUser", USER);
      const x = await call<{ address: string }>(node, "/ext/bc/X", "avm.importKey", { ...USER, privateKey: LOCAL_TEST_KEY });
      expect(x.address).to.equal(testKeyAddress("X", "custom"));
      const p = await call<{ address: string }>(node, "/ext/bc/P", "platform.importKey", { ...USER, privateKey: LOCAL_TEST_KEY });
      expect(p.address).to.equal(testKeyAddress("P", "custom"));
      const listed = await call<{ addresses: string[] }>(node, "/ext/bc/X", "avm.listAddresses", USER);
      expect(listed.addresses).to.deep.equal([testKeyAddress("X", "custom")]);
    });

    it("the genesis funds are at the custom1 addresses and a local1 address is refused", async () => {
      const balance = await call<{ balance: string }>(node, "/ext/bc/X", "avm.getBalance", { address: testKeyAddress("X", "custom"), assetID: "AVAX" });
      expect(BigInt(balance.balance)).to.be.greaterThan(0n);
      const refused = await call(node, "/ext/bc/X", "avm.getBalance", { address: testKeyAddress("X", "local"), assetID: "AVAX" }).catch((e: Error) => e);
      expect(refused).to.be.instanceOf(Error);
      expect((refused as Error).message).to.match(/hrp/);
    });

    it("an export to the contract chain names a C-custom1 owner, and the contract chain's atomic side lists it by that address", async () => {
      const cOwner = testKeyAddress("C", "custom");
      const exported = await call<{ txID: string; changeAddr: string }>(node, "/ext/bc/X", "avm.export", { ...USER, to: cOwner, amount: 5_000_000, assetID: "AVAX" });
      expect(exported.changeAddr).to.equal(testKeyAddress("X", "custom"));
      const utxos = await call<{ numFetched: string; endIndex: { address: string } }>(node, "/ext/bc/C/avax", "avax.getUTXOs", { addresses: [cOwner], sourceChain: "X" });
      expect(utxos.numFetched).to.equal("1");
      expect(utxos.endIndex.address).to.equal(cOwner);
      const refused = await call(node, "/ext/bc/C/avax", "avax.getUTXOs", { addresses: [testKeyAddress("C", "local")], sourceChain: "X" }).catch((e: Error) => e);
      expect((refused as Error).message).to.match(/expected hrp "custom"/);
    });

    it("its banner's test-key lines show the custom1 address", () => {
      expect(node.notes?.join("\n")).to.contain(testKeyAddress("X", "custom"));
    });
  });

  describe("a node started without --network-id", () => {
    it("is the local network, as before: 12345, local, X-local1 addresses", async () => {
      const node = await createCliNode({});
      try {
        expect(await call(node, "/ext/info", "info.getNetworkID")).to.deep.equal({ networkID: "12345" });
        expect(await call(node, "/ext/info", "info.getNetworkName")).to.deep.equal({ networkName: "local" });
        const configuration = await call<Record<string, unknown>>(node, "/ext/bc/P", "platform.getConfiguration");
        expect(configuration).to.include({ networkID: "12345", hrp: "local", assetID: LOCAL_NETWORK.nativeAsset.id });
        await call(node, "/ext/keystore", "keystore.createUser", USER);
        const x = await call<{ address: string }>(node, "/ext/bc/X", "avm.importKey", { ...USER, privateKey: LOCAL_TEST_KEY });
        expect(x.address).to.equal(testKeyAddress("X", "local"));
      } finally {
        await node.close?.();
      }
    });
  });

  describe("--genesis-file with --network-id", () => {
    it("reads the aliases' owners as custom1 addresses and prints each alias with its address, threshold and owners", async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-network-id-"));
      const file = path.join(dir, "genesis.json");
      const owners = [testKeyAddress("P", "custom"), `P-${formatBech32Address(new Uint8Array(20).fill(7), "custom")}`];
      fs.writeFileSync(file, JSON.stringify({ initialMultisigAddresses: [{ addresses: owners, threshold: 2, memo: "treasury" }] }));
      const node = await createCliNode({ networkId: 54321, genesisFile: file });
      try {
        const notes = node.notes!.join("\n");
        expect(notes).to.contain("Genesis multisig aliases (platform chain, from --genesis-file):");
        const alias = /\n {2}(P-custom1[0-9a-z]+) {3}2 of 2, memo "treasury"\n/.exec(notes)?.[1];
        expect(alias, notes).to.be.a("string");
        for (const owner of owners) expect(notes).to.contain(`    owner ${owner}`);
        const answer = await call<{ threshold: string; addresses: string[] }>(node, "/ext/bc/P", "platform.getMultisigAlias", { address: alias });
        expect(answer.threshold).to.equal("2");
        expect([...answer.addresses].sort()).to.deep.equal([...owners].sort());
      } finally {
        await node.close?.();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it("nativekit node --network-id 54321 --genesis-file prints the aliases in its banner and answers 54321 over HTTP", async function () {
      this.timeout(240_000);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-network-id-"));
      const file = path.join(dir, "genesis.json");
      const owners = [testKeyAddress("P", "custom"), `P-${formatBech32Address(new Uint8Array(20).fill(9), "custom")}`];
      fs.writeFileSync(file, JSON.stringify({ camino: { initialMultisigAddresses: [{ addresses: owners, threshold: 1 }] } }));
      try {
        const node = await startedCliNode(["--network-id", "54321", "--genesis-file", file, "--silent"]);
        try {
          const alias = /\n {2}(P-custom1[0-9a-z]+) {3}1 of 2\n/.exec(node.output())?.[1];
          expect(alias, node.output()).to.be.a("string");
          expect(node.output()).to.contain(testKeyAddress("X", "custom"));
          expect(await node.call("/ext/info", "info.getNetworkID", {})).to.deep.equal({ networkID: "54321" });
          expect(await node.call<{ threshold: string }>("/ext/bc/P", "platform.getMultisigAlias", { address: alias })).to.include({ threshold: "1" });
        } finally {
          await node.stop();
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it("prints no alias lines without a genesis file", async () => {
      const node = await createCliNode({});
      try {
        expect(node.notes!.join("\n")).not.to.contain("Genesis multisig aliases");
      } finally {
        await node.close?.();
      }
    });
  });
});
