import { expect } from "chai";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { concat, id, Interface, keccak256, toBeHex, Wallet, zeroPadValue } from "ethers";
import hre from "hardhat";

import { DEFAULT_MNEMONIC_KEYS } from "../../src/engine/accounts";
import { alive } from "../helpers/processes";
import { DIFFERENCES, Differential, differences, startAnvil, startHardhat, startNativekit, SETUP, type DifferenceName, type Saved, type Step } from "../helpers/differential";

/**
 * The same JSON-RPC scripts on nativekit, on Hardhat's own network (EDR, in process) and on
 * anvil (one process for the file, test/helpers/differential.ts): transfers, a block of several
 * transactions and its fee history, a deployment and calls, reverts, logs and filters, snapshots
 * and the clock, Hardhat's methods against Hardhat's network and anvil's against anvil, and
 * debug_traceTransaction (callTracer, the struct logger). Every answer must be the peer's, but
 * for the differences a step names (each listed, with its reason, in the README: "Differences
 * from Hardhat's network and anvil"). Each script starts from a snapshot taken on all three and
 * reverted after it.
 */

/** The test mnemonic's first two accounts, funded on every backend. */
const A0 = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
const A1 = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
/** An address with no key: impersonated, or written directly. */
const STRANGER = "0x00000000000000000000000000000000000b0b0b";
const OTHER = "0x00000000000000000000000000000000000000aa";
/** Fees named in full, so that a transaction is the same (and has the same hash) everywhere. */
const FEES = { maxFeePerGas: "0x3b9aca00", maxPriorityFeePerGas: "0x3b9aca00" };
const WORD_7 = zeroPadValue("0x07", 32);

const harness = new Interface([
  "function stored() view returns (uint256)",
  "function values(uint256) view returns (uint256)",
  "function store(uint256)",
  "function put(uint256,uint256)",
  "function ping(uint256[])",
  "function fill(uint256,uint256)",
  "function storeThenMaybeFail(uint256,bool,string)",
  "function requireAbove10(uint256) view returns (uint256)",
  "function checkLimit(uint256,uint256) view returns (uint256)",
  "function failPlain()",
  "function failEmpty()",
  "function divide(uint256,uint256) view returns (uint256)",
]);
const STORED = id("Stored(address,uint256)");
const PUT = id("Put(address,uint256,uint256)");

/** What differs by design in a block, a transaction, a receipt, a log, a failed call, a refused transaction. */
const BLOCK: DifferenceName[] = ["blockHash", "timestamp", "stateRoot", "coinbase", "chainHeaderFields", "prevRandao", "parentBeaconBlockRoot", "hardhatTransactionFields", "anvilBlockTimestamp"];
const TRANSACTION: DifferenceName[] = ["blockHash", "hardhatTransactionFields", "anvilBlockTimestamp"];
const RECEIPT: DifferenceName[] = ["blockHash", "anvilBlockTimestamp", "anvilBlobGasPrice"];
const LOG: DifferenceName[] = ["blockHash", "anvilBlockTimestamp"];
const FAILURE: DifferenceName[] = ["hardhatFailureErrors", "anvilFailureErrors"];
const REJECTION: DifferenceName[] = ["rejectionWords", "anvilRejectionCodes"];

/** The contract a script deployed (kept as `created`, its receipt). */
const contract = (s: Saved) => (s.created as { contractAddress: string }).contractAddress;
/** A transaction from `from` with every field named. */
const tx = (fields: Record<string, unknown>) => ({ from: A0, gas: "0x30d40", ...FEES, ...fields });
/** A call of RpcHarness's `fn` on the deployed contract, sent as a transaction. */
const send = (fn: string, args: unknown[], as: string, fields: Record<string, unknown> = {}): Step => ({
  method: "eth_sendTransaction",
  params: (s) => [tx({ to: contract(s), data: harness.encodeFunctionData(fn, args), ...fields })],
  as,
});
const call = (fn: string, args: unknown[], block: string = "latest", differ: DifferenceName[] = ["hardhatFailureErrors"]): Step => ({
  method: "eth_call",
  params: (s) => [{ from: A0, to: contract(s), data: harness.encodeFunctionData(fn, args) }, block],
  differ,
});
const receipt = (of: string, as?: string): Step => ({ method: "eth_getTransactionReceipt", params: (s) => [s[of]], differ: RECEIPT, ...(as ? { as } : {}) });
const block = (tag: string, full = false, as?: string): Step => ({ method: "eth_getBlockByNumber", params: [tag, full], differ: BLOCK, ...(as ? { as } : {}) });

