import { expect } from "chai";
import { SharedMemory } from "../../src/atomic/shared-memory";
import { bytesToHex } from "../../src/encoding";
import { LOCAL_NETWORK } from "../../src/network/constants";
import {
  aliasIdFromTxId,
  LOCAL_GENESIS_TIME,
  type PBuiltTx,
  PlatformChain,
  PlatformFeeMarket,
  type PlatformFeeOptions,
  platformFeeSchedule,
  platformGenesis,
  PlatformWallet,
  PTypeId,
  UNSCHEDULED_ACTIVATION_TIME,
} from "../../src/pchain";
import { PlatformChainRecords } from "../../src/pchain/vm/persistence";
import { type DurableStore, durableStore, type StoreBackend } from "../../src/storage";
import { CountingBackend } from "../helpers/counting-backend";
import { levelBackend, type ReopenableBackend } from "../helpers/stored-chain";
import { rejection } from "../helpers/chain";
import { EWOQ_KEY } from "./helpers";

/*
 * The platform chain in a LevelDB store at a few hundred blocks: start-up reads its state and
 * head block, not its blocks; every answer survives a restart, a kill before a commit, a
 * migration from the blocks-only layout, and evm_revert; damaged state is refused.
 */

const hex = (b: Uint8Array): string => bytesToHex(b).slice(2);
const START_TIME = BigInt(Math.floor(Date.now() / 1000)) - 10_000n;

interface Opened {
  chain: PlatformChain;
  store: DurableStore;
  clock: { now: bigint };
}

async function openOn(backend: StoreBackend, clock = { now: START_TIME }, fees?: PlatformFeeOptions): Promise<Opened> {
  const store = durableStore(backend);
  const sharedMemory = await SharedMemory.open(store.namespace("atomic/"));
  const genesis = platformGenesis(LOCAL_NETWORK, fees === undefined ? {} : { fees });
  const chain = await PlatformChain.open({ network: LOCAL_NETWORK, sharedMemory, genesis, store: store.namespace("p/"), clock: () => clock.now });
  return { chain, store, clock };
}

/** `count` blocks: aliases created and updated, and exports to the exchange chain; the transaction IDs. */
async function grow(chain: PlatformChain, clock: { now: bigint }, count: number, accept = true): Promise<Uint8Array[]> {
  const wallet = new PlatformWallet(chain, [EWOQ_KEY]);
  const owner = wallet.addresses[0]!;
  const ids: Uint8Array[] = [];
  let aliasId = chain.aliasesOwnedBy(owner)[0]?.alias.id;
  for (let i = 0; i < count; i++) {
    clock.now += 1n;
    const memo = new TextEncoder().encode(`block ${chain.height + 1n}`);
    let built: PBuiltTx;
    if (i % 5 === 4) built = wallet.export({ amount: 1_000_000n + BigInt(i), destinationChain: chain.lookupChain("X"), to: owner });
    else if (aliasId === undefined || i % 7 === 3) built = wallet.multisigAlias({ owners: [owner], threshold: 1, memo });
    else built = wallet.multisigAlias({ owners: [owner], threshold: 1, memo, aliasId });
    const id = accept ? await chain.issue(built.bytes) : chain.issueTx(built.bytes);
    if (built.tx.unsignedTx.typeId === PTypeId.MultisigAliasTx && aliasId === undefined) aliasId = aliasIdFromTxId(id);
    ids.push(id);
  }
  return ids;
}

/** What the chain answers about its blocks, transactions, UTXOs (paged one by one), balance, aliases and fees. */
function answersOf(chain: PlatformChain, txIds: Uint8Array[]) {
  const owner = new PlatformWallet(chain, [EWOQ_KEY]).addresses[0]!;
  const aliases = chain.aliasesOwnedBy(owner);
  const blocks = [];
  for (let h = 1n; h <= chain.height; h++) {
    const block = chain.getBlockByHeight(h)!;
    blocks.push({ id: hex(block.id), bytes: hex(block.bytes), acceptedAt: block.acceptedAt, byId: hex(chain.getBlock(block.id)!.bytes) });
  }
  const pages = [];
  let page = chain.getUtxos([owner, ...aliases.map((a) => a.alias.id)], { limit: 1 });
  for (let i = 0; i < 6 && page.utxos.length > 0; i++) {
    pages.push(page.bytes.map(hex));
    page = chain.getUtxos([owner], { startAddress: page.lastAddress, startUtxoId: page.lastUtxoId, limit: 1 });
  }
  const balance = chain.getBalance([owner]);
  return {
    height: chain.height,
    genesis: { id: hex(chain.getBlockByHeight(0n)!.id), bytes: hex(chain.getBlockByHeight(0n)!.bytes) },
    lastAccepted: hex(chain.lastAccepted().id),
    blocks,
    txs: txIds.map((id) => {
      const tx = chain.getTx(id);
      return tx === undefined ? undefined : { id: hex(tx.id), bytes: hex(tx.bytes), blockId: hex(tx.blockId), height: tx.height };
    }),
    statuses: txIds.map((id) => chain.getTxStatus(id)),
    pages,
    allUtxos: chain.getAllUtxos([owner]).map((u) => hex(u.bytes)),
    balance: { unlocked: [...balance.unlocked], locked: [...balance.locked], utxos: balance.utxos.length },
    aliases: aliases.map((a) => ({ id: hex(a.alias.id), nonce: a.nonce, memo: hex(a.alias.memo), direct: chain.getAlias(a.alias.id)?.nonce })),
    fees: chain.feeState(),
    nextBlockTime: chain.nextBlockTime(),
  };
}

