/**
 * The API's rules about exchange- and platform-chain records (transactions, addresses, assets,
 * outputs, address chains), over the table fixtures. Registered by describeExplorerApi.
 */
import { expect } from "chai";
import { encodeCb58, formatBech32Address } from "../../../src/encoding";
import { expectRefusal, type Answer, type ServedApi } from "./api-helpers";
import { ORDERED_TRANSACTION_IDS, balanceOf, chainIdOf, ownedBy, sum, transactionsOf } from "./fixture-oracle";
import { ALICE, BOB, CAROL, DAVE, FIXTURE_CONTEXT, FIXTURE_OUTPUTS, FIXTURE_TRANSACTIONS, MINUTE, NAMED, NATIVE, T0, TOKEN, cb58Of } from "./fixture-rows";

const ids = (list: { id: string }[]) => list.map((t) => t.id);

export function exchangeRules(api: () => ServedApi): void {
  describe("transactions", () => {
    it("/transactions/<id> answers the transaction with its spent outputs, credentials, outputs and memo", async () => {
      const { status, body } = await api().get(`/v2/transactions/${NAMED.pay1.id}`);
      expect(status).to.equal(200);
      expect(body).to.include({ id: NAMED.pay1.id, chainID: chainIdOf("X"), type: "base", memo: Buffer.from("hello").toString("base64"), txFee: 1_000_000, genesis: false, timestamp: "2024-01-01T00:01:00.000Z" });
      expect(body.inputs).to.have.length(1);
      expect(body.inputs[0].output).to.include({ id: NAMED.genesis.outputs[0]!.id, redeemingTransactionID: NAMED.pay1.id, amount: NAMED.genesis.outputs[0]!.amount.toString() });
      expect(body.inputs[0].credentials).to.have.length(1);
      expect(body.inputs[0].credentials[0]).to.include({ address: ALICE.address, public_key: ALICE.publicKey });
      expect(body.outputs.map((o: { addresses: string[] }) => o.addresses)).to.deep.equal([[BOB.address], [ALICE.address]]);
    });

    it("input and output totals are summed per asset exactly, beyond 2^53", async () => {
      const { body } = await api().get(`/v2/transactions/${NAMED.pay1.id}`);
      expect(body.inputTotals).to.deep.equal({ [NATIVE]: NAMED.genesis.outputs[0]!.amount.toString() });
      expect(body.outputTotals).to.deep.equal({ [NATIVE]: sum(NAMED.pay1.outputs.map((o) => o.amount)).toString() });
      expect(body.reusedAddressTotals).to.equal(null);
    });

    it("an unknown transaction ID is a 404 naming it, a malformed one a 400", async () => {
      const unknown = cb58Of("tx:never");
      expectRefusal(await api().get(`/v2/transactions/${unknown}`), 404, unknown);
      expectRefusal(await api().get("/v2/transactions/not-an-id"), 400, "cb58");
    });

    it("/transactions lists every transaction oldest first by default, within the window", async () => {
      const { body } = await api().get("/v2/transactions");
      expect(ids(body.transactions)).to.deep.equal(ORDERED_TRANSACTION_IDS);
      expect(body).to.include({ startTime: "1970-01-01T00:00:00.000Z" });
      expect(body.next).to.equal(undefined);
    });

    it("sort=timestamp-desc lists newest first; another sort is refused", async () => {
      const { body } = await api().get("/v2/transactions?sort=timestamp-desc");
      expect(ids(body.transactions)).to.deep.equal([...ORDERED_TRANSACTION_IDS].reverse());
      expectRefusal(await api().get("/v2/transactions?sort=newest"), 400, "sort", "timestamp-asc", "timestamp-desc");
    });

    it("chainID filters and repeats; an alias names the chain; a foreign chain is refused", async () => {
      const onP = FIXTURE_TRANSACTIONS.filter((t) => t.chain === "P").map((t) => t.id);
      expect(ids((await api().get(`/v2/transactions?chainID=${chainIdOf("P")}`)).body.transactions)).to.deep.equal(onP);
      expect(ids((await api().get("/v2/transactions?chainID=P")).body.transactions)).to.deep.equal(onP);
      expect(ids((await api().get(`/v2/transactions?chainID=${chainIdOf("P")}&chainID=${chainIdOf("X")}`)).body.transactions)).to.deep.equal(ORDERED_TRANSACTION_IDS);
      expectRefusal(await api().get(`/v2/transactions?chainID=${cb58Of("chain:other")}`), 400, "chainID", "not a chain of this network");
    });

    it("address filters by owner or signer, repeats, and reads X-, P-, bare bech32 and cb58 short IDs alike", async () => {
      const forms = [`X-${CAROL.address}`, `P-${CAROL.address}`, CAROL.address, encodeCb58(CAROL.shortId)];
      for (const form of forms) {
        expect(ids((await api().get(`/v2/transactions?address=${encodeURIComponent(form)}`)).body.transactions), form).to.deep.equal(transactionsOf(CAROL));
      }
      const either = new Set([...transactionsOf(CAROL), ...transactionsOf(BOB)]);
      expect(ids((await api().get(`/v2/transactions?address=${CAROL.address}&address=${BOB.address}`)).body.transactions)).to.deep.equal(ORDERED_TRANSACTION_IDS.filter((id) => either.has(id)));
    });

    it("one address with a chainID, or with an assetID, keeps the transactions both filters keep", async () => {
      const chainOf = (id: string) => FIXTURE_TRANSACTIONS.find((t) => t.id === id)!.chain;
      const people = [ALICE, BOB, CAROL, DAVE];
      // Someone with transactions on two chains, so that the chain filter leaves some out.
      const onTwoChains = people.find((person) => new Set(transactionsOf(person).map(chainOf)).size > 1)!;
      for (const chain of new Set(transactionsOf(onTwoChains).map(chainOf))) {
        const expected = transactionsOf(onTwoChains).filter((id) => chainOf(id) === chain);
        expect(expected.length, chain).to.be.within(1, transactionsOf(onTwoChains).length - 1);
        expect(ids((await api().get(`/v2/transactions?address=${onTwoChains.address}&chainID=${chain}`)).body.transactions), chain).to.deep.equal(expected);
      }
      const withToken = new Set(ids((await api().get(`/v2/transactions?assetID=${TOKEN}`)).body.transactions));
      const kept = people.map((person) => transactionsOf(person).filter((id) => withToken.has(id)));
      // Someone whose transactions the asset filter keeps some of, not all.
      expect(kept.some((ids, i) => ids.length > 0 && ids.length < transactionsOf(people[i]!).length)).to.equal(true);
      for (const [i, person] of people.entries()) {
        expect(ids((await api().get(`/v2/transactions?address=${person.address}&assetID=${TOKEN}`)).body.transactions)).to.deep.equal(kept[i]);
      }
    });

    it("an address that is not one of this network's is refused naming it", async () => {
      expectRefusal(await api().get("/v2/transactions?address=X-fuji1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqjvaxk3"), 400, "address", "not an address of this network");
      expectRefusal(await api().get("/v2/transactions?address=hello"), 400, "address", '"hello"');
    });

    it("assetID keeps the transactions that consumed or produced the asset", async () => {
      const withToken = FIXTURE_TRANSACTIONS.filter((t) => t.outputs.some((o) => o.asset === TOKEN) || t.inputs.some((i) => FIXTURE_OUTPUTS.find((o) => o.id === i.output)?.asset === TOKEN)).map((t) => t.id);
      expect(withToken).to.have.length(2);
      expect(ids((await api().get(`/v2/transactions?assetID=${TOKEN}`)).body.transactions)).to.deep.equal(withToken);
      expectRefusal(await api().get("/v2/transactions?assetID=xyz"), 400, "assetID");
    });

    it("startTime and endTime read Unix seconds and RFC 3339 alike, inclusive", async () => {
      const from = T0 + MINUTE;
      const to = T0 + 3 * MINUTE;
      const expected = FIXTURE_TRANSACTIONS.filter((t) => t.at >= from && t.at <= to).map((t) => t.id);
      expect(expected).to.have.length(3);
      const seconds = await api().get(`/v2/transactions?startTime=${from / 1000}&endTime=${to / 1000}`);
      const rfc = await api().get(`/v2/transactions?startTime=2024-01-01T00:01:00Z&endTime=${encodeURIComponent("2024-01-01T01:03:00+01:00")}`);
      expect(ids(seconds.body.transactions)).to.deep.equal(expected);
      expect(ids(rfc.body.transactions)).to.deep.equal(expected);
      expect(rfc.body).to.include({ startTime: "2024-01-01T00:01:00.000Z", endTime: "2024-01-01T00:03:00.000Z" });
    });

    it("a bad time is refused naming the parameter; startTime after now or after endTime too", async () => {
      expectRefusal(await api().get("/v2/transactions?startTime=yesterday"), 400, "startTime", "RFC 3339");
      expectRefusal(await api().get("/v2/transactions?endTime=2024-02-30T00:00:00Z"), 400, "endTime", "no such date");
      expectRefusal(await api().get("/v2/transactions?startTime=4102444800"), 400, "startTime", "at most now");
      expectRefusal(await api().get(`/v2/transactions?startTime=${T0 / 1000 + 60}&endTime=${T0 / 1000}`), 400, "startTime", "after endTime");
    });

    it("limit is 1 to 5000: 0 and 5001 are refused saying the range, 5000 is accepted", async () => {
      expectRefusal(await api().get("/v2/transactions?limit=0"), 400, "limit", "1 to 5000");
      expectRefusal(await api().get("/v2/transactions?limit=5001"), 400, "limit", "1 to 5000");
      expectRefusal(await api().get("/v2/transactions?limit=ten"), 400, "limit");
      expect((await api().get("/v2/transactions?limit=5000")).status).to.equal(200);
    });

    it("query keeps the transactions whose ID starts with it", async () => {
      const prefix = NAMED.token.id.slice(0, 3);
      const expected = ORDERED_TRANSACTION_IDS.filter((id) => id.startsWith(prefix));
      expect(ids((await api().get(`/v2/transactions?query=${prefix}`)).body.transactions)).to.deep.equal(expected);
    });

    for (const sort of ["timestamp-asc", "timestamp-desc"]) {
      it(`next walks the whole list (${sort}) in pages without duplicates or gaps, keeping the filters`, async () => {
        const seen: string[] = [];
        let query: string | undefined = `limit=5&sort=${sort}&chainID=X`;
        let pages = 0;
        while (query !== undefined) {
          const { body }: Answer = await api().get(`/v2/transactions?${query}`);
          expect(body.transactions.length).to.be.at.most(5);
          seen.push(...ids(body.transactions));
          query = body.next;
          if (query !== undefined) expect(new URLSearchParams(query).get("chainID")).to.equal("X");
          pages++;
        }
        const onX = FIXTURE_TRANSACTIONS.filter((t) => t.chain === "X").map((t) => t.id);
        expect(seen).to.deep.equal(sort === "timestamp-asc" ? onX : [...onX].reverse());
        expect(pages).to.equal(Math.ceil(onX.length / 5));
      });
    }

    it("a cursor that is not a previous next is refused", async () => {
      expectRefusal(await api().get("/v2/transactions?cursor=abc"), 400, "cursor");
      const { body } = await api().get("/v2/assets?limit=1");
      expectRefusal(await api().get(`/v2/transactions?${body.next}`), 400, "cursor");
    });

    it("the legacy /x lists only the exchange chain unless chainID says otherwise", async () => {
      const onX = FIXTURE_TRANSACTIONS.filter((t) => t.chain === "X").map((t) => t.id);
      expect(ids((await api().get("/x/transactions")).body.transactions)).to.deep.equal(onX);
      expect(ids((await api().get("/X/transactions")).body.transactions)).to.deep.equal(onX);
      expect(ids((await api().get("/x/transactions?chainID=P")).body.transactions)).to.deep.equal(FIXTURE_TRANSACTIONS.filter((t) => t.chain === "P").map((t) => t.id));
      expect((await api().get(`/x/transactions/${NAMED.pay1.id}`)).body.id).to.equal(NAMED.pay1.id);
    });

    it("an unknown parameter and a repeated single parameter are refused naming them", async () => {
      expectRefusal(await api().get("/v2/transactions?chainId=X"), 400, '"chainId"', "chainID");
      expectRefusal(await api().get("/v2/transactions?sort=timestamp-asc&sort=timestamp-desc"), 400, "sort", "2 times");
    });
  });

  describe("addresses", () => {
    it("/addresses/<address> answers per asset the balance, received, sent, unspent count and transaction count", async () => {
      const { status, body } = await api().get(`/v2/addresses/X-${BOB.address}`);
      expect(status).to.equal(200);
      expect(body).to.include({ address: BOB.address, publicKey: BOB.publicKey, chainID: "" });
      for (const asset of [NATIVE, TOKEN]) {
        const owned = ownedBy(BOB, (o) => o.asset === asset);
        const touching = new Set(owned.flatMap((o) => [o.transactionId, ...(o.redeemedBy === undefined ? [] : [o.redeemedBy])]));
        expect(body.assets[asset]).to.deep.equal({
          id: asset,
          balance: balanceOf(BOB, asset).toString(),
          totalReceived: sum(owned.map((o) => o.amount)).toString(),
          totalSent: sum(owned.filter((o) => o.redeemedBy !== undefined).map((o) => o.amount)).toString(),
          utxoCount: owned.filter((o) => o.redeemedBy === undefined).length,
          transactionCount: touching.size,
        });
      }
    });

    it("a receive-only address answers its balance and a null public key", async () => {
      const { body } = await api().get(`/v2/addresses/${DAVE.address}`);
      expect(body.publicKey).to.equal(null);
      expect(body.assets[NATIVE].balance).to.equal(balanceOf(DAVE, NATIVE).toString());
    });

    it("an address never seen is a 404 naming it", async () => {
      const stranger = formatBech32Address(new Uint8Array(20).fill(7), FIXTURE_CONTEXT.hrp);
      expectRefusal(await api().get(`/v2/addresses/${stranger}`), 404, stranger);
      expectRefusal(await api().get("/v2/addresses/nobody"), 400, "address");
    });

    it("/addresses answers one record per address and chain, filtered by chainID and address", async () => {
      const { body } = await api().get(`/v2/addresses?address=${ALICE.address}`);
      expect(body.addresses.map((a: { chainID: string }) => a.chainID).sort()).to.deep.equal([chainIdOf("X"), chainIdOf("P")].sort());
      const onP = body.addresses.find((a: { chainID: string }) => a.chainID === chainIdOf("P"));
      expect(onP.assets[NATIVE].balance).to.equal(sum(ownedBy(ALICE, (o) => o.chain === "P" && o.redeemedBy === undefined).map((o) => o.amount)).toString());
      const onlyP = await api().get("/v2/addresses?chainID=P");
      expect(onlyP.body.addresses.map((a: { address: string }) => a.address)).to.deep.equal([ALICE.address]);
    });

    it("/addresses pages with next over address and chain without duplicates", async () => {
      const all = (await api().get("/v2/addresses")).body.addresses.map((a: { address: string; chainID: string }) => `${a.address}/${a.chainID}`);
      const walked: string[] = [];
      let query: string | undefined = "limit=2";
      while (query !== undefined) {
        const { body }: Answer = await api().get(`/v2/addresses?${query}`);
        walked.push(...body.addresses.map((a: { address: string; chainID: string }) => `${a.address}/${a.chainID}`));
        query = body.next;
      }
      expect(walked).to.deep.equal(all);
      expect(new Set(walked).size).to.equal(5);
    });

    it("/addresses/<address> with chainID answers that chain's record", async () => {
      const { body } = await api().get(`/v2/addresses/${ALICE.address}?chainID=P`);
      expect(body.chainID).to.equal(chainIdOf("P"));
      expect(body.assets[NATIVE].balance).to.equal(sum(ownedBy(ALICE, (o) => o.chain === "P" && o.redeemedBy === undefined).map((o) => o.amount)).toString());
    });

    it("the legacy /x answers an address's exchange-chain record", async () => {
      const { body } = await api().get(`/x/addresses/${ALICE.address}`);
      expect(body.chainID).to.equal(chainIdOf("X"));
      expect(body.assets[NATIVE].balance).to.equal(sum(ownedBy(ALICE, (o) => o.chain === "X" && o.redeemedBy === undefined).map((o) => o.amount)).toString());
    });

    it("/addressChains maps each asked address to its chains, [] for an unseen one, and needs an address", async () => {
      const stranger = formatBech32Address(new Uint8Array(20).fill(9), FIXTURE_CONTEXT.hrp);
      const { body } = await api().get(`/v2/addressChains?address=X-${ALICE.address}&address=${CAROL.address}&address=${stranger}`);
      expect(body.addressChains).to.deep.equal({ [ALICE.address]: [chainIdOf("X"), chainIdOf("P")], [CAROL.address]: [chainIdOf("X")], [stranger]: [] });
      expectRefusal(await api().get("/v2/addressChains"), 400, "address");
    });
  });

  describe("assets and outputs", () => {
    it("/assets/<id> answers the asset with its current supply summed from unspent outputs", async () => {
      const { body } = await api().get(`/v2/assets/${NATIVE}`);
      const supply = sum(FIXTURE_OUTPUTS.filter((o) => o.asset === NATIVE && o.redeemedBy === undefined).map((o) => o.amount));
      expect(body).to.deep.equal({ id: NATIVE, chainID: chainIdOf("X"), name: "Native", symbol: "NAT", alias: "AVAX", currentSupply: supply.toString(), timestamp: "2024-01-01T00:00:00.000Z", denomination: 9, variableCap: 0, nft: 0 });
      expectRefusal(await api().get(`/v2/assets/${cb58Of("asset:none")}`), 404, "asset");
    });

    it("/assets lists the assets; query matches an ID, name or symbol prefix in any case", async () => {
      expect(ids((await api().get("/v2/assets")).body.assets)).to.deep.equal([NATIVE, TOKEN]);
      expect(ids((await api().get("/v2/assets?query=tt")).body.assets)).to.deep.equal([TOKEN]);
      expect(ids((await api().get("/v2/assets?query=test%20t")).body.assets)).to.deep.equal([TOKEN]);
      expect(ids((await api().get(`/v2/assets?query=${NATIVE.slice(0, 6)}`)).body.assets)).to.deep.equal([NATIVE]);
    });

    it("/outputs/<id> answers the output with its owners and redeeming transaction", async () => {
      const output = NAMED.genesis.outputs[1]!;
      const { body } = await api().get(`/v2/outputs/${output.id}`);
      expect(body).to.include({ id: output.id, transactionID: NAMED.genesis.id, outputIndex: 1, assetID: NATIVE, outputType: 7, amount: output.amount.toString(), redeemingTransactionID: NAMED.token.id, chainID: chainIdOf("X") });
      expect(body.addresses).to.deep.equal([BOB.address]);
      expectRefusal(await api().get(`/v2/outputs/${cb58Of("utxo:none")}`), 404, "output");
    });

    it("spent=true and spent=false split the outputs; another value is refused", async () => {
      const spent = (await api().get("/v2/outputs?spent=true")).body.outputs;
      const unspent = (await api().get("/v2/outputs?spent=false")).body.outputs;
      expect(spent.length).to.equal(FIXTURE_OUTPUTS.filter((o) => o.redeemedBy !== undefined).length);
      expect(unspent.length).to.equal(FIXTURE_OUTPUTS.filter((o) => o.redeemedBy === undefined).length);
      expect(spent.every((o: { redeemingTransactionID: string }) => o.redeemingTransactionID !== "")).to.equal(true);
      expectRefusal(await api().get("/v2/outputs?spent=maybe"), 400, "spent", "true or false");
    });

    it("/outputs filters by owner address and chain, and pages with next", async () => {
      const carol = (await api().get(`/v2/outputs?address=${CAROL.address}`)).body.outputs;
      expect(ids(carol).sort()).to.deep.equal(ownedBy(CAROL).map((o) => o.id).sort());
      const walked: string[] = [];
      let query: string | undefined = "limit=4&chainID=P&chainID=X";
      while (query !== undefined) {
        const { body }: Answer = await api().get(`/v2/outputs?${query}`);
        walked.push(...ids(body.outputs));
        query = body.next;
      }
      expect(walked.slice().sort()).to.deep.equal(FIXTURE_OUTPUTS.map((o) => o.id).sort());
      expect(new Set(walked).size).to.equal(walked.length);
    });
  });
}
