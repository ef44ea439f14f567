/**
 * The decoding threads (ingest/decode-threads.ts): a page decoded there must be the page decoded
 * on the ingest thread, row for row (IDs, amounts as bigints, recovered signers, the reason a
 * container could not be decoded), in order, whatever share of it each thread took.
 */
import { expect } from "chai";
import { generateStandInChain } from "../../../bench/explorer-stand-in";
import type { ExplorerContext } from "../../../src/services/explorer/context";
import { decodeSelfContained, type RawContainer } from "../../../src/services/explorer/ingest/decode-container";
import { DecodeThreads } from "../../../src/services/explorer/ingest/decode-threads";
import { forgetSignerHints } from "../../../src/services/explorer/ingest/outputs";
import type { DecodedContainer } from "../../../src/services/explorer/ingest/rows";

/** Asks until the threads have started (they answer undefined until then), for at most `ms`. */
async function decodedOnThreads(threads: DecodeThreads, context: ExplorerContext, page: RawContainer[], ms = 60_000): Promise<DecodedContainer[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const decoded = threads.decode(context, "X-tx", page);
    if (decoded !== undefined) return decoded;
    if (Date.now() > deadline) throw new Error(`the decoding threads did not start within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("explorer ingest: pages decoded on the decoding threads", function () {
  this.timeout(120_000);
  let threads: DecodeThreads | undefined;
  afterEach(async () => {
    await threads?.close();
    threads = undefined;
  });

  it("decodes a page split between two threads into the rows the ingest thread decodes, in order", async () => {
    const chain = generateStandInChain(120, 20);
    const context: ExplorerContext = { networkId: 12345, hrp: "local", nativeAssetId: chain.nativeAssetId, chains: chain.chainIds };
    const page: RawContainer[] = chain.containers.map((bytes, i) => ({ index: BigInt(i), id: chain.containerIds[i]!, bytes, timestamp: `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}.123456789Z` }));
    // One container no decoder understands: kept raw, with the reason, on either side.
    page.splice(7, 0, { index: 1000n, id: "undecodable", bytes: new Uint8Array([0, 0, 0, 0, 0, 99]), timestamp: "2026-01-01T00:00:00Z" });
    threads = new DecodeThreads(2);
    const onThreads = await decodedOnThreads(threads, context, page);
    const onIngestThread = page.map((c) => decodeSelfContained(context, "X-tx", c));
    expect(onThreads).to.deep.equal(onIngestThread);
    expect(onThreads[7]!.problem).to.be.a("string");
    expect(onThreads[0]!.transactions[0]!.credentials[0]!.address).to.match(/^local1/);
  });

  it("knows the signers of later pages from the owners and keys of pages before, as recovering them finds", async () => {
    // 600 containers of 50 senders in pages of 200: most inputs spend an output of a page before.
    const chain = generateStandInChain(600, 50);
    const context: ExplorerContext = { networkId: 12345, hrp: "local", nativeAssetId: chain.nativeAssetId, chains: chain.chainIds };
    const page = (from: number): RawContainer[] =>
      chain.containers.slice(from, from + 200).map((bytes, i) => ({ index: BigInt(from + i), id: chain.containerIds[from + i]!, bytes, timestamp: "2026-01-01T00:00:00.123456789Z" }));
    forgetSignerHints();
    threads = new DecodeThreads(2);
    const onThreads = [...(await decodedOnThreads(threads, context, page(0))), ...(await decodedOnThreads(threads, context, page(200))), ...(await decodedOnThreads(threads, context, page(400)))];
    // Each container decoded as a fresh process would: every signer recovered.
    const recovered = [...page(0), ...page(200), ...page(400)].map((c) => {
      forgetSignerHints();
      return decodeSelfContained(context, "X-tx", c);
    });
    expect(onThreads.flatMap((c) => c.transactions.map((t) => t.credentials))).to.deep.equal(recovered.flatMap((c) => c.transactions.map((t) => t.credentials)));
    expect(onThreads.flatMap((c) => c.transactions.flatMap((t) => t.credentials))).to.have.length(600);
  });
});
