import { expect } from "chai";
import { Interface, isCallException, type CallExceptionError } from "ethers";

import { RpcHarness__factory, type RpcHarness } from "../../typechain-types";
import { rejection, startChain, type TestChain } from "../helpers/chain";

type Json = Record<string, unknown>;
const hexq = (n: bigint | number) => "0x" + n.toString(16);

/** The error an ethers call rejects with. */
async function ethersError(promise: Promise<unknown>): Promise<CallExceptionError> {
  try {
    await promise;
  } catch (error) {
    if (isCallException(error)) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

describe("standard JSON-RPC: eth_call and eth_estimateGas", () => {
  let chain: TestChain;
  let harness: RpcHarness;
  let target: string;
  let from: string;

  before(async () => {
    chain = await startChain();
    harness = await new RpcHarness__factory(chain.signers[0]!).deploy();
    await harness.waitForDeployment();
    target = await harness.getAddress();
    from = chain.signers[0]!.address;
  });

  describe("eth_estimateGas", () => {
    for (const [label, data] of [
      ["a first storage write", () => harness.interface.encodeFunctionData("put", [1000, 1])],
      ["a loop writing 30 fresh slots", () => harness.interface.encodeFunctionData("fill", [5000, 30])],
      ["a call emitting 5 events", () => harness.interface.encodeFunctionData("ping", [[1, 2, 3, 4, 5]])],
    ] as const) {
      it(`for ${label}: the estimate lets the transaction succeed and is within 2% of the gas it uses`, async () => {
        const request = { from, to: target, data: data() };
        const estimate = BigInt((await chain.rpc("eth_estimateGas", [request])) as string);
        const hash = (await chain.rpc("eth_sendTransaction", [{ ...request, gas: hexq(estimate) }])) as string;
        const receipt = (await chain.rpc("eth_getTransactionReceipt", [hash])) as Json;
        expect(receipt.status).to.equal("0x1");
        const used = BigInt(receipt.gasUsed as string);
        expect(estimate >= used).to.equal(true);
        expect(Number(estimate - used) / Number(used)).to.be.lessThan(0.02);
      });
    }

    it("for a deployment, the estimate lets it succeed", async () => {
      const factory = new RpcHarness__factory(chain.signers[0]!);
      const estimate = BigInt((await chain.rpc("eth_estimateGas", [{ from, data: factory.bytecode }])) as string);
      const hash = (await chain.rpc("eth_sendTransaction", [{ from, data: factory.bytecode, gas: hexq(estimate) }])) as string;
      const receipt = (await chain.rpc("eth_getTransactionReceipt", [hash])) as Json;
      expect(receipt.status).to.equal("0x1");
      expect(Number(estimate - BigInt(receipt.gasUsed as string)) / Number(estimate)).to.be.lessThan(0.02);
    });

    it("the estimate is not padded needlessly: 90% of it runs out of gas", async () => {
      const request = { from, to: target, data: harness.interface.encodeFunctionData("fill", [9000, 10]) };
      const estimate = BigInt((await chain.rpc("eth_estimateGas", [request])) as string);
      const hash = (await chain.rpc("eth_sendTransaction", [{ ...request, gas: hexq((estimate * 9n) / 10n) }])) as string;
      expect(((await chain.rpc("eth_getTransactionReceipt", [hash])) as Json).status).to.equal("0x0");
    });

    it("for a write that clears storage (gas refund), the estimate still lets the transaction succeed", async () => {
      await (await harness.put(3000, 1)).wait();
      const request = { from, to: target, data: harness.interface.encodeFunctionData("put", [3000, 0]) };
      const estimate = BigInt((await chain.rpc("eth_estimateGas", [request])) as string);
      const hash = (await chain.rpc("eth_sendTransaction", [{ ...request, gas: hexq(estimate) }])) as string;
      expect(((await chain.rpc("eth_getTransactionReceipt", [hash])) as Json).status).to.equal("0x1");
    });

    it("ethers contract.method.estimateGas returns a bigint the transaction succeeds with", async () => {
      const estimate = await harness.put.estimateGas(2000, 5);
      const receipt = await (await harness.put(2000, 5, { gasLimit: estimate })).wait();
      expect(receipt!.status).to.equal(1);
    });

    it("a failing estimate returns the revert error: code 3, the reason in the message and the revert data", async () => {
      const data = harness.interface.encodeFunctionData("requireAbove10", [3]);
      const error = await rejection(chain.rpc("eth_estimateGas", [{ from, to: target, data }]));
      expect(error.code).to.equal(3);
      expect(error.message).to.equal("execution reverted: value too small");
      expect(harness.interface.parseError(error.data as string)?.args[0]).to.equal("value too small");
    });

    it("a failing estimate with a custom error carries the error's data", async () => {
      const data = harness.interface.encodeFunctionData("checkLimit", [5, 1]);
      const error = await rejection(chain.rpc("eth_estimateGas", [{ from, to: target, data }]));
      expect(error.code).to.equal(3);
      const parsed = harness.interface.parseError(error.data as string);
      expect(parsed?.name).to.equal("LimitExceeded");
    });

    it("ethers estimateGas of a reverting call throws CALL_EXCEPTION with the reason", async () => {
      const error = await ethersError(harness.requireAbove10.estimateGas(1));
      expect(error.reason).to.equal("value too small");
    });

    it("an estimate for a value transfer above the sender's balance fails with insufficient funds", async () => {
      const poor = "0x" + "5a".repeat(20);
      await chain.rpc("hardhat_impersonateAccount", [poor]);
      const error = await rejection(chain.rpc("eth_estimateGas", [{ from: poor, to: from, value: "0x1" }]));
      expect(error.message).to.match(/insufficient funds/);
    });
  });

  describe("eth_call results and revert data", () => {
    it("returns the ABI-encoded result", async () => {
      const data = harness.interface.encodeFunctionData("checkLimit", [5, 10]);
      const result = await chain.rpc("eth_call", [{ to: target, data }, "latest"]);
      expect(harness.interface.decodeFunctionResult("checkLimit", result as string)[0]).to.equal(5n);
    });

    it("a call without a block parameter runs at latest", async () => {
      const data = harness.interface.encodeFunctionData("divide", [10, 2]);
      expect(await chain.rpc("eth_call", [{ to: target, data }])).to.equal("0x" + (5).toString(16).padStart(64, "0"));
    });

    it("a call to an address without code returns 0x", async () => {
      expect(await chain.rpc("eth_call", [{ to: "0x" + "42".repeat(20), data: "0x12345678" }, "latest"])).to.equal("0x");
    });

    it("a require reason reverts with code 3, message 'execution reverted: <reason>' and Error(string) data", async () => {
      const data = harness.interface.encodeFunctionData("requireAbove10", [1]);
      const error = await rejection(chain.rpc("eth_call", [{ to: target, data }, "latest"]));
      expect(error.code).to.equal(3);
      expect(error.message).to.equal("execution reverted: value too small");
      expect(error.data).to.match(/^0x08c379a0/);
    });

    it("ethers exposes a require reason as error.reason", async () => {
      const error = await ethersError(harness.requireAbove10(1));
      expect(error.reason).to.equal("value too small");
      expect(error.revert?.name).to.equal("Error");
      expect(error.revert?.args[0]).to.equal("value too small");
    });

    it("a custom error's data is its selector and arguments, decodable with the contract interface", async () => {
      const data = harness.interface.encodeFunctionData("checkLimit", [50, 10]);
      const error = await rejection(chain.rpc("eth_call", [{ to: target, data }, "latest"]));
      expect(error.code).to.equal(3);
      expect(error.data).to.equal(harness.interface.encodeErrorResult("LimitExceeded", [50, 10]));
      const parsed = harness.interface.parseError(error.data as string);
      expect(parsed!.name).to.equal("LimitExceeded");
      expect(parsed!.args.map((x: bigint) => x)).to.deep.equal([50n, 10n]);
    });

    it("ethers decodes a custom error from a typed contract call (revertedWithCustomError style)", async () => {
      const error = await ethersError(harness.checkLimit(50, 10));
      expect(error.data).to.equal(harness.interface.encodeErrorResult("LimitExceeded", [50, 10]));
      expect(error.revert?.name).to.equal("LimitExceeded");
      expect(error.revert?.args).to.deep.equal([50n, 10n]);
    });

    it("a custom error without arguments is just its 4-byte selector", async () => {
      const error = await ethersError(harness.failPlain());
      expect(error.data).to.equal(harness.interface.getError("Unauthorized")!.selector);
      expect(error.revert?.name).to.equal("Unauthorized");
    });

    it("a division by zero panics with code 0x12", async () => {
      const error = await ethersError(harness.divide(1, 0));
      expect(error.revert?.name).to.equal("Panic");
      expect(error.revert?.args[0]).to.equal(0x12n);
      const raw = await rejection(chain.rpc("eth_call", [{ to: target, data: harness.interface.encodeFunctionData("divide", [1, 0]) }]));
      expect(raw.code).to.equal(3);
      expect(raw.data).to.equal(new Interface(["error Panic(uint256)"]).encodeErrorResult("Panic", [0x12]));
    });

    it("a failed assert panics with code 0x01", async () => {
      const error = await ethersError(harness.assertTrue(false));
      expect(error.revert?.name).to.equal("Panic");
      expect(error.revert?.args[0]).to.equal(1n);
    });

    it("a revert without data is 'execution reverted' (code -32000, as geth) and ethers reports a CALL_EXCEPTION", async () => {
      const raw = await rejection(chain.rpc("eth_call", [{ to: target, data: harness.interface.encodeFunctionData("failEmpty") }]));
      expect(raw.message).to.equal("execution reverted");
      expect(raw.code).to.equal(-32000);
      const error = await ethersError(harness.failEmpty());
      expect(error.code).to.equal("CALL_EXCEPTION");
    });

    it("an out-of-gas call fails with an error that says so", async () => {
      const data = harness.interface.encodeFunctionData("fill", [1, 50]);
      const error = await rejection(chain.rpc("eth_call", [{ to: target, data, gas: hexq(50_000) }]));
      expect(error.message).to.match(/out of gas/);
    });

    it("eth_call with a from that has no coin, no gas price and value 0 still runs (fees are not charged)", async () => {
      const data = harness.interface.encodeFunctionData("requireAbove10", [11]);
      const result = await chain.rpc("eth_call", [{ from: "0x" + "77".repeat(20), to: target, data }]);
      expect(BigInt(result as string)).to.equal(11n);
    });

    it("eth_call of a state-changing function leaves the state unchanged", async () => {
      const before = await chain.rpc("eth_getStorageAt", [target, "0x0", "latest"]);
      await chain.rpc("eth_call", [{ from, to: target, data: harness.interface.encodeFunctionData("store", [777]) }]);
      expect(await chain.rpc("eth_getStorageAt", [target, "0x0", "latest"])).to.equal(before);
    });
  });
});