describe("pchain persistence at scale: start-up reads the state, not the blocks", function () {
  this.timeout(180_000);
  let data: ReopenableBackend;
  beforeEach(async () => (data = await levelBackend()));
  afterEach(() => data.dispose());

  it("opens a chain of 300 blocks reading no block but its head (and no index entry)", async () => {
    const { chain, clock } = await openOn(data.backend());
    await grow(chain, clock, 300);
    await data.reopen();
    const counting = new CountingBackend(data.backend());
    const reopened = await openOn(counting);
    expect(reopened.chain.height).to.equal(300n);
    const blockReads = counting.reads.filter((key) => /^p\/[bit]\//.test(key));
    // The head block, and the check that nothing is stored after it.
    expect(blockReads).to.deep.equal([PlatformChainRecords.blockKey(300n), PlatformChainRecords.blockKey(301n)].map((k) => `p/${k}`));
    expect(counting.listed.filter((prefix) => prefix.startsWith("p/") && prefix !== "p/s/")).to.deep.equal([]);
  });

  it("answers after a restart exactly as before it, and goes on from its last block", async () => {
    const { chain, clock } = await openOn(data.backend());
    const ids = await grow(chain, clock, 120);
    const before = answersOf(chain, ids);
    await data.reopen();
    const reopened = await openOn(data.backend(), clock);
    expect(answersOf(reopened.chain, ids)).to.deep.equal(before);
    const [next] = await grow(reopened.chain, clock, 1);
    expect(reopened.chain.getTx(next!)?.height).to.equal(121n);
  });

  it("answers as a chain kept in memory does", async () => {
    const clock = { now: START_TIME };
    const memory = new PlatformChain({ network: LOCAL_NETWORK, sharedMemory: new SharedMemory(), genesis: platformGenesis(LOCAL_NETWORK), clock: () => clock.now });
    const ids = await grow(memory, clock, 60);
    const stored = await openOn(data.backend());
    await grow(stored.chain, stored.clock, 60);
    const withoutAcceptance = (answers: ReturnType<typeof answersOf>) => ({ ...answers, blocks: answers.blocks.map((b) => ({ ...b, acceptedAt: 0 })) });
    expect(withoutAcceptance(answersOf(stored.chain, ids))).to.deep.equal(withoutAcceptance(answersOf(memory, ids)));
  });

  it("killed after accepting blocks it had not committed, opens at its last commit and goes on", async () => {
    const { chain, clock } = await openOn(data.backend());
    const committed = await grow(chain, clock, 40);
    const before = answersOf(chain, committed);
    const committedAt = clock.now;
    const lost = await grow(chain, clock, 3, false);
    expect(chain.height).to.equal(43n);
    await data.reopen(); // the staged blocks and state are never written, as when the process is killed
    const reopened = await openOn(data.backend(), { now: committedAt });
    expect(answersOf(reopened.chain, committed)).to.deep.equal(before);
    expect(lost.map((id) => reopened.chain.getTxStatus(id))).to.deep.equal(["Unknown", "Unknown", "Unknown"]);
    await grow(reopened.chain, reopened.clock, 2);
    expect(reopened.chain.height).to.equal(42n);
  });

  it("migrates a store of the blocks-only layout once, deleting nothing, then opens it without its blocks", async () => {
    const clock = { now: START_TIME };
    const memory = new PlatformChain({ network: LOCAL_NETWORK, sharedMemory: new SharedMemory(), genesis: platformGenesis(LOCAL_NETWORK), clock: () => clock.now });
    const ids = await grow(memory, clock, 80);
    // What the previous version wrote: the genesis ID and one record per block, nothing else.
    const old = new PlatformChainRecords(durableStore(data.backend()).namespace("p/"));
    old.putGenesis(memory.getBlockByHeight(0n)!.id);
    for (const block of memory.acceptedBlocks().slice(1)) old.putBlock(block.height, block.acceptedAt, block.bytes);
    await old.commit();
    const oldRecords = await recordsOf(data.backend(), "p/b/");

    const migrated = await openOn(data.backend(), { now: clock.now });
    expect(answersOf(migrated.chain, ids)).to.deep.equal(answersOf(memory, ids));
    expect(await recordsOf(data.backend(), "p/b/")).to.deep.equal(oldRecords);
    expect(new TextDecoder().decode(await data.backend().get("p/layout"))).to.equal("2");

    await data.reopen();
    const counting = new CountingBackend(data.backend());
    const reopened = await openOn(counting, { now: clock.now });
    expect(counting.listed).to.not.include("p/b/");
    expect(answersOf(reopened.chain, ids)).to.deep.equal(answersOf(memory, ids));
  });

  it("keeps the chain as a snapshot's return left it: the dropped blocks and their index entries deleted", async () => {
    const { chain, store, clock } = await openOn(data.backend());
    const kept = await grow(chain, clock, 20);
    const restore = chain.capture();
    const before = answersOf(chain, kept);
    const snapshotAt = clock.now;
    const dropped = await grow(chain, clock, 5);
    restore();
    clock.now = snapshotAt; // as evm_revert puts the clock back
    await store.commit();
    expect(answersOf(chain, kept)).to.deep.equal(before);
    await data.reopen();
    const reopened = await openOn(data.backend(), { now: snapshotAt });
    expect(answersOf(reopened.chain, kept)).to.deep.equal(before);
    expect(dropped.map((id) => reopened.chain.getTxStatus(id))).to.deep.equal(Array(5).fill("Unknown"));
    expect(await recordsOf(data.backend(), "p/b/")).to.have.length(20);
    expect(await recordsOf(data.backend(), "p/t/")).to.have.length(20);
    await grow(reopened.chain, reopened.clock, 1);
    expect(reopened.chain.height).to.equal(21n);
  });

  it("opened under another fee schedule, has the fee state its blocks give under that schedule", async () => {
    const { chain, clock } = await openOn(data.backend());
    await grow(chain, clock, 15);
    const stored = chain.feeState();
    await data.reopen();
    const staticFees: PlatformFeeOptions = { etnaTime: UNSCHEDULED_ACTIVATION_TIME };
    const reopened = await openOn(data.backend(), { now: clock.now }, staticFees);
    const expected = new PlatformFeeMarket(platformFeeSchedule(LOCAL_NETWORK.txFee, staticFees), LOCAL_GENESIS_TIME);
    for (let h = 1n; h <= 15n; h++) {
      const { block } = reopened.chain.getBlockByHeight(h)!;
      if (block.typeId === PTypeId.BanffStandardBlock) expected.accept(block.txs[0]!.unsignedTx, block.time);
    }
    expect(reopened.chain.feeState()).to.deep.equal(expected.feeState()).and.not.deep.equal(stored);
  });

  it("refuses a store whose state head is damaged, naming the record", async () => {
    const { chain, clock } = await openOn(data.backend());
    await grow(chain, clock, 10);
    await data.backend().write(new Map([["p/s/head", new TextEncoder().encode("{not json")]]));
    const error = await rejection(openOn(data.backend()));
    expect(error.message).to.equal('the stored record "head" is damaged: it is not a JSON record');
  });

  it("refuses a store whose UTXO record is damaged, naming it", async () => {
    const { chain, clock } = await openOn(data.backend());
    await grow(chain, clock, 10);
    const [key, value] = (await recordsOf(data.backend(), "p/s/u/"))[0]!;
    await data.backend().write(new Map([[key, value.subarray(0, 12)]]));
    const error = await rejection(openOn(data.backend()));
    expect(error.message).to.match(new RegExp(`^the stored record "${key.slice("p/s/".length)}" is damaged: `));
  });

  it("refuses a store whose state is not at its last stored block", async () => {
    const { chain, clock } = await openOn(data.backend());
    await grow(chain, clock, 10);
    const last = await data.backend().get(`p/${PlatformChainRecords.blockKey(10n)}`);
    await data.backend().write(new Map([[`p/${PlatformChainRecords.blockKey(11n)}`, last!]]));
    const error = await rejection(openOn(data.backend()));
    expect(error.message).to.match(/^the data directory's platform chain cannot be opened: its state is at block 10 \(\w+\), and block 11 is stored after it;/);
  });

  it("refuses a store of a layout it does not know", async () => {
    const { chain, clock } = await openOn(data.backend());
    await grow(chain, clock, 1);
    await data.backend().write(new Map([["p/layout", new TextEncoder().encode("9")]]));
    const error = await rejection(openOn(data.backend()));
    expect(error.message).to.include("holds a platform chain in layout 9, which this version does not know");
  });
});

async function recordsOf(backend: StoreBackend, prefix: string): Promise<[string, Uint8Array][]> {
  const records: [string, Uint8Array][] = [];
  for await (const entry of backend.entries(prefix)) records.push(entry);
  return records;
}
