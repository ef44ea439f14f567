import { expect } from "chai";
import { engineBlocks, NodeAcceptance } from "../../src/node/acceptance";
import { NodeChains } from "../../src/node/node-chains";
import { AcceptanceLog } from "../../src/node/peers/acceptance-log";
import { LOCAL_TEST_KEY } from "../../src/network/constants";
import { durableStore, MemoryBackend, type DurableStore } from "../../src/storage";

const USER = { username: "log-user", password: "Corr3ct-Horse-Battery-Staple" };
const RECIPIENT = "0x00000000000000000000000000000000000c0ffe";

function acceptanceOf(network: NodeChains): NodeAcceptance {
  return new NodeAcceptance({
    contract: engineBlocks(network.engine),
    exchange: network.exchange,
    platform: network.platform,
    report: (problem) => {
      throw new Error(problem);
    },
  });
}

async function contractTransfer(network: NodeChains): Promise<void> {
  const [from] = (await network.provider.dispatch("eth_accounts", [])) as string[];
  await network.provider.dispatch("eth_sendTransaction", [{ from, to: RECIPIENT, value: "0x1" }]);
  await network.engine.serialize(() => Promise.resolve());
}

async function exchangeSend(network: NodeChains): Promise<void> {
  const x = network.routes["/ext/bc/X"]!;
  const users = (await network.routes["/ext/keystore"]!("keystore.listUsers", {})) as { users: string[] };
  if (!users.users.includes(USER.username)) await network.routes["/ext/keystore"]!("keystore.createUser", USER);
  const { address } = (await x("avm.importKey", { ...USER, privateKey: LOCAL_TEST_KEY })) as { address: string };
  await x("avm.send", { ...USER, assetID: "AVAX", amount: 1000, to: address });
}

function chainsOf(log: AcceptanceLog): string[] {
  return Array.from({ length: log.length }, (_, seq) => log.entry(seq).chain);
}

describe("the acceptance log: one order across the chains", function () {
  this.timeout(60_000);
  let store: DurableStore;
  beforeEach(() => (store = durableStore(new MemoryBackend())));

  it("logs the containers of every chain in the order they were accepted", async () => {
    const network = await NodeChains.create();
    const log = await AcceptanceLog.open(acceptanceOf(network), store, () => undefined);
    await contractTransfer(network);
    await exchangeSend(network);
    await contractTransfer(network);
    expect(chainsOf(log)).to.deep.equal(["C", "X", "C"]);
    expect(log.heights()).to.deep.equal({ C: 2, X: 1, P: 0 });
  });

  it("reads its order back from its store", async () => {
    const network = await NodeChains.create();
    const first = await AcceptanceLog.open(acceptanceOf(network), store, () => undefined);
    await exchangeSend(network);
    await contractTransfer(network);
    await exchangeSend(network);
    await store.commit();
    first.close();
    const reopened = await AcceptanceLog.open(acceptanceOf(network), store, () => undefined);
    expect(chainsOf(reopened)).to.deep.equal(["X", "C", "X"]);
    expect(reopened.entry(1).id).to.deep.equal(first.entry(1).id);
  });

  it("puts containers its store does not name at the end, platform, then exchange, then contract", async () => {
    const network = await NodeChains.create();
    await contractTransfer(network);
    await exchangeSend(network);
    const problems: string[] = [];
    const log = await AcceptanceLog.open(acceptanceOf(network), store, (p) => problems.push(p));
    expect(chainsOf(log)).to.deep.equal(["X", "C"]);
    // A fresh log has nothing to say it missed.
    expect(problems).to.deep.equal([]);
  });
});
