import { expect } from "chai";
import fc from "fast-check";
import { encodeCb58 } from "../../../src/encoding";
import { LOCAL_GENESIS_HOLDERS } from "../../../src/xchain/genesis";
import { ExchangeWallet, TxRejectedError, WalletError } from "../../../src/xchain/vm";
import { addressOf, AVAX, EWOQ, EWOQ_KEY, externalSend, FEE, fixture, signed, testKey } from "./helpers";

const KEYS = [EWOQ_KEY, testKey(2), testKey(3)];
const ADDRESSES = KEYS.map(addressOf);
const GENESIS_SUPPLY = LOCAL_GENESIS_HOLDERS.reduce((sum, h) => sum + h.amount, 0n);

describe("xchain/vm properties", () => {
  it("conserves value: after any sequence of sends, balances plus burnt fees equal the genesis supply", () => {
    const send = fc.record({ from: fc.integer({ min: 0, max: 2 }), to: fc.integer({ min: 0, max: 2 }), amount: fc.bigInt({ min: 1n, max: 10n ** 17n }) });
    fc.assert(
      fc.property(fc.array(send, { minLength: 1, maxLength: 8 }), (sends) => {
        const { chain } = fixture();
        let accepted = 0n;
        for (const s of sends) {
          const wallet = new ExchangeWallet(chain, [KEYS[s.from]!]);
          try {
            chain.issueTx(wallet.sendMultiple([{ assetId: AVAX, amount: s.amount, to: ADDRESSES[s.to]! }]).bytes);
            accepted++;
          } catch (error) {
            if (!(error instanceof WalletError && error.problem === "insufficient-funds")) throw error;
          }
        }
        const holders = [...ADDRESSES, chain.parseAddress(`X-${LOCAL_GENESIS_HOLDERS[0]!.address}`)];
        const total = holders.reduce((sum, a) => sum + chain.getBalance(a, AVAX).balance, 0n);
        expect(total + accepted * FEE).to.equal(GENESIS_SUPPLY);
      }),
      { numRuns: 25 },
    );
  });

  it("pages getUTXOs with any limit so that every UTXO comes exactly once", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 5 }), async (count, limit) => {
        const { chain, x } = fixture();
        const bob = ADDRESSES[1]!;
        const outputs = Array.from({ length: count }, (_, i) => ({ assetId: AVAX, amount: BigInt(i + 1), to: bob }));
        chain.issueTx(new ExchangeWallet(chain, [EWOQ_KEY]).sendMultiple(outputs).bytes);
        const address = chain.formatAddress(bob);
        const seen: string[] = [];
        let startIndex: unknown;
        for (let guard = 0; guard < 20; guard++) {
          const page = (await x("xvm.getUTXOs", { addresses: [address], limit, ...(startIndex === undefined ? {} : { startIndex }) })) as {
            numFetched: string;
            utxos: string[];
            endIndex: unknown;
          };
          seen.push(...page.utxos);
          startIndex = page.endIndex;
          if (Number(page.numFetched) < limit) break;
        }
        expect(seen).to.have.length(count);
        expect(new Set(seen).size).to.equal(count);
      }),
      { numRuns: 20 },
    );
  });

  it("rejects a transaction with any one signature byte changed, and changes nothing", () => {
    const { bytes } = signed(externalSend(ADDRESSES[1]!, 1_000n), [[EWOQ_KEY]]);
    const signatureStart = bytes.length - 65;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 64 }), fc.integer({ min: 1, max: 255 }), (offset, xor) => {
        const { chain } = fixture();
        const tampered = bytes.slice();
        tampered[signatureStart + offset]! ^= xor;
        expect(() => chain.issueTx(tampered)).to.throw(TxRejectedError);
        expect(chain.acceptedTxs()).to.have.length(1);
        expect(chain.getBalance(EWOQ, AVAX).balance).to.equal(300_000_000n * 10n ** 9n);
        expect(encodeCb58(chain.getAllUtxos([EWOQ])[0]!.utxo.txId)).to.equal(encodeCb58(AVAX));
      }),
      { numRuns: 40 },
    );
  });
});
