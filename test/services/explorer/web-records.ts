/**
 * A small network's explorer records, written by hand, for the page tests: the native asset and
 * GOLD (denomination 2), GOLD's creation, a transfer with a memo, and a contract-chain block
 * whose transaction wraps GOLD (nativeAssetCall + deposit) with the wrapper's real event
 * encodings (from ethers, independent of the pages' decoder).
 *
 * `recordsReader` is a stand-in for the explorer's reader answering from these records; the
 * browser journey reads through the real reader from a database.
 */
import { Interface } from "ethers";
import { encodeCb58, encodeNativeAssetCallInput, formatBech32Address } from "../../../src/encoding";
import type { ExplorerContext } from "../../../src/services/explorer/context";
import type { AddressRecord, AggregateRecord, AssetRecord, CBlockRecord, CTransactionRecord, OutputRecord, SearchResult, TransactionRecord } from "../../../src/services/explorer/records";
import type { PagesReader } from "../../../src/services/explorer/web/reader";

/** A cb58 ID of 32 bytes, all `byte`. */
export function id(byte: number): string {
  return encodeCb58(new Uint8Array(32).fill(byte));
}

export function address(byte: number): string {
  return formatBech32Address(new Uint8Array(20).fill(byte), "local");
}

export const context: ExplorerContext = { networkId: 12345, hrp: "local", nativeAssetId: id(1), chains: { X: id(2), P: id(3), C: id(4) } };

export const ALICE = address(0xa1);
export const BOB = address(0xb0);
export const ALICE_C = "0x00000000000000000000000000000000000000a1";
export const WRAPPER_C = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
export const GOLD_ID = id(0x60);
export const TRANSFER_ID = id(0x70);
export const MEMO = "thanks for the <script>alert('gold')</script>";
export const C_HASH = `0x${"ab".repeat(32)}`;

export const WRAPPER_ABI = new Interface([
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Deposit(address caller, uint256 amount)",
  "function deposit()",
]);

const T0 = "2026-11-24T00:00:00Z";

export const native: AssetRecord = { id: context.nativeAssetId, chainID: context.chains.X, name: "Avalanche", symbol: "AVAX", alias: "", currentSupply: "360000000000000000", timestamp: T0, denomination: 9, variableCap: 0, nft: 0 };
export const gold: AssetRecord = { id: GOLD_ID, chainID: context.chains.X, name: "Demo <b>Gold</b>", symbol: "GOLD", alias: "", currentSupply: "100000000", timestamp: "2026-11-24T00:01:00Z", denomination: 2, variableCap: 0, nft: 0 };

function output(tx: string, index: number, owner: string, amount: string, spentBy = ""): OutputRecord {
  return { id: id(0x80 + index), transactionID: tx, outputIndex: index, assetID: GOLD_ID, outputType: 7, amount, locktime: 0, threshold: 1, addresses: [owner], timestamp: "2026-11-24T00:01:00Z", redeemingTransactionID: spentBy, chainID: context.chains.X, groupID: 0, payload: null, stake: false };
}

export const created: TransactionRecord = {
  id: GOLD_ID, chainID: context.chains.X, type: "create_asset", inputs: [], outputs: [output(GOLD_ID, 0, ALICE, "100000000", TRANSFER_ID)],
  memo: "", inputTotals: {}, outputTotals: { [GOLD_ID]: "100000000" }, reusedAddressTotals: null, timestamp: "2026-11-24T00:01:00Z", txFee: 10000000, genesis: false,
};

export const transfer: TransactionRecord = {
  id: TRANSFER_ID, chainID: context.chains.X, type: "base",
  inputs: [{ output: created.outputs[0]!, credentials: [{ address: ALICE, public_key: `02${"11".repeat(32)}`, signature: "22".repeat(65) }] }],
  outputs: [{ ...output(TRANSFER_ID, 0, BOB, "2500"), id: id(0x90) }, { ...output(TRANSFER_ID, 1, ALICE, "99997500"), id: id(0x91) }],
  memo: Buffer.from(MEMO).toString("base64"), inputTotals: { [GOLD_ID]: "100000000" }, outputTotals: { [GOLD_ID]: "100000000" }, reusedAddressTotals: null, timestamp: "2026-11-24T00:02:00Z", txFee: 1000000, genesis: false,
};

export const addresses: Record<string, AddressRecord> = {
  [ALICE]: { chainID: context.chains.X, address: ALICE, publicKey: `02${"11".repeat(32)}`, assets: { [GOLD_ID]: { id: GOLD_ID, transactionCount: 2, utxoCount: 1, balance: "99997500", totalReceived: "199997500", totalSent: "100000000" } } },
  [BOB]: { chainID: context.chains.X, address: BOB, publicKey: null, assets: { [GOLD_ID]: { id: GOLD_ID, transactionCount: 1, utxoCount: 1, balance: "2500", totalReceived: "2500", totalSent: "0" } } },
};

const depositLog = WRAPPER_ABI.encodeEventLog("Deposit", [ALICE_C, 4000000n]);
const mintLog = WRAPPER_ABI.encodeEventLog("Transfer", ["0x0000000000000000000000000000000000000000", ALICE_C, 4000000n]);
const wrapInput = encodeNativeAssetCallInput({ to: WRAPPER_C, assetId: GOLD_ID, amount: 4000000n, callData: WRAPPER_ABI.encodeFunctionData("deposit") });

