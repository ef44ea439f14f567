import { expect } from "chai";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { BlockRecord } from "../../src/engine/chain";
import { type AcceptanceSources, type AcceptedContainer, engineBlocks, NodeAcceptance } from "../../src/node/acceptance";
import { ContractChainContainers } from "../../src/node/indexer/contract-chain-containers";
import { StoredContainerIds } from "../../src/node/indexer/stored-container-ids";
import { durableStore, LevelBackend } from "../../src/storage";
import { NodeChains } from "../../src/node/node-chains";
import { PlatformWallet } from "../../src/pchain";
import { decodePrivateKey } from "../../src/encoding";
import { LOCAL_TEST_KEY } from "../../src/network/constants";

/**
 * What the node's acceptance observer reads of the chains' history: nothing when it is made,
 * and, for a consumer that holds the first containers already, only the blocks after them. The
 * chains are real (a local network in memory); the sources count the blocks asked for.
 */

interface Counted {
  sources: AcceptanceSources;
  /** Contract-chain block numbers asked for, in order. */
  contractReads: bigint[];
  /** Platform-chain heights asked for, in order. */
  platformReads: bigint[];
}

function countedSources(network: NodeChains): Counted {
  const contract = engineBlocks(network.engine);
  const contractReads: bigint[] = [];
  const platformReads: bigint[] = [];
  const platform = network.platform;
  return {
    contractReads,
    platformReads,
    sources: {
      contract: {
        ...contract,
        blockAt: (number) => {
          contractReads.push(number);
          return contract.blockAt(number);
        },
      },
      exchange: network.exchange,
      platform: {
        onAccept: (listener) => platform.onAccept(listener),
        get height() {
          return platform.height;
        },
        getBlockByHeight: (height) => {
          platformReads.push(height);
          return platform.getBlockByHeight(height);
        },
      },
      report: (problem) => {
        throw new Error(problem);
      },
    },
  };
}

async function mine(network: NodeChains, blocks: number): Promise<void> {
  await network.provider.dispatch("hardhat_mine", [`0x${blocks.toString(16)}`]);
}

async function platformBlocks(network: NodeChains, count: number): Promise<void> {
  const wallet = new PlatformWallet(network.platform, [decodePrivateKey(LOCAL_TEST_KEY)]);
  const owner = wallet.addresses[0]!;
  for (let i = 0; i < count; i++) {
    await network.platform.issue(wallet.multisigAlias({ owners: [owner], threshold: 1, memo: new TextEncoder().encode(`block ${i}`) }).bytes);
  }
}

/** The containers of every block above genesis, each wrapping its parent as a walk from genesis does. */
function walkedContainers(network: NodeChains): AcceptedContainer[] {
  const records: BlockRecord[] = [];
  for (let n = 0n; n <= network.engine.head.number; n++) records.push(network.engine.resolveBlock(n));
  const containers = new ContractChainContainers([]);
  return records.map((record) => containers.containerOf(record)).slice(1).map(({ id, bytes }) => ({ id, bytes }));
}

const plain = (containers: Iterable<AcceptedContainer>) => [...containers].map(({ id, bytes }) => ({ id, bytes }));