let bytecode: string;
/** A transfer signed here: the same bytes, and so the same hash, on every network (A0's nonce 1). */
let signedTransfer: string;
/** A transfer from the tenth account with nonce 5, ahead of its nonce (0). */
let aheadOfNonce: string;

/** A transfer of 7 wei to A1, signed with the test mnemonic's `account`th key. */
function signed(account: number, nonce: number): Promise<string> {
  const fees = { maxFeePerGas: 10n ** 9n, maxPriorityFeePerGas: 10n ** 9n };
  return new Wallet(DEFAULT_MNEMONIC_KEYS[account]!).signTransaction({ type: 2, chainId: SETUP.chainId, nonce, to: A1, value: 7n, gasLimit: 21_000n, ...fees });
}
/** Deploys RpcHarness: `deploy` is its hash, `created` its receipt. */
const deploy = (): Step[] => [
  { method: "eth_sendTransaction", params: () => [tx({ data: bytecode, gas: "0x1e8480" })], as: "deploy" },
  receipt("deploy", "created"),
];

describe("engine: the same JSON-RPC scripts on nativekit, Hardhat's network and anvil", function () {
  this.timeout(60_000);
  let d: Differential;
  let anvil: Awaited<ReturnType<typeof startAnvil>>;
  let restore: (() => Promise<void>) | undefined;

  before(async () => {
    bytecode = (await hre.artifacts.readArtifact("RpcHarness")).bytecode;
    signedTransfer = await signed(0, 1);
    aheadOfNonce = await signed(9, 5);
    anvil = await startAnvil();
    d = new Differential(await startNativekit(), [await startHardhat(), anvil]);
  });

  beforeEach(async () => {
    ({ restore } = await d.snapshot());
  });

  afterEach(async () => {
    await restore?.();
  });

  after(async () => {
    await d?.stop();
    // Stopped by its pid, also when the harness never got built.
    await anvil?.stop();
    if (anvil?.pid !== undefined) expect(alive(anvil.pid), "anvil is stopped").to.equal(false);
  });

  it("transfers", async () => {
    await d.run([
      { method: "eth_chainId" },
      { method: "net_version" },
      { method: "eth_syncing" },
      { method: "web3_clientVersion", differ: ["clientVersion"] },
      { method: "eth_coinbase", differ: ["coinbase"] },
      { method: "eth_accounts" },
      { method: "eth_blockNumber" },
      { method: "eth_getBalance", params: [A1, "latest"] },
      { method: "eth_sendTransaction", params: [tx({ to: A1, value: "0xde0b6b3a7640000", gas: "0x5208" })], as: "first" },
      receipt("first"),
      { method: "eth_getTransactionByHash", params: (s) => [s.first], differ: TRANSACTION },
      { method: "eth_getBalance", params: [A0, "latest"] },
      { method: "eth_getBalance", params: [A1, "latest"] },
      { method: "eth_getTransactionCount", params: [A0, "latest"] },
      { method: "eth_getTransactionCount", params: [A0, "pending"] },
      // A legacy transaction, its gas price named.
      { method: "eth_sendTransaction", params: [{ from: A1, to: A0, value: "0x1", gas: "0x5208", gasPrice: "0x3b9aca00" }], as: "legacy" },
      receipt("legacy"),
      block("latest", true, "head"),
      block("0x1"),
      { method: "eth_getBlockByHash", params: (s) => [(s.head as { hash: string }).hash, false], differ: BLOCK },
      { method: "eth_getTransactionByBlockNumberAndIndex", params: ["0x1", "0x0"], differ: TRANSACTION },
      { method: "eth_getBlockReceipts", params: ["0x2"], differ: [...RECEIPT, "hardhatUnsupported"] },
      { method: "eth_sendRawTransaction", params: [signedTransfer], as: "raw" },
      receipt("raw"),
      { method: "eth_getBlockTransactionCountByNumber", params: ["0x1"] },
      { method: "eth_getBalance", params: [A0, "0x0"] },
      { method: "eth_getBalance", params: [A0, "0x1"] },
      // The same transfer with nothing named: each network chooses the gas and the fees.
      { method: "eth_sendTransaction", params: [{ from: A0, to: A1, value: "0x1" }], as: "defaults", differ: ["filledTransaction"] },
      { ...receipt("defaults"), differ: [...RECEIPT, "filledTransaction"] },
      { method: "eth_getBalance", params: [A1, "latest"] },
      { method: "eth_gasPrice", differ: ["feeSuggestions"] },
      { method: "eth_maxPriorityFeePerGas", differ: ["feeSuggestions"] },
      // Refused: more value than the sender has; a nonce already used; a sender without a key.
      { method: "eth_sendTransaction", params: [tx({ to: A0, from: A1, value: "0xfffffffffffffffffffffffffff", gas: "0x5208" })], differ: REJECTION },
      { method: "eth_sendTransaction", params: [tx({ to: A1, value: "0x1", gas: "0x5208", nonce: "0x0" })], differ: REJECTION },
      { method: "eth_sendTransaction", params: [tx({ from: STRANGER, to: A1, value: "0x1", gas: "0x5208" })], differ: REJECTION },
      { method: "eth_sendRawTransaction", params: [signedTransfer], differ: REJECTION },
      // A nonce ahead of the sender's (the test mnemonic's tenth account, whose nonce is 0).
      { method: "eth_sendRawTransaction", params: [aheadOfNonce], differ: [...REJECTION, "anvilQueuesFutureNonces"] },
      { method: "anvil_dropAllTransactions", only: ["anvil"] },
      { method: "eth_getTransactionByHash", params: ["0x" + "ab".repeat(32)] },
      { method: "eth_getTransactionReceipt", params: ["0x" + "ab".repeat(32)] },
    ]);
  });

  it("a block of several transactions: their order, and eth_feeHistory's rewards weighted by gas", async () => {
    const A2 = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
    const tip = (gwei: number) => ({ maxFeePerGas: `0x${(gwei * 1e9).toString(16)}`, maxPriorityFeePerGas: `0x${(gwei * 1e9).toString(16)}` });
    await d.run([
      { method: "evm_setAutomine", params: [false], differ: ["evmAnswers"] },
      { method: "eth_sendTransaction", params: [{ from: A0, to: A1, value: "0x1", gas: "0x5208", ...tip(1) }], as: "cheap" },
      { method: "eth_sendTransaction", params: [{ from: A1, data: bytecode, gas: "0x1e8480", ...tip(3) }], as: "big" },
      { method: "eth_sendTransaction", params: [{ from: A2, to: A0, value: "0x1", gas: "0x5208", ...tip(2) }], as: "middle" },
      { method: "txpool_status", differ: ["hardhatUnsupported"] },
      { method: "eth_getTransactionCount", params: [A0, "pending"] },
      { method: "evm_mine", differ: ["evmMineAnswer"] },
      { method: "evm_setAutomine", params: [true], differ: ["evmAnswers"] },
      block("latest", false),
      { method: "eth_feeHistory", params: ["0x1", "latest", [0, 10, 25, 50, 75, 90, 100]], differ: ["hardhatGasUsedRatio", "anvilBlobFields"] },
      { method: "eth_getBlockReceipts", params: ["latest"], differ: [...RECEIPT, "hardhatUnsupported"] },
    ]);
  });

  it("a deployment and calls", async () => {
    await d.run([
      { method: "eth_estimateGas", params: [{ from: A0, data: bytecode }], differ: ["gasEstimate"] },
      ...deploy(),
      { method: "eth_getCode", params: (s) => [contract(s), "latest"] },
      { method: "eth_getCode", params: (s) => [contract(s), "0x0"] },
      call("stored", []),
      { method: "eth_estimateGas", params: (s) => [{ from: A0, to: contract(s), data: harness.encodeFunctionData("store", [7]) }], differ: ["gasEstimate"] },
      { method: "eth_estimateGas", params: [{ from: A0, to: A1, value: "0x1" }], differ: ["hardhatTransferEstimate"] },
      send("store", [7], "store"),
      receipt("store"),
      call("stored", []),
      call("stored", [], "0x1"),
      { method: "eth_getStorageAt", params: (s) => [contract(s), "0x0", "latest"] },
      send("put", [1, 2], "put"),
      { method: "eth_getStorageAt", params: (s) => [contract(s), keccak256(concat([toBeHex(1, 32), toBeHex(1, 32)])), "latest"] },
      call("values", [1]),
      { method: "eth_getTransactionCount", params: (s) => [contract(s), "latest"] },
      { method: "eth_getStorageAt", params: (s) => [contract(s), "0x0", "0x1"] },
      // A block named by EIP-1898's object, by number and by hash.
      { method: "eth_call", params: (s) => [{ to: contract(s), data: harness.encodeFunctionData("stored", []) }, { blockNumber: "0x2" }] },
      { method: "eth_getBalance", params: (s) => [A0, { blockHash: (s.created as { blockHash: string }).blockHash }] },
      { method: "eth_getCode", params: [A0, "latest"] },
      { method: "eth_getStorageAt", params: [OTHER, "0x0", "latest"] },
      { method: "eth_getTransactionCount", params: [OTHER, "latest"] },
      { method: "eth_getBlockByNumber", params: ["0x99", false] },
      { method: "eth_getBlockTransactionCountByNumber", params: ["0x99"], differ: ["anvilBlockPastHead"] },
      { method: "eth_getUncleCountByBlockNumber", params: ["0x1"], differ: ["hardhatUnsupported"] },
      { method: "eth_getBalance", params: [A0, "0x99"], differ: ["blockPastHeadWords"] },
      { method: "eth_call", params: (s) => [{ to: contract(s), data: harness.encodeFunctionData("stored", []) }, "0x99"], differ: ["blockPastHeadWords"] },
      { method: "eth_call", params: (s) => [{ from: A0, to: contract(s), value: "0x1", data: harness.encodeFunctionData("stored", []) }, "latest"], differ: FAILURE },
      { method: "eth_call", params: [{ from: A0, to: OTHER, data: "0x1234" }, "latest"] },
      { method: "eth_feeHistory", params: ["0x2", "latest", [50]], differ: ["hardhatGasUsedRatio", "anvilBlobFields"] },
      { method: "eth_blockNumber" },
    ]);
  });

  it("reverts: a reason, a custom error, a panic, no data, out of gas", async () => {
    await d.run([
      ...deploy(),
      call("requireAbove10", [5]),
      call("checkLimit", [5, 1], "latest", FAILURE),
      call("failPlain", [], "latest", FAILURE),
      call("failEmpty", [], "latest", FAILURE),
      call("divide", [1, 0], "latest", ["hardhatFailureErrors", "panicWords"]),
      call("requireAbove10", [50]),
      { method: "eth_estimateGas", params: (s) => [{ from: A0, to: contract(s), data: harness.encodeFunctionData("requireAbove10", [5]) }], differ: ["hardhatFailureErrors"] },
      { method: "eth_estimateGas", params: (s) => [{ from: A0, to: contract(s), data: harness.encodeFunctionData("checkLimit", [5, 1]) }], differ: FAILURE },
      { method: "eth_call", params: (s) => [{ from: A0, to: contract(s), gas: "0xc350", data: harness.encodeFunctionData("fill", [0, 100]) }, "latest"], differ: FAILURE },
      send("storeThenMaybeFail", [1, true, "nope"], "reverted"),
      receipt("reverted"),
      send("fill", [0, 100], "outOfGas", { gas: "0xea60" }),
      receipt("outOfGas"),
      call("stored", []),
      { method: "eth_getTransactionCount", params: [A0, "latest"] },
    ]);
  });

  it("logs: eth_getLogs by address and topics, and filters", async () => {
    const topic = (n: number) => zeroPadValue(toBeHex(n), 32);
    const logs = (filter: (s: Saved) => Record<string, unknown>): Step => ({ method: "eth_getLogs", params: (s) => [filter(s)], differ: LOG });
    await d.run([
      ...deploy(),
      { method: "eth_newFilter", params: (s) => [{ address: contract(s) }], as: "filter", differ: ["filterId"] },
      { method: "eth_newBlockFilter", as: "blocks", differ: ["filterId"] },
      send("store", [3], "store"),
      receipt("store", "stored"),
      send("put", [1, 2], "put"),
      send("ping", [[1, 2, 3]], "ping"),
      logs((s) => ({ address: contract(s), fromBlock: "0x0", toBlock: "latest" })),
      logs((s) => ({ address: contract(s), fromBlock: "0x0", topics: [STORED] })),
      logs((s) => ({ fromBlock: "0x0", topics: [[STORED, PUT], zeroPadValue(A0, 32)] })),
      logs((s) => ({ address: contract(s), fromBlock: "0x0", topics: [null, null, topic(1)] })),
      logs((s) => ({ address: [contract(s), OTHER], fromBlock: "latest" })),
      logs(() => ({ address: OTHER, fromBlock: "0x0" })),
      logs((s) => ({ blockHash: (s.stored as { blockHash: string }).blockHash })),
      { method: "eth_getFilterChanges", params: (s) => [s.filter], differ: LOG },
      { method: "eth_getFilterChanges", params: (s) => [s.filter] },
      send("store", [4], "store2"),
      { method: "eth_getFilterChanges", params: (s) => [s.filter], differ: LOG },
      { method: "eth_getFilterLogs", params: (s) => [s.filter], differ: [...LOG, "hardhatFilters"] },
      { method: "eth_getFilterChanges", params: (s) => [s.blocks], differ: ["blockHashes", "hardhatFilters"] },
      { method: "eth_uninstallFilter", params: (s) => [s.filter] },
      { method: "eth_uninstallFilter", params: (s) => [s.filter] },
      { method: "eth_getFilterChanges", params: (s) => [s.filter], differ: ["hardhatFilters", "filterNotFoundWords"] },
      receipt("ping"),
    ]);
  });

  it("snapshots and the clock", async () => {
    const head = (as: string): Step => block("latest", false, as);
    const time = (s: Saved, of: string) => Number((s[of] as { timestamp: string }).timestamp);
    /** The latest block's time after the block kept as `from`. */
    const since = (from: string): Step => ({ method: "eth_getBlockByNumber", params: ["latest", false], observe: (b, s) => Number((b as { timestamp: string }).timestamp) - time(s, from) });
    await d.run([
      { method: "evm_snapshot", as: "snap", differ: ["snapshotId"] },
      { method: "eth_sendTransaction", params: [tx({ to: A1, value: "0x5", gas: "0x5208" })], as: "sent" },
      { method: "eth_blockNumber" },
      { method: "evm_revert", params: (s) => [s.snap] },
      { method: "eth_blockNumber" },
      { method: "eth_getTransactionReceipt", params: (s) => [s.sent] },
      { method: "eth_getTransactionByHash", params: (s) => [s.sent] },
      { method: "eth_getBalance", params: [A1, "latest"] },
      { method: "eth_getTransactionCount", params: [A0, "latest"] },
      // A snapshot is used up by reverting to it.
      { method: "evm_revert", params: (s) => [s.snap] },
      { method: "evm_mine", differ: ["evmMineAnswer"] },
      head("head"),
      {
        method: "evm_setNextBlockTimestamp",
        params: (s) => [time(s, "head") + 1000],
        // Hardhat answers the time set, as a decimal string.
        observe: (r, s) => (typeof r === "string" ? Number(r) - time(s, "head") : r),
        differ: ["evmAnswers"],
      },
      { method: "evm_mine", differ: ["evmMineAnswer"] },
      since("head"),
      head("set"),
      // Hardhat answers the clock's offset, in seconds as a decimal string: at least the 100 added.
      { method: "evm_increaseTime", params: [100], observe: (r) => (typeof r === "string" && /^\d+$/.test(r) && Number(r) >= 100 ? "an offset of 100 s or more" : r), differ: ["evmAnswers"] },
      { method: "evm_mine", differ: ["evmMineAnswer"] },
      { ...since("set"), observe: (b, s) => Number((b as { timestamp: string }).timestamp) - time(s, "set") >= 100 },
      head("increased"),
      { method: "evm_mine", params: (s) => [time(s, "increased") + 50], differ: ["evmMineAnswer"] },
      since("increased"),
      { method: "evm_snapshot", as: "snap2", differ: ["snapshotId"] },
      { method: "evm_mine", differ: ["evmMineAnswer"] },
      { method: "evm_mine", differ: ["evmMineAnswer"] },
      { method: "evm_revert", params: (s) => [s.snap2] },
      { method: "eth_blockNumber" },
      { method: "evm_setNextBlockTimestamp", params: (s) => [time(s, "head")], differ: ["timestamp", "timestampRefusal"] },
      { method: "evm_revert", params: ["0x999"] },
    ]);
  });

  /**
   * The account powers Hardhat's and anvil's namespaces share, each against its own network:
   * balance, code, storage and nonce written and read back, then a transaction from an
   * impersonated address without a key.
   */
  const accountEdits = (namespace: "hardhat" | "anvil"): Step[] =>
    (
      [
        { method: `${namespace}_setBalance`, params: [STRANGER, "0xde0b6b3a7640000"] },
        { method: "eth_getBalance", params: [STRANGER, "latest"] },
        { method: `${namespace}_setCode`, params: [OTHER, "0x6000"] },
        { method: "eth_getCode", params: [OTHER, "latest"] },
        { method: `${namespace}_setStorageAt`, params: [OTHER, "0x1", WORD_7] },
        { method: "eth_getStorageAt", params: [OTHER, "0x1", "latest"] },
        { method: `${namespace}_setNonce`, params: [OTHER, "0x5"] },
        { method: "eth_getTransactionCount", params: [OTHER, "latest"] },
        { method: `${namespace}_impersonateAccount`, params: [STRANGER] },
        { method: "eth_sendTransaction", params: [tx({ from: STRANGER, to: A1, value: "0x1", gas: "0x5208" })], as: "impersonated", differ: ["impersonatedHash"] },
        { ...receipt("impersonated"), differ: [...RECEIPT, "impersonatedHash"] },
      ] satisfies Step[]
    ).map((step) => ({ ...step, only: [namespace] }));

  it("Hardhat's methods (hardhat_*), against Hardhat's network", async () => {
    const only = ["hardhat"] as const;
    await d.run([
      ...accountEdits("hardhat"),
      { method: "eth_getBalance", params: [STRANGER, "latest"], only },
      { method: "hardhat_stopImpersonatingAccount", params: [STRANGER], only },
      { method: "hardhat_stopImpersonatingAccount", params: [STRANGER], only },
      { method: "eth_sendTransaction", params: [tx({ from: STRANGER, to: A1, value: "0x1", gas: "0x5208" })], only, differ: REJECTION },
      { method: "eth_blockNumber", only },
      { method: "hardhat_mine", params: ["0x3", "0xa"], only },
      { method: "eth_blockNumber", only },
      { method: "hardhat_mine", only },
      { method: "eth_blockNumber", only },
      { method: "hardhat_getAutomine", only },
      { method: "hardhat_setPrevRandao", params: [WORD_7], only },
      { method: "hardhat_setCoinbase", params: [OTHER], only },
      { method: "hardhat_setNextBlockBaseFeePerGas", params: ["0x7"], only },
      { method: "evm_mine", only, differ: ["evmMineAnswer"] },
      { method: "eth_getBlockByNumber", params: ["latest", false], only, differ: ["blockHash", "timestamp", "stateRoot", "chainHeaderFields", "parentBeaconBlockRoot"] },
      { method: "hardhat_setBalance", params: [STRANGER, "0x0"], only },
      { method: "hardhat_setStorageAt", params: [OTHER, "0x1", "0x07"], only, differ: ["paramWords"] },
    ]);
  });

  it("anvil's methods (anvil_*), against anvil", async () => {
    const only = ["anvil"] as const;
    await d.run([
      ...accountEdits("anvil"),
      { method: "anvil_stopImpersonatingAccount", params: [STRANGER], only },
      { method: "eth_sendTransaction", params: [tx({ from: STRANGER, to: A1, value: "0x1", gas: "0x5208" })], only, differ: REJECTION },
      { method: "anvil_mine", params: ["0x2", "0xa"], only },
      { method: "eth_blockNumber", only },
      { method: "anvil_getAutomine", only },
      { method: "anvil_setAutomine", params: [false], only },
      { method: "eth_sendTransaction", params: [tx({ to: A1, value: "0x2", gas: "0x5208" })], as: "pending", only },
      { method: "eth_getTransactionReceipt", params: (s) => [s.pending], only },
      { method: "eth_getTransactionByHash", params: (s) => [s.pending], only, differ: TRANSACTION },
      { method: "txpool_status", only },
      { method: "txpool_inspect", only },
      { method: "eth_getTransactionCount", params: [A0, "pending"], only },
      { method: "eth_getTransactionCount", params: [A0, "latest"], only },
      { method: "anvil_dropTransaction", params: (s) => [s.pending], only },
      { method: "txpool_status", only },
      { method: "eth_sendTransaction", params: [tx({ to: A1, value: "0x3", gas: "0x5208" })], as: "mined", only },
      { method: "evm_mine", only },
      { ...receipt("mined"), only },
      { method: "anvil_setAutomine", params: [true], only },
      { method: "anvil_snapshot", as: "snap", only, differ: ["snapshotId"] },
      { method: "anvil_mine", params: ["0x1"], only },
      { method: "anvil_revert", params: (s) => [s.snap], only },
      { method: "eth_blockNumber", only },
      { method: "anvil_setCoinbase", params: [OTHER], only },
      { method: "anvil_setNextBlockBaseFeePerGas", params: ["0x7"], only },
      { method: "anvil_mine", only },
      { method: "eth_getBlockByNumber", params: ["latest", false], only, differ: ["blockHash", "timestamp", "stateRoot", "chainHeaderFields", "prevRandao"] },
      { method: "anvil_setBalance", params: [STRANGER, "0x0"], only },
    ]);
  });

  it("debug_traceTransaction with callTracer", async () => {
    const trace = (of: string, config: Record<string, unknown> = { tracer: "callTracer" }): Step => ({ method: "debug_traceTransaction", params: (s) => [s[of], config], differ: ["hardhatTracers", "anvilCallTracerGas"] });
    await d.run([
      ...deploy(),
      trace("deploy"),
      { method: "eth_sendTransaction", params: [tx({ to: A1, value: "0x5", gas: "0x7530" })], as: "transfer" },
      trace("transfer"),
      send("store", [5], "store"),
      trace("store"),
      trace("store", { tracer: "callTracer", tracerConfig: { withLog: true } }),
      send("storeThenMaybeFail", [1, true, "nope"], "reverted"),
      trace("reverted"),
      send("fill", [0, 100], "outOfGas", { gas: "0xea60" }),
      trace("outOfGas"),
      { method: "debug_traceTransaction", params: ["0x" + "ab".repeat(32), { tracer: "callTracer" }], differ: ["hardhatTracers", "anvilUnknownTransactionTrace"] },
      // The struct logger, Hardhat's only tracer.
      { ...trace("store", {}), differ: ["hardhatStructLogFormat", "anvilStructLogFormat"] },
      { ...trace("reverted", { disableStack: true }), differ: ["hardhatStructLogFormat", "anvilStructLogFormat"] },
    ]);
  });

  it("the harness fails a script at the first answer that differs, naming the step, the place and both values", async () => {
    let message = "";
    await d.run([{ method: "eth_chainId" }, { method: "web3_clientVersion" }]).catch((error: Error) => (message = error.message));
    expect(message).to.match(/^step 1 web3_clientVersion, nativekit vs hardhat, at result: "HardhatNetwork\/nativekit\/[^"]*" vs "HardhatNetwork\/2\.[^"]*"\n  nativekit: \{"result":/);
  });
});

describe("the differential harness", () => {
  it("finds where two answers differ: the path, and both values", () => {
    expect(differences({ a: 1, b: [1, 2] }, { a: 1, b: [1, 3] })).to.deep.equal([{ path: "b.1", ours: 2, theirs: 3 }]);
    expect(differences({ a: 1 }, {})).to.deep.equal([{ path: "a", ours: 1, theirs: "(absent)" }]);
    expect(differences([1], [1, 2])).to.deep.equal([{ path: "length", ours: 1, theirs: 2 }]);
    expect(differences({ a: [{ b: "x" }] }, { a: [{ b: "x" }] })).to.deep.equal([]);
  });

  it("every difference it normalises is listed, by name, in the README", () => {
    const readme = readFileSync(path.join(__dirname, "..", "..", "README.md"), "utf8");
    const start = readme.indexOf("### Differences from Hardhat's network and anvil");
    expect(start, "the README section").to.be.greaterThan(-1);
    const section = readme.slice(start, readme.indexOf("\n### ", start + 1));
    const unlisted = Object.keys(DIFFERENCES).filter((name) => !section.includes(`\`${name}\``));
    expect(unlisted).to.deep.equal([]);
  });
});
