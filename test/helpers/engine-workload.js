// A fixed workload for an engine provider, every answer and refusal recorded in order: the same
// chain (genesis time, block times and keys fixed) gives the same record, byte for byte. Plain
// CommonJS so that a test can run it in its own process against the engine's sources and in a
// child process against a bundle of them. `harness` is RpcHarness's artifact (contracts/test).
"use strict";
const { Interface } = require("ethers");

const GENESIS_TIMESTAMP = 1_700_000_000;
const ASSET = `0x${"ab".repeat(32)}`;
// nativeAssetBalance's address (NATIVE_ASSET_BALANCE_ADDRESS in src/encoding/precompile.ts).
const NATIVE_ASSET_BALANCE = "0x0100000000000000000000000000000000000001";

async function engineWorkload(provider, harness) {
  const record = [];
  const rpc = async (method, params = []) => {
    try {
      const answer = await provider.request({ method, params });
      record.push({ method, answer });
      return answer;
    } catch (error) {
      record.push({ method, refused: { code: error.code, message: error.message, data: error.data } });
      return undefined;
    }
  };
  let time = GENESIS_TIMESTAMP;
  const send = async (request) => {
    await rpc("evm_setNextBlockTimestamp", [`0x${(++time).toString(16)}`]);
    const hash = await rpc("eth_sendTransaction", [request]);
    return hash === undefined ? undefined : rpc("eth_getTransactionReceipt", [hash]);
  };
  const abi = new Interface(harness.abi);
  const [from, other] = await rpc("eth_accounts");
  const deployed = await send({ from, data: harness.bytecode, gas: "0x500000" });
  const to = deployed.contractAddress;
  const call = (name, args, extra = {}) => ({ from, to, data: abi.encodeFunctionData(name, args), ...extra });

  const stored = await send(call("store", [7]));
  await send(call("put", [1, 2]));
  await send(call("ping", [[1, 2, 3]]));
  await send(call("fill", [10, 5]));
  await send(call("storeThenMaybeFail", [5, true, "refused on purpose"], { gas: "0x100000" }));
  await send(call("deposit", [], { value: "0x1234" }));
  await send({ from, to: other, value: "0xde0b6b3a7640000" });
  const snapshot = await rpc("evm_snapshot");
  await send(call("put", [3000, 1]));
  await rpc("evm_revert", [snapshot]);
  await send(call("put", [1, 0]));
  for (const [name, args] of [["requireAbove10", [3]], ["requireAbove10", [30]], ["checkLimit", [50, 10]], ["divide", [1, 0]], ["assertTrue", [false]], ["failPlain", []], ["failEmpty", []]]) {
    await rpc("eth_call", [call(name, args), "latest"]);
  }
  await rpc("eth_call", [call("requireAbove10", [11]), "0x2"]);
  await rpc("eth_estimateGas", [call("fill", [100, 3])]);
  await rpc("eth_estimateGas", [call("checkLimit", [50, 10])]);
  await rpc("nativekit_setAssetBalance", [from, ASSET, "0x2a"]);
  await rpc("eth_call", [{ to: NATIVE_ASSET_BALANCE, data: `0x${from.slice(2).toLowerCase()}${ASSET.slice(2)}` }, "latest"]);
  await rpc("hardhat_mine", ["0x3"]);
  const head = await rpc("eth_blockNumber");
  await rpc("eth_getBlockByNumber", [head, true]);
  await rpc("eth_getBlockByNumber", ["0x3", true]);
  await rpc("eth_getLogs", [{ fromBlock: "0x0", toBlock: "latest" }]);
  for (const account of [from, other, to]) {
    await rpc("eth_getBalance", [account, "latest"]);
    await rpc("eth_getTransactionCount", [account, "latest"]);
  }
  await rpc("eth_getCode", [to, "latest"]);
  await rpc("eth_getStorageAt", [to, "0x0", "latest"]);
  await rpc("eth_getProof", [to, ["0x0"], "latest"]);
  await rpc("debug_traceTransaction", [stored.transactionHash]);
  return record;
}

module.exports = { engineWorkload, GENESIS_TIMESTAMP };
