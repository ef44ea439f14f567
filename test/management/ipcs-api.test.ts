import { expect } from "chai";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { decodeNodeBytes } from "../../src/encoding";
import { IpcFrameDecoder } from "../../src/clients";
import { LOCAL_NETWORK } from "../../src/network/constants";
import { type ManagedTestNode, startManagedNode, temporaryDirectory } from "./node";

const X_ID = LOCAL_NETWORK.xChainId;
const C_ID = LOCAL_NETWORK.cChainId;

interface Sockets {
  consensusURL: string;
  decisionsURL: string;
}

/** A reader connected to an IPC socket, collecting the framed messages it receives. */
async function connectReader(socketPath: string): Promise<{ socket: net.Socket; messages: Uint8Array[]; closed: Promise<void> }> {
  const socket = net.createConnection(socketPath);
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const decoder = new IpcFrameDecoder();
  const messages: Uint8Array[] = [];
  socket.on("data", (chunk: Buffer) => messages.push(...decoder.push(chunk)));
  socket.on("error", () => undefined);
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  return { socket, messages, closed };
}

async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("IPC API (/ext/ipcs, --api-ipcs-enabled)", () => {
  let dir: string;
  let node: ManagedTestNode;
  beforeEach(async () => {
    dir = temporaryDirectory("ipcs");
    node = await startManagedNode({ ipcsEnabled: true, ipcsPath: dir, indexEnabled: true });
  });
  afterEach(async () => {
    await node.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const publish = (blockchainID: string) => node.call<Sockets>("/ext/ipcs", "ipcs.publishBlockchain", { blockchainID });

  it("publishBlockchain opens <ipcs-path>/<networkID>-<chainID>-consensus and -decisions", async () => {
    const sockets = await publish("X");
    expect(sockets).to.deep.equal({
      consensusURL: path.join(dir, `12345-${X_ID}-consensus`),
      decisionsURL: path.join(dir, `12345-${X_ID}-decisions`),
    });
    expect(fs.statSync(sockets.consensusURL).isSocket()).to.equal(true);
    expect(fs.statSync(sockets.decisionsURL).isSocket()).to.equal(true);
  });

  it("publishing a chain twice answers the same sockets, without an error", async () => {
    const first = await publish(C_ID);
    expect(await publish("C")).to.deep.equal(first);
  });

  it("getPublishedBlockchains lists the published chains by ID", async () => {
    await publish("X");
    await publish("evm");
    expect(await node.call("/ext/ipcs", "ipcs.getPublishedBlockchains", {})).to.deep.equal({ chains: [X_ID, C_ID] });
  });

  it("an unknown chain is refused with the node's alias error", async () => {
    expect(await node.failure("/ext/ipcs", "ipcs.publishBlockchain", { blockchainID: "Q" })).to.deep.equal({ code: -32000, message: "there is no ID with alias: Q" });
  });

  it("unpublishBlockchain closes the sockets and removes their files", async () => {
    const sockets = await publish("X");
    expect(await node.call("/ext/ipcs", "ipcs.unpublishBlockchain", { blockchainID: "X" })).to.deep.equal({ success: true });
    expect(fs.existsSync(sockets.consensusURL)).to.equal(false);
    expect(fs.existsSync(sockets.decisionsURL)).to.equal(false);
    expect(await node.call("/ext/ipcs", "ipcs.getPublishedBlockchains", {})).to.deep.equal({ chains: [] });
  });

  it("unpublishing a chain that is not published succeeds", async () => {
    expect(await node.call("/ext/ipcs", "ipcs.unpublishBlockchain", { blockchainID: "C" })).to.deep.equal({ success: true });
  });

  it("removes a stale socket file left at the path before listening", async () => {
    const stale = path.join(dir, `12345-${X_ID}-consensus`);
    // A process that exits without closing its server leaves its socket file behind.
    execFileSync(process.execPath, ["-e", `require("net").createServer().listen(${JSON.stringify(stale)}, () => process.exit(0))`]);
    expect(fs.statSync(stale).isSocket()).to.equal(true);
    const sockets = await publish("X");
    const reader = await connectReader(sockets.consensusURL);
    reader.socket.destroy();
  });

  it("sends each accepted exchange-chain transaction to the decisions socket: 8-byte big-endian length, then the signed bytes", async () => {
    const sockets = await publish("X");
    const socket = net.createConnection(sockets.decisionsURL);
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    const ids = [await node.sendX(1), await node.sendX(2)];
    const txs = await Promise.all(ids.map(async (txID) => decodeNodeBytes((await node.call<{ tx: string }>("/ext/bc/X", "avm.getTx", { txID, encoding: "hex" })).tx, "hex")));
    const expected = Buffer.concat(txs.flatMap((tx) => {
      const length = Buffer.alloc(8);
      length.writeBigUInt64BE(BigInt(tx.length));
      return [length, Buffer.from(tx)];
    }));
    await until(() => Buffer.concat(chunks).length >= expected.length, "two framed transactions");
    expect(Buffer.concat(chunks).equals(expected)).to.equal(true);
    socket.destroy();
  });

  it("sends each accepted contract-chain block to both sockets, as the index stores it", async () => {
    const sockets = await publish("C");
    const consensus = await connectReader(sockets.consensusURL);
    const decisions = await connectReader(sockets.decisionsURL);
    await node.sendC();
    await node.sendC();
    await until(() => consensus.messages.length === 2 && decisions.messages.length === 2, "two blocks on each socket");
    const { containers } = await node.call<{ containers: { bytes: string }[] }>("/ext/index/C/block", "index.getContainerRange", { startIndex: 0, numToFetch: 2 });
    const indexed = containers.map((c) => decodeNodeBytes(c.bytes, "hex"));
    expect(consensus.messages).to.deep.equal(indexed);
    expect(decisions.messages).to.deep.equal(indexed);
    consensus.socket.destroy();
    decisions.socket.destroy();
  });

  it("sends every message to every connected reader", async () => {
    const { decisionsURL } = await publish("X");
    const readers = [await connectReader(decisionsURL), await connectReader(decisionsURL)];
    await node.sendX();
    await until(() => readers.every((r) => r.messages.length === 1), "the transaction on both readers");
    expect(readers[0]!.messages).to.deep.equal(readers[1]!.messages);
    for (const r of readers) r.socket.destroy();
  });

  it("closes the sockets and removes their files when the node closes", async () => {
    const sockets = await publish("X");
    const reader = await connectReader(sockets.decisionsURL);
    await node.network.close();
    await reader.closed;
    expect(fs.readdirSync(dir)).to.deep.equal([]);
  });
});

describe("IPC API: a slow reader never holds up the chain", () => {
  it("drops a reader that leaves more than the bound unread, while the chain and the other readers go on", async () => {
    const dir = temporaryDirectory("ipcs-slow");
    const log: string[] = [];
    const node = await startManagedNode({ ipcsEnabled: true, ipcsPath: dir, ipcsMaxBufferedBytes: 64 * 1024, log: (line) => log.push(line) });
    try {
      const { consensusURL } = await node.call<Sockets>("/ext/ipcs", "ipcs.publishBlockchain", { blockchainID: "C" });
      const slow = await connectReader(consensusURL);
      slow.socket.pause(); // reads nothing: the kernel's buffer fills, then the node's
      const fast = await connectReader(consensusURL);
      const blocks = 12;
      const data = `0x${"ab".repeat(100_000)}`; // ~100 kB of calldata per block
      for (let i = 0; i < blocks; i++) await node.sendC({ data });
      await until(() => fast.messages.length === blocks, "every block on the fast reader", 10_000);
      expect(log.filter((line) => line.includes("reader dropped"))).to.deep.equal([`${consensusURL}: reader dropped (more than 65536 bytes unread)`]);
      // The slow reader, reading at last, finds what was sent before it was dropped, then the end.
      slow.socket.resume();
      await slow.closed;
      expect(slow.messages.length).to.be.lessThan(blocks);
      fast.socket.destroy();
    } finally {
      await node.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