describe("the node's acceptance observer reads history on demand", function () {
  this.timeout(60_000);
  let network: NodeChains;
  beforeEach(async () => {
    network = await NodeChains.create();
    await mine(network, 10);
  });
  afterEach(() => network.close());

  it("reads no block when it is made", async () => {
    await platformBlocks(network, 2);
    const counted = countedSources(network);
    const acceptance = new NodeAcceptance(counted.sources);
    expect([acceptance.acceptedCount("C"), acceptance.acceptedCount("P")]).to.deep.equal([10n, 2n]);
    expect(counted.contractReads).to.deep.equal([]);
    expect(counted.platformReads).to.deep.equal([]);
    acceptance.close();
  });

  it("gives every container since genesis, as a walk from genesis builds them", () => {
    const acceptance = new NodeAcceptance(countedSources(network).sources);
    expect(plain(acceptance.acceptedSoFar("C"))).to.deep.equal(walkedContainers(network));
    acceptance.close();
  });

  it("reads only the blocks after those a consumer holds, and the last it holds (to check it)", () => {
    const all = walkedContainers(network);
    const counted = countedSources(network);
    const acceptance = new NodeAcceptance(counted.sources);
    const after = plain(acceptance.acceptedSoFar("C", { count: 6n, last: all[5]! }));
    expect(after).to.deep.equal(all.slice(6));
    expect(counted.contractReads).to.deep.equal([6n, 7n, 8n, 9n, 10n]);
    acceptance.close();
  });

  it("gives every container when what the consumer holds is not the chain's", () => {
    const all = walkedContainers(network);
    const acceptance = new NodeAcceptance(countedSources(network).sources);
    expect(plain(acceptance.acceptedSoFar("C", { count: 3n, last: all[4]! }))).to.deep.equal(all);
    acceptance.close();
  });

  it("reads only the platform blocks after those a consumer holds", async () => {
    await platformBlocks(network, 4);
    const all = [1n, 2n, 3n, 4n].map((h) => network.platform.getBlockByHeight(h)!).map(({ id, bytes }) => ({ id, bytes }));
    const counted = countedSources(network);
    const acceptance = new NodeAcceptance(counted.sources);
    expect(plain(acceptance.acceptedSoFar("P", { count: 2n, last: all[1]! }))).to.deep.equal(all.slice(2));
    expect(counted.platformReads).to.deep.equal([2n, 3n, 4n]);
    acceptance.close();
  });

  it("announces the first block after it was made wrapping its parent's container, read back from the chain", async () => {
    const acceptance = new NodeAcceptance(countedSources(network).sources);
    const announced: AcceptedContainer[] = [];
    acceptance.on("C", "consensus", (c) => announced.push(c));
    await mine(network, 1);
    expect(plain(announced)).to.deep.equal(walkedContainers(network).slice(-1));
    acceptance.close();
  });
});

describe("the contract chain's container IDs kept in a data directory", function () {
  this.timeout(60_000);
  let network: NodeChains;
  let dir: string;
  let backend: LevelBackend;
  const failOnReport = (problem: string) => {
    throw new Error(problem);
  };
  /** The store as a restarted node opens it: the LevelDB folder closed and opened again. */
  const reopenedIds = async () => {
    await backend.close();
    backend = await LevelBackend.open(dir);
    return new StoredContainerIds(durableStore(backend).namespace("acceptance/C-ids/"), failOnReport);
  };
  /** Mines one block and gives the container `acceptance` announced for it. */
  const announceNext = async (acceptance: NodeAcceptance): Promise<AcceptedContainer> => {
    const announced: AcceptedContainer[] = [];
    const stop = acceptance.on("C", "consensus", (c) => announced.push(c));
    await mine(network, 1);
    stop();
    expect(announced).to.have.length(1);
    // The entry is committed in the background, after the turn that kept it.
    await new Promise((resolve) => setImmediate(resolve));
    return announced[0]!;
  };

  beforeEach(async () => {
    network = await NodeChains.create();
    await mine(network, 10);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "nativekit-container-ids-"));
    backend = await LevelBackend.open(dir);
  });
  afterEach(async () => {
    await network.close();
    await backend.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("after a restart, announces the next block reading no block of the chain", async () => {
    const before = new NodeAcceptance(countedSources(network).sources, { keptContainerIds: await reopenedIds() });
    await announceNext(before);
    before.close();

    const counted = countedSources(network);
    const after = new NodeAcceptance(counted.sources, { keptContainerIds: await reopenedIds() });
    const next = await announceNext(after);
    expect(counted.contractReads).to.deep.equal([]);
    expect(plain([next])).to.deep.equal(walkedContainers(network).slice(-1));
    after.close();
  });

  it("without kept IDs, the same block reads the chain back to wrap its parent", async () => {
    const counted = countedSources(network);
    const acceptance = new NodeAcceptance(counted.sources);
    await announceNext(acceptance);
    expect(counted.contractReads.length).to.be.greaterThan(5);
    acceptance.close();
  });

  it("does not take the kept ID of a block the chain replaced at that height", async () => {
    const snapshot = await network.provider.dispatch("evm_snapshot", []);
    const before = new NodeAcceptance(countedSources(network).sources, { keptContainerIds: await reopenedIds() });
    const replaced = await announceNext(before);
    before.close();
    await network.provider.dispatch("evm_revert", [snapshot]);
    await network.provider.dispatch("evm_setNextBlockTimestamp", [Math.floor(Date.now() / 1000) + 3600]);
    await mine(network, 1);

    const after = new NodeAcceptance(countedSources(network).sources, { keptContainerIds: await reopenedIds() });
    const next = await announceNext(after);
    const walked = walkedContainers(network);
    expect(walked.at(-2)!.id).to.not.deep.equal(replaced.id);
    expect(plain([next])).to.deep.equal(walked.slice(-1));
    after.close();
  });
});
