import { expect } from "chai";
import hre from "hardhat";
import { assetBalance, DEMO_ASSET, GENESIS_ASSET_BALANCE } from "./fixtures";

describe("the nativekit Hardhat network", () => {
  it("is the default network once the plugin is imported", () => {
    expect(hre.network.name).to.equal("nativekit");
  });

  it("runs an eth_call with the gas it asks for, above a node's rpc-gas-cap, as Hardhat's network does", async () => {
    // Init code that returns the gas left: GAS, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN.
    const gasLeft = BigInt(await hre.network.provider.send("eth_call", [{ data: "0x5a60005260206000f3", gas: "0x5f5e100" }, "latest"]));
    expect(gasLeft).to.be.above(50_000_000n);
  });

  it("reports the configured chain ID through hre.ethers", async () => {
    expect((await hre.ethers.provider.getNetwork()).chainId).to.equal(43112n);
  });

  it("has the twenty standard-mnemonic accounts with 10000 coin each", async () => {
    const signers = await hre.ethers.getSigners();
    expect(signers).to.have.length(20);
    expect(signers[0]!.address).to.equal("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    expect(await hre.ethers.provider.getBalance(signers[19]!.address, 0)).to.equal(10_000n * 10n ** 18n);
  });

  it("gives accounts the initial asset balances from the config", async () => {
    const [first, , , , fifth, sixth] = await hre.ethers.getSigners();
    expect(await assetBalance(first!.address, DEMO_ASSET, 0)).to.equal(GENESIS_ASSET_BALANCE);
    expect(await assetBalance(fifth!.address, DEMO_ASSET, 0)).to.equal(GENESIS_ASSET_BALANCE);
    expect(await assetBalance(sixth!.address, DEMO_ASSET, 0)).to.equal(0n);
  });

  it("sends transactions without an eth_estimateGas round first, as Hardhat's network does", async () => {
    // hardhat-ethers calls the network provider's `send`.
    const provider = hre.network.provider as unknown as { send(method: string, params?: unknown[]): Promise<unknown> };
    const original = provider.send;
    const methods: string[] = [];
    provider.send = function (method, params) {
      methods.push(method);
      return original.call(this, method, params);
    };
    try {
      const logger = await hre.ethers.deployContract("ConsoleLogger");
      await logger.waitForDeployment();
    } finally {
      provider.send = original;
    }
    expect(methods).to.include("eth_sendTransaction");
    expect(methods).not.to.include("eth_estimateGas");
    expect(hre.network.config.gas).to.equal(15_000_000);
  });

  it("prints console.log from Solidity as Hardhat's network does", async () => {
    const logger = await hre.ethers.deployContract("ConsoleLogger");
    const lines: string[] = [];
    const original = console.log;
    console.log = (...args: unknown[]) => lines.push(args.join(" "));
    try {
      expect(await logger.greet("nativekit", 21n)).to.equal(42n);
    } finally {
      console.log = original;
    }
    const [caller] = await hre.ethers.getSigners();
    expect(lines).to.deep.equal(["hello nativekit, n = 21", caller!.address]);
  });
  it("delivers eth_subscribe notifications as EIP-1193 message events of hre.network.provider", async () => {
    const provider = hre.network.provider;
    const messages: { type: string; data: { subscription: string; result: { number: string } } }[] = [];
    const record = (m: (typeof messages)[number]) => messages.push(m);
    provider.on("message", record);
    try {
      const subscription = (await provider.request({ method: "eth_subscribe", params: ["newHeads"] })) as string;
      await provider.request({ method: "evm_mine", params: [] });
      const head = await provider.request({ method: "eth_blockNumber", params: [] });
      expect(messages).to.deep.equal([
        { type: "eth_subscription", data: { subscription, result: messages[0]?.data.result } },
      ]);
      expect(messages[0]!.data.result.number).to.equal(head);
      await provider.request({ method: "eth_unsubscribe", params: [subscription] });
    } finally {
      provider.removeListener("message", record);
    }
  });

  it("hre.ethers.provider.on('block') reports blocks in process (hardhat-ethers polls for them)", async () => {
    const blocks: number[] = [];
    const listener = (n: number) => void blocks.push(n);
    await hre.ethers.provider.on("block", listener);
    try {
      for (let i = 0; i < 100 && blocks.length === 0; i++) {
        await hre.network.provider.request({ method: "evm_mine", params: [] });
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(blocks.at(-1)).to.equal(await hre.ethers.provider.getBlockNumber());
    } finally {
      await hre.ethers.provider.off("block", listener);
    }
  });

  it("after evm_revert, hre.network.provider's message events resend the removed logs with removed: true", async () => {
    const provider = hre.network.provider;
    const results: { removed: boolean; transactionHash: string }[] = [];
    const record = (m: { data: { result: (typeof results)[number] } }) => results.push(m.data.result);
    const harness = await hre.ethers.deployContract("RpcHarness");
    await harness.waitForDeployment();
    const snapshot = await provider.request({ method: "evm_snapshot", params: [] });
    provider.on("message", record);
    const subscription = await provider.request({ method: "eth_subscribe", params: ["logs", { address: await harness.getAddress() }] });
    try {
      const receipt = await (await harness.getFunction("store")(5)).wait();
      await provider.request({ method: "evm_revert", params: [snapshot] });
      expect(results.map((r) => [r.transactionHash, r.removed])).to.deep.equal([
        [receipt!.hash, false],
        [receipt!.hash, true],
      ]);
    } finally {
      await provider.request({ method: "eth_unsubscribe", params: [subscription] });
      provider.removeListener("message", record);
    }
  });
});
