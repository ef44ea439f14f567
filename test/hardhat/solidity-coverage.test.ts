import fs from "node:fs";
import path from "node:path";

import { expect } from "chai";
import { id } from "ethers";
import hre from "hardhat";
import { HardhatContext } from "hardhat/internal/context";
import { createProvider } from "hardhat/internal/core/providers/construction";
import type { ActionType, EthereumProvider, HardhatRuntimeEnvironment, RunSuperFunction } from "hardhat/types";

import { runCoverageOnNativekit } from "../../src/hardhat/coverage";
import { NATIVEKIT_NETWORK, resolveNativekitConfig } from "../../src/hardhat/config";
import { NativeHardhatProvider } from "../../src/hardhat/provider";

const ROOT = path.join(__dirname, "..", "..");

/** solidity-coverage's API (`solidity-coverage/api`), as far as these tests use it. */
interface CoverageApi {
  gasLimit: number;
  gasLimitNumber: number;
  gasPrice: number;
  instrument(targets: { source: string; canonicalPath: string }[]): { source: string; canonicalPath: string }[];
  attachToHardhatVM(provider: EthereumProvider): Promise<void>;
  instrumenter: { instrumentationData: object };
  coverage: { generate(data: object): void; data: Record<string, { l: Record<string, number>; f: Record<string, number> }> };
}
const CoverageApi = require("solidity-coverage/api") as new (config: object, hardfork?: string) => CoverageApi;
/** solidity-coverage's own test of whether a network is ready for coverage (else it starts Hardhat's). */
const { requiresEVMConfiguration } = require("solidity-coverage/plugins/resources/nomiclabs.utils") as {
  requiresEVMConfiguration(networkConfig: object, api: CoverageApi): boolean;
};

// ---------------------------------------------------------------------------------------------
// The coverage task

interface FakeTask {
  action: ActionType<unknown>;
  setAction(action: ActionType<unknown>): FakeTask;
}

/** An environment on the in-process nativekit network with a `coverage` task whose action is `action`. */
function environmentWithCoverageTask(action: ActionType<unknown>): { env: HardhatRuntimeEnvironment; task: FakeTask } {
  const task: FakeTask = {
    action,
    setAction(next) {
      this.action = next;
      return this;
    },
  };
  const nativekit = resolveNativekitConfig({});
  const env = {
    tasks: { coverage: task },
    network: { name: NATIVEKIT_NETWORK, config: { url: "http://nativekit.in-process.invalid", gas: nativekit.gas, gasPrice: "auto" } },
    // solidity-coverage resolved from this repository, and the Hardhat network's hardfork it reads
    config: { paths: { configFile: path.join(ROOT, "hardhat.config.ts") }, networks: { hardhat: hre.config.networks.hardhat }, nativekit },
  } as unknown as HardhatRuntimeEnvironment;
  return { env, task };
}

const noSuper = (() => Promise.resolve()) as unknown as RunSuperFunction<unknown>;

