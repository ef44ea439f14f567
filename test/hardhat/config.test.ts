import { expect } from "chai";
import { resolveNativekitConfig } from "../../src/hardhat/config";
import { engineOptions } from "../../src/hardhat/network-options";
import { NativeHardhatProvider } from "../../src/hardhat/provider";

const ASSET = "0x" + "c3".repeat(32);

describe("nativekit options in hardhat.config.ts", () => {
  it("resolves to the documented defaults when absent", () => {
    const config = resolveNativekitConfig(undefined);
    expect(config.defaultNetwork).to.equal(true);
    expect(config.loggingEnabled).to.equal(true);
    expect(config.engine.throwOnTransactionFailures).to.equal(true);
    expect(config.engine.assetBalances).to.deep.equal([]);
  });

  it("gives transactions the block gas limit by default (no estimate first), and estimates with gas: \"auto\"", () => {
    expect(resolveNativekitConfig(undefined).gas).to.equal(15_000_000);
    expect(resolveNativekitConfig({ blockGasLimit: 20_000_000 }).gas).to.equal(20_000_000);
    expect(resolveNativekitConfig({ gas: "auto" }).gas).to.equal("auto");
    expect(resolveNativekitConfig({ gas: 500_000 }).gas).to.equal(500_000);
    expect(() => resolveNativekitConfig({ gas: 0 })).to.throw('gas must be "auto" or a positive integer');
  });

  it("runs the Hardhat 3 in-process network on Hardhat's thread unless workerThread is true, and refuses a non-boolean", () => {
    expect(resolveNativekitConfig(undefined).workerThread).to.equal(false);
    expect(resolveNativekitConfig({ workerThread: true }).workerThread).to.equal(true);
    expect(() => resolveNativekitConfig({ workerThread: "no" as unknown as boolean })).to.throw("nativekit config: workerThread must be true or false, got no");
  });

  it("accepts amounts as bigint, number or decimal string", () => {
    const config = resolveNativekitConfig({
      blockGasLimit: 20_000_000,
      minBaseFeePerGas: "1000000000",
      accounts: { count: 3, balance: "5000000000000000000" },
      assetBalances: [{ account: 0, assetId: ASSET, amount: 7n }],
    });
    expect(config.engine.blockGasLimit).to.equal(20_000_000n);
    expect(config.engine.minBaseFeePerGas).to.equal(1_000_000_000n);
    expect(config.engine.assetBalances[0]!.amount).to.equal(7n);
  });

  it("rejects a negative or fractional amount with the option's name", () => {
    expect(() => resolveNativekitConfig({ blockGasLimit: -1 })).to.throw(/blockGasLimit must be a non-negative integer/);
    expect(() => resolveNativekitConfig({ assetBalances: [{ account: 0, assetId: ASSET, amount: 1.5 }] })).to.throw(/assetBalances\[0\]\.amount/);
  });

  it("turns account indices into addresses and refuses an index out of range", () => {
    const config = resolveNativekitConfig({ assetBalances: [{ account: 1, assetId: ASSET, amount: 1n }] });
    expect(engineOptions(config, ["0xaa", "0xbb"], () => {}).assetBalances![0]!.address).to.equal("0xbb");
    expect(() => engineOptions(config, ["0xaa"], () => {})).to.throw(/index 1, but there are only 1 accounts/);
  });

  it("builds the network from the options: chain ID, accounts, balances, deprecated precompiles", async () => {
    const provider = new NativeHardhatProvider(
      resolveNativekitConfig({
        chainId: 1337,
        accounts: { count: 2, balance: 123n },
        assetBalances: [{ account: 1, assetId: ASSET, amount: 9n }],
        deprecatedPrecompiles: true,
        hardfork: "shanghai",
      }),
    );
    expect(await provider.request({ method: "eth_chainId" })).to.equal("0x539");
    const accounts = (await provider.request({ method: "eth_accounts" })) as string[];
    expect(accounts).to.have.length(2);
    expect(await provider.request({ method: "eth_getBalance", params: [accounts[0], "latest"] })).to.equal("0x7b");
    expect(await provider.request({ method: "eth_getAssetBalance", params: [accounts[1], "latest", ASSET] })).to.equal("0x9");
    // Deprecated: the balance precompile reverts (an eth_call error) instead of answering.
    const input = accounts[1]!.slice(2) + ASSET.slice(2);
    let failed = false;
    try {
      await provider.request({ method: "eth_call", params: [{ to: "0x0100000000000000000000000000000000000001", data: "0x" + input }, "latest"] });
    } catch {
      failed = true;
    }
    expect(failed).to.equal(true);
  });
});
