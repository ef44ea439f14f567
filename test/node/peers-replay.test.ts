import { createBlock, createBlockFromRLP } from "@ethereumjs/block";
import { expect } from "chai";
import { NodeChains } from "../../src/node/node-chains";
import { ContractChainContainers } from "../../src/node/indexer/contract-chain-containers";
import { replayContainer, ReplayRefusedError, type ReceivedContainer, type ReplayTarget } from "../../src/node/peers/container-replay";
import { PEER_NETWORK_GENESIS_TIMESTAMP } from "../../src/node/peers/peering";
import { refusal } from "../helpers/refusal";

const RECIPIENT = "0x00000000000000000000000000000000000c0ffe";

/** Two nodes of one network in this process: one that produces, one that applies its containers. */
async function producerAndFollower(): Promise<{ producer: NodeChains; follower: NodeChains; target: ReplayTarget }> {
  const options = { genesisTimestamp: PEER_NETWORK_GENESIS_TIMESTAMP };
  const [producer, follower] = await Promise.all([NodeChains.create(options), NodeChains.create(options)]);
  return { producer, follower, target: { engine: follower.engine, atomics: follower.atomics, exchange: follower.exchange, platform: follower.platform } };
}

/** The contract-chain container of the producer's block `number`. */
function contractContainer(network: NodeChains, number: bigint): ReceivedContainer {
  const containers = new ContractChainContainers([...network.engine.chain.range(0n, number - 1n)]);
  const container = containers.containerOf(network.engine.blockAt(number)!);
  return { chain: "C", id: container.id, bytes: container.bytes, atomic: [] };
}

async function transfer(network: NodeChains, value: string): Promise<void> {
  const [from] = (await network.provider.dispatch("eth_accounts", [])) as string[];
  await network.provider.dispatch("eth_sendTransaction", [{ from, to: RECIPIENT, value }]);
  // Its block may be sealed after the answer: the engine's queue has run it once this resolves.
  await network.engine.serialize(() => Promise.resolve());
}

describe("a follower applying its producer's containers (container-replay)", function () {
  this.timeout(60_000);

  it("re-executes a contract-chain block into the same block hash", async () => {
    const { producer, follower, target } = await producerAndFollower();
    await transfer(producer, "0x7");
    await replayContainer(target, contractContainer(producer, 1n));
    expect(follower.engine.head.hash).to.equal(producer.engine.head.hash);
  });

  it("refuses a contract-chain block whose transaction list was altered, and leaves its chain as it was", async () => {
    const { producer, follower, target } = await producerAndFollower();
    await transfer(producer, "0x7");
    await transfer(producer, "0x8");
    // Block 1's header with block 2's transaction.
    const common = producer.engine.common;
    const honest = producer.engine.blockAt(1n)!.block;
    const other = producer.engine.blockAt(2n)!.block;
    const tampered = createBlock({ header: honest.header, transactions: other.transactions }, { common, setHardfork: false });
    const rlp = tampered.serialize();
    const error = await refusal(replayContainer(target, { chain: "C", id: createBlockFromRLP(rlp, { common, setHardfork: false }).hash(), bytes: rlp, atomic: [] }));
    expect(error).to.be.instanceOf(ReplayRefusedError);
    expect(error.message).to.match(/C block 1 .* refused: its transactions do not match its header's transactions root/);
    expect(follower.engine.head.number).to.equal(0n);
  });

  it("refuses a contract-chain block whose header claims another state", async () => {
    const { producer, target } = await producerAndFollower();
    await transfer(producer, "0x7");
    const common = producer.engine.common;
    const honest = producer.engine.blockAt(1n)!.block;
    const header = { ...honest.header.toJSON(), stateRoot: new Uint8Array(32).fill(1) };
    const tampered = createBlock({ header, transactions: honest.transactions }, { common, setHardfork: false });
    const error = await refusal(replayContainer(target, { chain: "C", id: tampered.hash(), bytes: tampered.serialize(), atomic: [] }));
    expect(error.message).to.match(/re-executing it gave block 0x[0-9a-f]{64} \(state root/);
  });

  it("refuses a container whose ID is not its bytes' ID", async () => {
    const { producer, target } = await producerAndFollower();
    await transfer(producer, "0x7");
    const container = contractContainer(producer, 1n);
    const error = await refusal(replayContainer(target, { ...container, id: new Uint8Array(32).fill(9) }));
    expect(error.message).to.match(/its ID is not the ID of its bytes/);
  });

  it("refuses an exchange-chain transaction whose bytes were altered", async () => {
    const { producer, follower, target } = await producerAndFollower();
    const accepted = producer.exchange.acceptedTxs().find((tx) => tx.genesis)!;
    const bytes = accepted.bytes.slice();
    bytes[bytes.length - 1] ^= 1;
    const error = await refusal(replayContainer(target, { chain: "X", id: accepted.id, bytes, atomic: [] }));
    expect(error.message).to.match(/X transaction \S+ refused: its bytes hash to/);
    expect(follower.exchange.acceptedTxs().filter((tx) => !tx.genesis)).to.have.length(0);
  });

  it("refuses a contract-chain block that does not extend its head", async () => {
    const { producer, target } = await producerAndFollower();
    await transfer(producer, "0x7");
    await transfer(producer, "0x8");
    const error = await refusal(replayContainer(target, contractContainer(producer, 2n)));
    expect(error.message).to.match(/C block 2 .* refused: this node's head is block 0/);
  });
});
