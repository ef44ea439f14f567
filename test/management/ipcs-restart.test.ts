import { expect } from "chai";
import * as fs from "node:fs";
import * as net from "node:net";
import { IpcFrameDecoder } from "../../src/clients";
import { LOCAL_NETWORK } from "../../src/network/constants";
import { decodeProposerBlock, proposerBlockId } from "../../src/node/indexer/proposer-block";
import { openDataDirectory } from "../../src/storage";
import { type ManagedTestNode, startManagedNode, temporaryDirectory } from "./node";

/**
 * A node with `--db-dir` and the IPC sockets only (no index) keeps each announced contract-chain
 * block's container ID in its data directory, so that after a restart the next block wraps the
 * right parent without the node reading its chain back.
 */

interface Sockets {
  consensusURL: string;
}

/** The contract-chain containers the node's consensus socket sends while `act` runs. */
async function announcedDuring(node: ManagedTestNode, act: () => Promise<void>, count: number): Promise<Uint8Array[]> {
  const { consensusURL } = await node.call<Sockets>("/ext/ipcs", "ipcs.publishBlockchain", { blockchainID: "C" });
  const socket = net.createConnection(consensusURL);
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const decoder = new IpcFrameDecoder();
  const messages: Uint8Array[] = [];
  socket.on("data", (chunk: Buffer) => messages.push(...decoder.push(chunk)));
  try {
    await act();
    const deadline = Date.now() + 5000;
    while (messages.length < count) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} containers, got ${messages.length}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return messages;
  } finally {
    socket.destroy();
  }
}

/** The block numbers whose container IDs the data directory keeps. */
async function keptNumbers(dbDir: string): Promise<bigint[]> {
  const data = await openDataDirectory(dbDir, { networkId: LOCAL_NETWORK.networkId, evmChainId: LOCAL_NETWORK.evmChainId });
  try {
    const numbers: bigint[] = [];
    for await (const [key] of data.independentStore().namespace("acceptance/C-ids/").entries()) numbers.push(BigInt(key));
    return numbers;
  } finally {
    await data.close();
  }
}

describe("IPC sockets of a node restarted on its data directory", function () {
  this.timeout(120_000);
  let dbDir: string;
  let ipcsPath: string;
  let node: ManagedTestNode | undefined;
  beforeEach(() => {
    dbDir = temporaryDirectory("ipcs-restart-db");
    ipcsPath = temporaryDirectory("ipcs-restart-sockets");
  });
  afterEach(async () => {
    await node?.close();
    node = undefined;
    fs.rmSync(dbDir, { recursive: true, force: true });
    fs.rmSync(ipcsPath, { recursive: true, force: true });
  });

  it("keeps the container ID of each block it announces", async () => {
    node = await startManagedNode({ ipcsEnabled: true, ipcsPath, dbDir });
    await announcedDuring(node, async () => {
      for (let i = 0; i < 3; i++) await node!.sendC();
    }, 3);
    await node.close();
    node = undefined;
    // Block 1 is not wrapped: its ID is its hash. Blocks 2 and 3 are wrapped as they are announced.
    expect(await keptNumbers(dbDir)).to.deep.equal([2n, 3n]);
  });

  it("after a restart, wraps the next block over the last container announced before it", async () => {
    node = await startManagedNode({ ipcsEnabled: true, ipcsPath, dbDir });
    const before = await announcedDuring(node, async () => {
      for (let i = 0; i < 3; i++) await node!.sendC();
    }, 3);
    await node.close();
    node = await startManagedNode({ ipcsEnabled: true, ipcsPath, dbDir });
    const [next] = await announcedDuring(node, async () => {
      await node!.sendC();
    }, 1);
    expect(decodeProposerBlock(next!).parentId).to.deep.equal(proposerBlockId(before[2]!));
    expect(await node.call<string>("/ext/bc/C/rpc", "eth_blockNumber", [])).to.equal("0x4");
  });
});
