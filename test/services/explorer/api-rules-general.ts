/**
 * The API's rules about the network overview, contract-chain blocks and transactions, search,
 * aggregates, errors and hostile input, over the table fixtures. Registered by describeExplorerApi.
 */
import { expect } from "chai";
import { expectRefusal, type ServedApi } from "./api-helpers";
import { chainIdOf, sum } from "./fixture-oracle";
import { ALICE, BOB, CAROL, DAY, cb58Of, FIXTURE_CONTEXT, FIXTURE_C_BLOCKS, FIXTURE_OUTPUTS, FIXTURE_TRANSACTIONS, NAMED, NATIVE, T0, TOKEN } from "./fixture-rows";

const C_TRANSACTIONS_NEWEST_FIRST = FIXTURE_C_BLOCKS.flatMap((b) => b.transactions).reverse();

export function generalRules(api: () => ServedApi): void {
  describe("overview", () => {
    it("/v2 answers network_id and each chain with its alias, vm and native asset", async () => {
      const { body } = await api().get("/v2");
      expect(body.network_id).to.equal(FIXTURE_CONTEXT.networkId);
      expect(Object.keys(body.chains).sort()).to.deep.equal(Object.values(FIXTURE_CONTEXT.chains).sort());
      expect(body.chains[chainIdOf("P")]).to.deep.equal({ chainID: chainIdOf("P"), chainAlias: "P", vm: "pvm", nativeAssetID: NATIVE, avaxAssetID: NATIVE, networkID: FIXTURE_CONTEXT.networkId });
    });

    it("/x answers the exchange chain's networkID, vm, chainAlias, chainID, nativeAssetID and avaxAssetID", async () => {
      const expected = { networkID: FIXTURE_CONTEXT.networkId, vm: "avm", chainAlias: "X", chainID: chainIdOf("X"), nativeAssetID: NATIVE, avaxAssetID: NATIVE };
      expect((await api().get("/x")).body).to.deep.equal(expected);
      expect((await api().get("/X/")).body).to.deep.equal(expected);
    });
  });

  describe("contract chain", () => {
    it("/ctxdata/<height> answers the block's header and transactions with receipts and logs", async () => {
      const block = FIXTURE_C_BLOCKS[2]!;
      const { body } = await api().get("/v2/ctxdata/2");
      expect(body.hash).to.equal(block.hash);
      expect(body.header).to.include({ number: "2", hash: block.hash, parentHash: FIXTURE_C_BLOCKS[1]!.hash, timestamp: String(block.timestamp), gasUsed: "21000" });
      expect(body.transactions.map((t: { hash: string }) => t.hash)).to.deep.equal(block.transactions.map((t) => t.hash));
      const [tx] = body.transactions;
      expect(tx).to.include({ fromAddr: BOB.evm, toAddr: CAROL.evm, value: "5", type: 2, maxFeePerGas: "30000000000", gasPrice: null });
      expect(tx.receipt).to.include({ status: "1", transactionHash: block.transactions[0]!.hash, blockHash: block.hash, blockNumber: "2", gasUsed: "21000" });
      expect(tx.receipt.logs).to.deep.equal(block.transactions[0]!.logs.map((log, i) => ({ ...log, blockNumber: "2", transactionHash: block.transactions[0]!.hash, transactionIndex: "0", blockHash: block.hash, logIndex: String(i), removed: false })));
    });

    it("/ctxdata without a height answers the latest block; an unknown height is a 404, a bad one a 400", async () => {
      expect((await api().get("/v2/ctxdata")).body.header.number).to.equal("4");
      expect((await api().get("/v2/ctxdata/latest")).body.header.number).to.equal("4");
      expectRefusal(await api().get("/v2/ctxdata/99"), 404, "block 99");
      expectRefusal(await api().get("/v2/ctxdata/-1"), 400, "height");
    });

    it("/cblocks reads its two limits in order: blocks, then transactions, both newest first", async () => {
      const { body } = await api().get("/v2/cblocks?limit=2&limit=3");
      expect(body.blockCount).to.equal(2);
      expect(body.transactionCount).to.equal(3);
      expect(body.blocks.map((b: { number: string }) => b.number)).to.deep.equal(["4", "3"]);
      expect(body.blocks[0]).to.include({ hash: FIXTURE_C_BLOCKS[4]!.hash, evmTx: 3, timestamp: new Date(FIXTURE_C_BLOCKS[4]!.timestamp * 1000).toISOString() });
      expect(body.transactions.map((t: { hash: string }) => t.hash)).to.deep.equal(C_TRANSACTIONS_NEWEST_FIRST.slice(0, 3).map((t) => t.hash));
      const swapped = await api().get("/v2/cblocks?limit=3&limit=2");
      expect([swapped.body.blockCount, swapped.body.transactionCount]).to.deep.equal([3, 2]);
    });

    it("/cblocks summarises a transaction with gasPrice or with the two dynamic fees by its type", async () => {
      const { body } = await api().get("/v2/cblocks?limit=0&limit=10");
      const legacy = body.transactions.find((t: { type: number }) => t.type === 0);
      const dynamic = body.transactions.find((t: { type: number }) => t.type === 2);
      expect(legacy).to.include({ gasPrice: "25000000000", gas: "21000", status: 1 }).and.not.have.property("maxFeePerGas");
      expect(dynamic).to.include({ maxFeePerGas: "30000000000", maxPriorityFeePerGas: "1000000000" }).and.not.have.property("gasPrice");
    });

    it("/cblocks defaults both limits to 0 and refuses more than 10000 or a third limit", async () => {
      expect((await api().get("/v2/cblocks")).body).to.deep.equal({ blockCount: 0, transactionCount: 0, blocks: [], transactions: [] });
      expectRefusal(await api().get("/v2/cblocks?limit=10001"), 400, "limit", "0 to 10000");
      expectRefusal(await api().get("/v2/cblocks?limit=1&limit=10001"), 400, "second", "0 to 10000");
      expectRefusal(await api().get("/v2/cblocks?limit=1&limit=1&limit=1"), 400, "at most two");
    });

    it("/cblocks blockStart and blockEnd are exclusive; transactionId starts within the newest block; address filters transactions", async () => {
      const ranged = await api().get("/v2/cblocks?limit=10&limit=10&blockStart=1&blockEnd=4");
      expect(ranged.body.blocks.map((b: { number: string }) => b.number)).to.deep.equal(["3", "2"]);
      expect(ranged.body.transactions.map((t: { block: string }) => t.block)).to.deep.equal(["2"]);
      const started = await api().get("/v2/cblocks?limit=0&limit=10&transactionId=1");
      expect(started.body.transactions.map((t: { block: string; index: number }) => `${t.block}:${t.index}`)).to.deep.equal(["4:1", "4:0", "2:0", "1:1", "1:0"]);
      const carol = await api().get(`/v2/cblocks?limit=0&limit=10&address=${CAROL.evm.toUpperCase().replace("0X", "0x")}`);
      expect(carol.body.transactions.map((t: { hash: string }) => t.hash)).to.deep.equal(C_TRANSACTIONS_NEWEST_FIRST.filter((t) => t.from === CAROL.evm || t.to === CAROL.evm).map((t) => t.hash));
      expectRefusal(await api().get("/v2/cblocks?limit=1&address=0x12"), 400, "address", "40 hex");
    });

    it("/ctransactions answers under the key Transactions, newest first, filtered by from, to, either and hash", async () => {
      const all = await api().get("/v2/ctransactions");
      expect(Object.keys(all.body).sort()).to.deep.equal(["Transactions", "endTime", "startTime"]);
      expect(all.body.Transactions.map((t: { hash: string }) => t.hash)).to.deep.equal(C_TRANSACTIONS_NEWEST_FIRST.map((t) => t.hash));
      const hashes = async (query: string) => (await api().get(`/v2/ctransactions?${query}`)).body.Transactions.map((t: { hash: string }) => t.hash);
      expect(await hashes(`fromAddress=${BOB.evm}`)).to.deep.equal(C_TRANSACTIONS_NEWEST_FIRST.filter((t) => t.from === BOB.evm).map((t) => t.hash));
      expect(await hashes(`toAddress=${BOB.evm}`)).to.deep.equal(C_TRANSACTIONS_NEWEST_FIRST.filter((t) => t.to === BOB.evm).map((t) => t.hash));
      expect(await hashes(`address=${ALICE.evm}`)).to.deep.equal(C_TRANSACTIONS_NEWEST_FIRST.filter((t) => t.from === ALICE.evm || t.to === ALICE.evm).map((t) => t.hash));
      const one = C_TRANSACTIONS_NEWEST_FIRST[2]!.hash;
      expect(await hashes(`hash=${one.toUpperCase().replace("0X", "0x")}`)).to.deep.equal([one]);
      expectRefusal(await api().get("/v2/ctransactions?hash=0x1234"), 400, "hash", "64 hex");
    });

    it("/ctransactions blockStart is inclusive and blockEnd exclusive; next pages through", async () => {
      const { body } = await api().get("/v2/ctransactions?blockStart=2&blockEnd=4");
      expect(body.Transactions.map((t: { block: string }) => t.block)).to.deep.equal(["2"]);
      const first = await api().get("/v2/ctransactions?limit=4");
      expect(first.body.Transactions).to.have.length(4);
      const second = await api().get(`/v2/ctransactions?${first.body.next}`);
      expect([...first.body.Transactions, ...second.body.Transactions].map((t: { hash: string }) => t.hash)).to.deep.equal(C_TRANSACTIONS_NEWEST_FIRST.map((t) => t.hash));
      expect(second.body.next).to.equal(undefined);
    });
  });

  describe("search", () => {
    it("an exact transaction ID is the first result with score 1", async () => {
      const { body } = await api().get(`/v2/search?query=${NAMED.token.id}`);
      expect(body.results[0]).to.include({ type: "transaction", score: 1 });
      expect(body.results[0].data.id).to.equal(NAMED.token.id);
      expect(body.count).to.equal(body.results.length);
    });

    it("a longer prefix of an ID scores higher than a shorter one, below an exact match", async () => {
      const id = NAMED.shared.id;
      const scoreOf = async (query: string) => (await api().get(`/v2/search?query=${query}`)).body.results.find((r: { data: { id: string } }) => r.data.id === id).score;
      const short = await scoreOf(id.slice(0, 4));
      const long = await scoreOf(id.slice(0, 20));
      expect(short).to.be.greaterThan(0).and.lessThan(long);
      expect(long).to.be.lessThan(1);
      expect(short).to.be.closeTo(4 / id.length, 1e-9);
    });

    it("results are ranked by score, best first", async () => {
      const { body } = await api().get("/v2/search?query=2");
      const scores = body.results.map((r: { score: number }) => r.score);
      expect(scores.length).to.be.greaterThan(3);
      expect(scores).to.deep.equal([...scores].sort((a, b) => b - a));
    });

    it("an asset is found by a symbol or name prefix, an address by a prefix with or without its chain", async () => {
      const token = (await api().get("/v2/search?query=TT")).body.results;
      expect(token.map((r: { type: string; data: { id: string } }) => `${r.type}:${r.data.id}`)).to.deep.equal([`asset:${TOKEN}`]);
      const address = (await api().get(`/v2/search?query=X-${ALICE.address.slice(0, 12)}`)).body.results;
      expect(address.filter((r: { type: string }) => r.type === "address").map((r: { data: { address: string } }) => r.data.address)).to.include(ALICE.address);
      const exact = (await api().get(`/v2/search?query=P-${ALICE.address}`)).body.results[0];
      expect(exact).to.include({ type: "address", score: 1 });
      expect(exact.data.assets[NATIVE]).to.have.property("balance");
    });

    it("a contract-chain block is found by exact hash or number, a transaction by exact hash, never by a prefix", async () => {
      const block = FIXTURE_C_BLOCKS[1]!;
      expect((await api().get(`/v2/search?query=${block.hash}`)).body.results.map((r: { type: string }) => r.type)).to.deep.equal(["cBlock"]);
      expect((await api().get("/v2/search?query=1")).body.results.filter((r: { type: string }) => r.type === "cBlock").map((r: { data: { hash: string } }) => r.data.hash)).to.deep.equal([block.hash]);
      const tx = block.transactions[1]!;
      const found = (await api().get(`/v2/search?query=${tx.hash}`)).body.results;
      expect(found.map((r: { type: string; data: { hash: string } }) => `${r.type}:${r.data.hash}`)).to.deep.equal([`cTransaction:${tx.hash}`]);
      expect((await api().get(`/v2/search?query=${tx.hash.slice(0, 20)}`)).body.count).to.equal(0);
    });

    it("search needs a query and honours limit", async () => {
      expectRefusal(await api().get("/v2/search"), 400, "query is required");
      expect((await api().get("/v2/search?query=2&limit=2")).body.results).to.have.length(2);
    });
  });

  describe("aggregates", () => {
    const nativeVolume = sum(FIXTURE_OUTPUTS.filter((o) => o.asset === NATIVE).map((o) => o.amount));
    // addressCount counts an owner once per minute, chain and asset it received outputs in.
    const ownerMinutes = (outputs: typeof FIXTURE_OUTPUTS) => new Set(outputs.flatMap((o) => o.owners.map((p) => `${Math.floor(o.at / 60_000)} ${o.chain} ${o.asset} ${p.address}`))).size;

    it("/aggregates computes the native volume and the counts of transactions, addresses, outputs and assets", async () => {
      const { body } = await api().get("/v2/aggregates");
      expect(body.aggregates).to.include({
        transactionVolume: nativeVolume.toString(),
        transactionCount: FIXTURE_TRANSACTIONS.length,
        addressCount: ownerMinutes(FIXTURE_OUTPUTS),
        outputCount: FIXTURE_OUTPUTS.length,
        assetCount: 2,
      });
    });

    it("/aggregates with assetID sums that asset and counts only its outputs", async () => {
      const { body } = await api().get(`/v2/aggregates?assetID=${TOKEN}`);
      const tokenOutputs = FIXTURE_OUTPUTS.filter((o) => o.asset === TOKEN);
      expect(body.aggregates).to.include({
        transactionVolume: sum(tokenOutputs.map((o) => o.amount)).toString(),
        transactionCount: new Set(tokenOutputs.map((o) => o.transactionId)).size,
        addressCount: ownerMinutes(tokenOutputs),
        outputCount: tokenOutputs.length,
        assetCount: 1,
      });
    });

    it("/aggregates per day answers each day from the first active one to endTime, zeros included, adding up to the total", async () => {
      const { body } = await api().get(`/v2/aggregates?intervalSize=day&endTime=${(T0 + 4 * DAY) / 1000}`);
      expect(body.intervals.map((i: { startTime: string }) => i.startTime)).to.deep.equal([0, 1, 2, 3, 4].map((d) => new Date(T0 + d * DAY).toISOString()));
      expect(body.intervals.map((i: { transactionCount: number }) => i.transactionCount)).to.deep.equal([0, 1, 2, 3, 4].map((d) => FIXTURE_TRANSACTIONS.filter((t) => t.at >= T0 + d * DAY && t.at < T0 + (d + 1) * DAY).length));
      expect(sum(body.intervals.map((i: { transactionVolume: string }) => BigInt(i.transactionVolume))).toString()).to.equal(body.aggregates.transactionVolume);
    });

    it("/aggregates refuses an unknown intervalSize, and a window of more than 10000 intervals", async () => {
      expectRefusal(await api().get("/v2/aggregates?intervalSize=fortnight"), 400, "intervalSize", "minute, hour, day, week, month, year");
      expectRefusal(await api().get("/v2/aggregates?intervalSize=minute"), 400, "10000 intervals");
    });

    it("/aggregates per month and per week start on the calendar's boundaries", async () => {
      const month = await api().get("/v2/aggregates?intervalSize=month");
      expect(month.body.intervals[0]).to.include({ startTime: "2024-01-01T00:00:00.000Z", endTime: "2024-02-01T00:00:00.000Z", transactionCount: FIXTURE_TRANSACTIONS.length });
      const week = await api().get("/v2/aggregates?intervalSize=week");
      // 2024-01-01 is a Monday, the start of a week as PostgreSQL's date_trunc counts.
      expect(week.body.intervals[0]).to.include({ startTime: "2024-01-01T00:00:00.000Z", endTime: "2024-01-08T00:00:00.000Z" });
    });

    it("the legacy /x aggregates only the exchange chain; chainID=P only the platform chain", async () => {
      const count = async (path: string) => (await api().get(path)).body.aggregates.transactionCount;
      expect(await count("/x/aggregates")).to.equal(FIXTURE_TRANSACTIONS.filter((t) => t.chain === "X").length);
      expect(await count("/v2/aggregates?chainID=P")).to.equal(FIXTURE_TRANSACTIONS.filter((t) => t.chain === "P").length);
      expect((await api().get("/x/txfeeAggregates")).body.aggregates.txfee).to.equal(sum(FIXTURE_TRANSACTIONS.filter((t) => t.chain === "X").map((t) => t.fee)).toString());
    });

    it("/txfeeAggregates sums the fees in the window, and per interval", async () => {
      const { body } = await api().get("/v2/txfeeAggregates");
      expect(body.aggregates.txfee).to.equal(sum(FIXTURE_TRANSACTIONS.map((t) => t.fee)).toString());
      const firstDay = await api().get(`/v2/txfeeAggregates?startTime=${T0 / 1000}&endTime=${(T0 + DAY - 1000) / 1000}&intervalSize=hour`);
      const dayOne = FIXTURE_TRANSACTIONS.filter((t) => t.at < T0 + DAY);
      expect(firstDay.body.aggregates.txfee).to.equal(sum(dayOne.map((t) => t.fee)).toString());
      expect(firstDay.body.intervals).to.have.length(24);
      expect(firstDay.body.intervals[0].txfee).to.equal(firstDay.body.aggregates.txfee);
    });
  });

  describe("errors and hostile input", () => {
    it("an unknown path or version is a 404 in the error shape saying so", async () => {
      expectRefusal(await api().get("/v2/blocks"), 404, "no such path /v2/blocks");
      expectRefusal(await api().get("/v3/transactions"), 404, "/v3/transactions");
      expectRefusal(await api().get(`/v2/transactions/${NAMED.pay1.id}/inputs`), 404, "no such path");
      expectRefusal(await api().get("/v2/__proto__"), 404, "no such path");
    });

    it("a method other than GET or HEAD is a 405 naming GET", async () => {
      const answer = await api().get("/v2/transactions", "POST");
      expectRefusal(answer, 405, "GET (and HEAD) only");
      expect(answer.headers.allow).to.equal("GET, HEAD");
    });

    it("HEAD answers GET's status and headers without a body", async () => {
      const head = await fetch(`${api().url}/v2/transactions/${NAMED.pay1.id}`, { method: "HEAD" });
      const get = await fetch(`${api().url}/v2/transactions/${NAMED.pay1.id}`);
      expect(head.status).to.equal(200);
      expect(head.headers.get("content-length")).to.equal(get.headers.get("content-length"));
      expect(await head.text()).to.equal("");
      expect((await fetch(`${api().url}/v2/transactions/${cb58Of("tx:none")}`, { method: "HEAD" })).status).to.equal(404);
    });

    it("SQL in parameters is only ever data: nothing breaks, nothing is found, the tables stay", async () => {
      const attacks = ["'; DROP TABLE transactions; --", "' OR '1'='1", "%", "_", "\\"];
      for (const attack of attacks) {
        const q = encodeURIComponent(attack);
        for (const path of [`/v2/transactions?query=${q}`, `/v2/assets?query=${q}`, `/v2/outputs?query=${q}`, `/v2/search?query=${q}`, `/v2/ctransactions?query=${q}`]) {
          const { status, body } = await api().get(path);
          expect(status, path).to.equal(200);
          expect(JSON.stringify(body), path).to.not.include(NAMED.pay1.id);
        }
        expectRefusal(await api().get(`/v2/transactions?address=${q}`), 400, "address");
        expectRefusal(await api().get(`/v2/transactions/${q}`), 400, "cb58");
        expectRefusal(await api().get(`/v2/transactions?sort=${q}`), 400, "sort");
      }
      expect((await api().get("/v2/transactions")).body.transactions).to.have.length(FIXTURE_TRANSACTIONS.length);
    });
  });
}