const log = (index: number, encoded: { topics: string[]; data: string }) => ({ address: WRAPPER_C, topics: encoded.topics, data: encoded.data, blockNumber: "0x5", transactionHash: C_HASH, transactionIndex: "0x0", blockHash: `0x${"cd".repeat(32)}`, logIndex: `0x${index.toString(16)}`, removed: false });

export const wrapTx: CTransactionRecord = {
  type: 2, block: "5", hash: C_HASH, createdAt: "2026-11-24T00:03:00Z", nonce: "1", gasPrice: null, maxFeePerGas: "30000000000", maxPriorityFeePerGas: "0", gasLimit: "120000", value: "0",
  input: wrapInput, fromAddr: ALICE_C, toAddr: "0x0100000000000000000000000000000000000002", v: "0x1", r: "0x1", s: "0x1",
  receipt: { root: "", status: "1", cumulativeGasUsed: "61000", logsBloom: "0x", logs: [log(0, mintLog), log(1, depositLog)], type: "2", transactionHash: C_HASH, contractAddress: "", transactionIndex: "0", gasUsed: "61000", blockHash: `0x${"cd".repeat(32)}`, blockNumber: "5", effectiveGasPrice: "25000000000" },
};

export const block5: CBlockRecord = {
  hash: `0x${"cd".repeat(32)}`,
  header: { parentHash: `0x${"ce".repeat(32)}`, sha3Uncles: "0x", miner: "0x0100000000000000000000000000000000000000", stateRoot: `0x${"01".repeat(32)}`, transactionsRoot: "0x", receiptsRoot: "0x", logsBloom: "0x", difficulty: "1", number: "5", gasLimit: "8000000", gasUsed: "61000", timestamp: "1795478580", extraData: "0x", mixHash: "0x", nonce: "0x0", extDataHash: "0x", baseFeePerGas: "25000000000", extDataGasUsed: "0", blockGasCost: "0", hash: `0x${"cd".repeat(32)}` },
  transactions: [wrapTx],
};

export function aggregate(startTime: string, endTime: string, transactionCount: number): AggregateRecord {
  return { startTime, endTime, transactionVolume: String(transactionCount * 100), transactionCount, addressCount: transactionCount, outputCount: transactionCount * 2, assetCount: 1 };
}

/** Stand-in for the explorer's reader: answers the pages' questions from the records above. */
export function recordsReader(overrides: Partial<PagesReader> = {}): PagesReader {
  const transactions = [transfer, created];
  const assets = new Map([native, gold].map((a) => [a.id, a]));
  const search = (query: string): SearchResult[] => [
    ...transactions.filter((t) => t.id.startsWith(query)).map((t) => ({ type: "transaction" as const, data: t, score: t.id === query ? 2 : 1 })),
    ...[...assets.values()].filter((a) => a.id.startsWith(query) || a.symbol.toLowerCase() === query.toLowerCase()).map((a) => ({ type: "asset" as const, data: a, score: 1 })),
    ...Object.values(addresses).filter((a) => a.address.startsWith(query)).map((a) => ({ type: "address" as const, data: a, score: a.address === query ? 2 : 1 })),
  ];
  return {
    transaction: async (txId) => transactions.find((t) => t.id === txId),
    latestTransactions: async ({ chainId, address: owner }) => ({ items: transactions.filter((t) => (chainId === undefined || t.chainID === chainId) && (owner === undefined || t.outputs.some((o) => o.addresses.includes(owner)))) }),
    address: async (a) => (addresses[a] === undefined ? [] : [addresses[a]!]),
    asset: async (assetId) => assets.get(assetId),
    assets: async () => [...assets.values()],
    holders: async (assetId) => (assetId === GOLD_ID ? [{ address: ALICE, balance: "99997500" }, { address: BOB, balance: "2500" }] : []),
    cBlock: async (height) => (height === 5n ? block5 : undefined),
    latestCBlocks: async () => ({ blocks: [{ hash: block5.hash, miner: block5.header.miner, difficulty: "1", number: "5", gasLimit: "8000000", gasUsed: "61000", timestamp: "1795478580", baseFeePerGas: "25000000000", extDataGasUsed: "0", blockGasCost: "0", evmTx: 1 }], transactions: [] }),
    cTransaction: async (hash) => (hash === C_HASH ? wrapTx : undefined),
    cTransactionsOf: async (a) => (a === ALICE_C ? [wrapTx] : []),
    search: async (query) => {
      const results = search(query);
      return { count: results.length, results };
    },
    aggregates: async ({ startTime, endTime }) => ({
      startTime: startTime.toISOString(), endTime: endTime.toISOString(), aggregates: aggregate(startTime.toISOString(), endTime.toISOString(), 3),
      intervals: [aggregate("2026-11-24T00:00:00Z", "2026-11-24T01:00:00Z", 2), aggregate("2026-11-24T01:00:00Z", "2026-11-24T02:00:00Z", 0), aggregate("2026-11-24T02:00:00Z", "2026-11-24T03:00:00Z", 1)],
    }),
    ...overrides,
  };
}
