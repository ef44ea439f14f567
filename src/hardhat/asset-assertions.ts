/**
 * The asset-balance assertion for tests without chai (Hardhat 3's viem toolbox runs node:test):
 *
 *   await assertAssetBalanceChanges(publicClient, wallet.writeContract(...), assetId, [
 *     { address: alice, amount: -100n },
 *     { address: wrapper, amount: 100n },
 *   ]);
 *
 * It checks what `changeAssetBalances` checks (each account's balance of one native asset across
 * the transaction's block, which must hold only that transaction) on any EIP-1193 client: a viem
 * client, a Hardhat 3 connection's provider, or a nativekit provider. A failure throws node's
 * AssertionError with the actual and expected changes.
 */
import { AssertionError } from "node:assert";

export interface Eip1193Requester {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
}

/** A transaction hash, a promise of one (what viem's write actions return), or a function returning either. */
export type TransactionHashSubject = string | Promise<string> | (() => string | Promise<string>);

export interface ExpectedAssetChange {
  address: string;
  amount: bigint;
}

interface ReceiptFields {
  blockHash: string;
  blockNumber: string;
}

async function hashOf(subject: TransactionHashSubject): Promise<string> {
  const hash = await (typeof subject === "function" ? subject() : subject);
  if (typeof hash !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(hash)) {
    throw new TypeError(`assertAssetBalanceChanges expects a transaction hash (or a promise of one), got ${String(hash)}`);
  }
  return hash;
}

export async function assertAssetBalanceChanges(client: Eip1193Requester, transaction: TransactionHashSubject, assetId: string | bigint | Uint8Array, expected: ExpectedAssetChange[]): Promise<void> {
  // Loaded when an assertion runs: the plugin's entry, which every Hardhat command imports, exports this.
  const { assetIdToCb58, assetIdToHex, parseAssetId } = await import("../encoding");
  const bytes = parseAssetId(assetId);
  const assetHex = assetIdToHex(bytes);
  const hash = await hashOf(transaction);
  const receipt = (await client.request({ method: "eth_getTransactionReceipt", params: [hash] })) as ReceiptFields | null;
  if (receipt === null) throw new Error(`transaction ${hash} has no receipt: mine its block first (automine is off?)`);
  const block = (await client.request({ method: "eth_getBlockByHash", params: [receipt.blockHash, false] })) as { transactions: string[] };
  const blockNumber = BigInt(receipt.blockNumber);
  if (block.transactions.length !== 1) {
    throw new Error(`assertAssetBalanceChanges needs the transaction alone in its block, but block ${blockNumber} has ${block.transactions.length}`);
  }
  const read = async (address: string, at: bigint) => BigInt((await client.request({ method: "eth_getAssetBalance", params: [address, `0x${at.toString(16)}`, assetHex] })) as string);
  const actual = await Promise.all(expected.map(async ({ address }) => ({ address, amount: (await read(address, blockNumber)) - (await read(address, blockNumber - 1n)) })));
  const wrong = actual.filter((change, i) => change.amount !== expected[i]!.amount);
  if (wrong.length > 0) {
    const describe = (changes: ExpectedAssetChange[]) => changes.map((c) => `${c.address}: ${c.amount}`).join(", ");
    throw new AssertionError({
      message: `Expected the balances of asset ${assetIdToCb58(bytes)} to change by ${describe(expected)}, but they changed by ${describe(actual)}`,
      actual: actual.map((c) => ({ address: c.address, amount: c.amount.toString() })),
      expected: expected.map((c) => ({ address: c.address, amount: c.amount.toString() })),
      operator: "assertAssetBalanceChanges",
    });
  }
}
