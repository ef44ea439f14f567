import { expect } from "chai";

import { SignatureMemo } from "../../src/crypto/signature-memo";
import { createNativeProvider, type EngineOptions } from "../../src/engine";

/** A memo that counts the signatures it gives back. */
class CountingMemo extends SignatureMemo {
  given = 0;
  override get(signer: Uint8Array, digest: Uint8Array) {
    const kept = super.get(signer, digest);
    if (kept !== undefined) this.given++;
    return kept;
  }
}

const BASE: EngineOptions = { genesisTimestamp: 1_700_000_000 };

/** Sends the same three transactions on a fresh chain; their hashes and what each one's sender reads as. */
async function sendThree(options: EngineOptions): Promise<{ hashes: string[]; senders: string[] }> {
  const provider = await createNativeProvider({ ...BASE, ...options });
  const [from, to] = (await provider.request({ method: "eth_accounts" })) as string[];
  const hashes: string[] = [];
  const senders: string[] = [];
  for (const value of ["0x1", "0x2", "0x3"]) {
    const hash = (await provider.request({ method: "eth_sendTransaction", params: [{ from, to, value }] })) as string;
    hashes.push(hash);
    senders.push(((await provider.request({ method: "eth_getTransactionByHash", params: [hash] })) as { from: string }).from);
  }
  return { hashes, senders };
}

describe("engine: eth_sendTransaction with a signature memo (signatureMemo)", () => {
  it("gives the transactions the hashes a chain without a memo gives them, and keeps their signatures", async () => {
    const memo = new SignatureMemo();
    const without = await sendThree({});
    const withMemo = await sendThree({ signatureMemo: memo });
    expect(withMemo).to.deep.equal(without);
    expect(memo.size).to.equal(3);
  });

  it("signs nothing again on a chain that repeats them: every signature comes from the memo, the hashes are the same", async () => {
    const first = new SignatureMemo();
    const firstRun = await sendThree({ signatureMemo: first });
    // As the next test run reads it: from its bytes.
    const next = CountingMemo.fromBytes(first.toBytes());
    const nextRun = await sendThree({ signatureMemo: next });
    expect(nextRun).to.deep.equal(firstRun);
    expect(next.given).to.equal(3);
    expect(next.changed, "nothing new was signed").to.equal(false);
  });
});