describe("npx hardhat coverage on the nativekit network (solidity-coverage)", function () {
  this.timeout(120_000);

  it("the coverage task starts on a nativekit network that solidity-coverage keeps: no Hardhat network is started in its place", async () => {
    let keptByCoverage: boolean | undefined;
    const { env, task } = environmentWithCoverageTask(async (_args, started) => {
      const api = new CoverageApi({}, started.config.networks.hardhat.hardfork);
      keptByCoverage = !requiresEVMConfiguration(started.network.config, api);
    });
    expect(requiresEVMConfiguration(env.network.config, new CoverageApi({}, hre.config.networks.hardhat.hardfork))).to.equal(true);
    runCoverageOnNativekit(env);
    await task.action({}, env, noSuper);
    expect(keptByCoverage).to.equal(true);
  });

  it("the engine the coverage task starts takes instrumented code's gas: unlimited contract size, solidity-coverage's block gas limit, no base fee", async () => {
    const { env, task } = environmentWithCoverageTask(async () => {});
    runCoverageOnNativekit(env);
    await task.action({}, env, noSuper);
    const api = new CoverageApi({}, hre.config.networks.hardhat.hardfork);
    expect(env.config.nativekit.engine).to.include({ allowUnlimitedContractSize: true, blockGasLimit: BigInt(api.gasLimitNumber), minBaseFeePerGas: 0n });
    // A transaction with solidity-coverage's gas limit fits in the block the engine then makes.
    const provider = new NativeHardhatProvider(env.config.nativekit);
    const [from] = (await provider.request({ method: "eth_accounts" })) as string[];
    const gas = `0x${api.gasLimit.toString(16)}`;
    const hash = await provider.request({ method: "eth_sendTransaction", params: [{ from, to: from, gas, gasPrice: "0x1" }] });
    const receipt = (await provider.request({ method: "eth_getTransactionReceipt", params: [hash] })) as { status: string };
    expect(receipt.status).to.equal("0x1");
  });

  it("the task is made to set the network up once, however many environments are made", async () => {
    let ran = 0;
    const { env, task } = environmentWithCoverageTask(async () => {
      ran++;
    });
    runCoverageOnNativekit(env);
    runCoverageOnNativekit(env);
    await task.action({}, env, noSuper);
    expect(ran).to.equal(1);
  });

  // ---------------------------------------------------------------------------------------------
  // Hits, collected by solidity-coverage itself from the network Hardhat builds

  const TALLY = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {NativeAssets} from "nativekit/contracts/NativeAssets.sol";

contract Tally {
    uint256 public seen;

    function record(address account, uint256 assetID) external {
        uint256 balance = NativeAssets.assetBalance(account, assetID);
        if (balance == 0) {
            seen = 1;
        } else {
            seen = balance;
        }
    }

    function pay(address to, uint256 assetID, uint256 amount) external {
        NativeAssets.assetCall(to, assetID, amount, "");
    }

    function unused() external {
        seen = 2;
    }
}
`;
  const TALLY_PATH = path.join(ROOT, "virtual", "Tally.sol");
  const ASSET = "0x" + "3c".repeat(32);

  /** Tally instrumented by solidity-coverage and compiled with the solc nativekit brings: its creation code. */
  function instrumentedTally(api: CoverageApi): string {
    const [instrumented] = api.instrument([{ source: TALLY, canonicalPath: TALLY_PATH }]);
    const solc = require("solc") as { compile(input: string, callbacks: { import(file: string): { contents: string } | { error: string } }): string };
    const input = {
      language: "Solidity",
      sources: { "Tally.sol": { content: instrumented!.source } },
      settings: { evmVersion: "cancun", outputSelection: { "*": { "*": ["evm.bytecode.object"] } } },
    };
    const imports = (file: string) =>
      file === "nativekit/contracts/NativeAssets.sol" ? { contents: fs.readFileSync(path.join(ROOT, "contracts", "NativeAssets.sol"), "utf8") } : { error: `not found: ${file}` };
    const output = JSON.parse(solc.compile(JSON.stringify(input), { import: imports })) as {
      errors?: { severity: string; formattedMessage: string }[];
      contracts: Record<string, Record<string, { evm: { bytecode: { object: string } } }>>;
    };
    const errors = (output.errors ?? []).filter((e) => e.severity === "error");
    expect(errors.map((e) => e.formattedMessage)).to.deep.equal([]);
    return "0x" + output.contracts["Tally.sol"]!["Tally"]!.evm.bytecode.object;
  }

  /** The line of TALLY that holds `text`. */
  const lineOf = (text: string) => String(TALLY.split("\n").findIndex((line) => line.includes(text)) + 1);

  it("solidity-coverage, attached to the nativekit network's provider as to Hardhat's, counts the lines a precompile-calling contract runs, across hardhat_reset", async () => {
    const api = new CoverageApi({ silent: true }, hre.config.networks.hardhat.hardfork);
    const creationCode = instrumentedTally(api);
    // The network's provider as Hardhat builds it (every plugin's extender, Hardhat's wrappers),
    // which solidity-coverage goes down to its bottom.
    const provider = await createProvider(hre.config, NATIVEKIT_NETWORK, hre.artifacts, HardhatContext.getHardhatContext().providerExtenders);
    await api.attachToHardhatVM(provider);

    const send = async (params: object) => {
      const hash = await provider.request({ method: "eth_sendTransaction", params: [params] });
      return (await provider.request({ method: "eth_getTransactionReceipt", params: [hash] })) as { status: string; contractAddress: string | null };
    };
    const [alice, bob] = (await provider.request({ method: "eth_accounts" })) as string[];
    const word = (value: string) => value.replace(/^0x/, "").padStart(64, "0");
    const selector = (signature: string) => id(signature).slice(0, 10);
    const run = async () => {
      const { contractAddress: tally } = await send({ from: alice, data: creationCode });
      await provider.request({ method: "nativekit_setAssetBalance", params: [tally, ASSET, "0x64"] });
      expect((await send({ from: alice, to: tally, data: selector("record(address,uint256)") + word(tally!) + word(ASSET) })).status).to.equal("0x1");
      expect((await send({ from: alice, to: tally, data: selector("pay(address,uint256,uint256)") + word(bob!) + word(ASSET) + word("0x5") })).status).to.equal("0x1");
    };
    await run();
    await provider.request({ method: "hardhat_reset", params: [] });
    await run();

    api.coverage.generate(api.instrumenter.instrumentationData);
    const { l: lines } = api.coverage.data[TALLY_PATH]!;
    expect({
      balance: lines[lineOf("uint256 balance = NativeAssets.assetBalance")], // nativeAssetBalance
      seenBalance: lines[lineOf("seen = balance;")],
      seenOne: lines[lineOf("seen = 1;")],
      pay: lines[lineOf("NativeAssets.assetCall(to, assetID, amount")], // nativeAssetCall
      unused: lines[lineOf("seen = 2;")],
    }).to.deep.equal({ balance: 2, seenBalance: 2, seenOne: 0, pay: 2, unused: 0 });
  });

  it("a chain nobody listens to builds no step event (ethereumjs' step hook never runs), and one with a listener hears each instruction", async () => {
    // ethereumjs' interpreter, reached by its file (see src/engine/jump-analysis-memo.ts): its
    // _runStepHook builds a step's event, and runs only while the EVM's emitter has a listener.
    const interpreter = require(path.join(path.dirname(require.resolve("@ethereumjs/evm")), "interpreter.js")) as {
      Interpreter: { prototype: { _runStepHook(...args: unknown[]): Promise<void> } };
    };
    const prototype = interpreter.Interpreter.prototype;
    const runStepHook = prototype._runStepHook;
    let built = 0;
    prototype._runStepHook = function (this: unknown, ...args: unknown[]) {
      built++;
      return runStepHook.apply(this, args);
    };
    try {
      const provider = new NativeHardhatProvider(resolveNativekitConfig({ loggingEnabled: false }));
      const [from] = (await provider.request({ method: "eth_accounts" })) as string[];
      // A contract whose code returns 42, deployed (its constructor runs a few instructions), then called.
      const hash = await provider.request({ method: "eth_sendTransaction", params: [{ from, data: "0x600a600c600039600a6000f3602a60005260206000f3" }] });
      const { contractAddress } = (await provider.request({ method: "eth_getTransactionReceipt", params: [hash] })) as { contractAddress: string };
      expect(await provider.request({ method: "eth_call", params: [{ to: contractAddress }, "latest"] })).to.equal("0x" + "2a".padStart(64, "0"));
      expect(built).to.equal(0);

      const steps: string[] = [];
      const listener = (step: { opcode: { name: string } }) => steps.push(step.opcode.name);
      provider._node._vm.evm.events.on("step", listener);
      await provider.request({ method: "eth_call", params: [{ to: contractAddress }, "latest"] });
      expect(steps).to.deep.equal(["PUSH1", "PUSH1", "MSTORE", "PUSH1", "PUSH1", "RETURN"]);
      expect(built).to.equal(6);

      // Removed, it hears nothing more, and nothing is built again.
      provider._node._vm.evm.events.off("step", listener);
      await provider.request({ method: "eth_call", params: [{ to: contractAddress }, "latest"] });
      expect([steps.length, built]).to.deep.equal([6, 6]);
    } finally {
      prototype._runStepHook = runStepHook;
    }
  });
});
