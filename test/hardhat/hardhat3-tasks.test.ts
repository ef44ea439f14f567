import { expect } from "chai";
import hre from "hardhat";
import { assetIdToCb58 } from "../../src/encoding";
import { createNativeProvider, type NativeProvider } from "../../src/engine/provider";
import { nativekitTasks } from "../../src/hardhat/hardhat3/tasks";
import type { Hardhat3Runtime, TaskAction, TaskBuilder } from "../../src/hardhat/hardhat3/types";

const ASSET = "0x" + "d4".repeat(32);

/** What the fake task builder recorded of one task. */
interface BuiltTask {
  id: string;
  description: string;
  options: { name: string; description?: string; type?: string; defaultValue?: unknown }[];
  loadAction: () => Promise<{ default: TaskAction }>;
}

/** Hardhat 3's task(id, description) builder, recording what the plugin builds. */
function fakeTask(id: string, description: string): TaskBuilder {
  const built: Partial<BuiltTask> & { options: BuiltTask["options"] } = { id, description, options: [] };
  const builder: TaskBuilder = {
    addOption(option) {
      built.options.push(option);
      return builder;
    },
    setAction(action) {
      built.loadAction = action;
      return builder;
    },
    build: () => built,
  };
  return builder;
}

class FakePluginError extends Error {
  constructor(
    readonly pluginId: string,
    message: string,
  ) {
    super(message);
  }
}

const argumentTypes = { STRING: "STRING", INT: "INT", STRING_WITHOUT_DEFAULT: "STRING_WITHOUT_DEFAULT" };

function buildTasks(): Map<string, BuiltTask> {
  const tasks = nativekitTasks({ task: fakeTask, argumentTypes, pluginError: FakePluginError }) as BuiltTask[];
  return new Map(tasks.map((t) => [t.id, t]));
}

/** A runtime whose network.create() connects to `provider`, counting connections and closes. */
function fakeRuntime(provider: NativeProvider) {
  const counts = { created: 0, closed: 0 };
  const runtime = {
    config: hre.config,
    network: {
      create: async () => {
        counts.created++;
        return { id: counts.created, networkName: "nativekit", provider, close: async () => void counts.closed++ };
      },
    },
    artifacts: hre.artifacts,
  } as unknown as Hardhat3Runtime;
  return { runtime, counts };
}

async function runAction(task: BuiltTask, args: Record<string, unknown>, runtime: Hardhat3Runtime): Promise<{ result: unknown; output: string[] }> {
  const { default: action } = await task.loadAction();
  const output: string[] = [];
  const original = console.log;
  console.log = (...parts: unknown[]) => output.push(parts.join(" "));
  try {
    return { result: await action(args, runtime), output };
  } finally {
    console.log = original;
  }
}

async function actionError(task: BuiltTask, args: Record<string, unknown>, runtime: Hardhat3Runtime): Promise<FakePluginError> {
  try {
    await runAction(task, args, runtime);
  } catch (error) {
    return error as FakePluginError;
  }
  throw new Error(`${task.id} should have failed`);
}

describe("Hardhat 3 nativekit:* tasks", () => {
  describe("what the task builder receives", () => {
    const tasks = buildTasks();
    const optionNames = (id: string) => tasks.get(id)!.options.map((o) => o.name);

    it("builds the five nativekit tasks, each with a description and an action", () => {
      expect([...tasks.keys()]).to.deep.equal(["nativekit:node", "nativekit:balance", "nativekit:deploy-wrapper", "nativekit:wrap", "nativekit:unwrap"]);
      for (const task of tasks.values()) {
        expect(task.description).to.be.a("string").and.not.equal("");
        expect(task.loadAction).to.be.a("function");
      }
    });

    it("gives nativekit:node --port (9650) and --host (127.0.0.1)", () => {
      expect(tasks.get("nativekit:node")!.options.map(({ name, type, defaultValue }) => ({ name, type, defaultValue }))).to.deep.equal([
        { name: "port", type: "INT", defaultValue: 9650 },
        { name: "host", type: "STRING", defaultValue: "127.0.0.1" },
      ]);
    });

    it("gives nativekit:balance --account, --asset and --block (default latest)", () => {
      expect(optionNames("nativekit:balance")).to.deep.equal(["account", "asset", "block"]);
      expect(tasks.get("nativekit:balance")!.options[2]!.defaultValue).to.equal("latest");
      expect(tasks.get("nativekit:balance")!.options[0]!.type).to.equal("STRING_WITHOUT_DEFAULT");
    });

    it("gives nativekit:deploy-wrapper --asset, --name, --symbol, --decimals (default 18) and --from", () => {
      expect(optionNames("nativekit:deploy-wrapper")).to.deep.equal(["asset", "name", "symbol", "decimals", "from"]);
      expect(tasks.get("nativekit:deploy-wrapper")!.options[3]).to.include({ type: "INT", defaultValue: 18 });
    });

    it("gives nativekit:wrap and nativekit:unwrap --wrapper, --amount and --from", () => {
      expect(optionNames("nativekit:wrap")).to.deep.equal(["wrapper", "amount", "from"]);
      expect(optionNames("nativekit:unwrap")).to.deep.equal(["wrapper", "amount", "from"]);
    });
  });

  describe("actions on a connection of hre.network.create()", () => {
    const tasks = buildTasks();
    let provider: NativeProvider;
    let account: string;

    before(async () => {
      provider = await createNativeProvider({ log: () => {} });
      [account] = (await provider.request({ method: "eth_accounts", params: [] })) as string[];
      // A state edit applies to the head block: past genesis, so block 0 keeps the unfunded state.
      await provider.request({ method: "evm_mine", params: [] });
      await provider.request({ method: "nativekit_setAssetBalance", params: [account, ASSET, "0x3039"] });
    });

    it("nativekit:balance prints the account's balance on the connection's chain and closes the connection", async () => {
      const { runtime, counts } = fakeRuntime(provider);
      const { result, output } = await runAction(tasks.get("nativekit:balance")!, { account, asset: assetIdToCb58(ASSET), block: "latest" }, runtime);
      expect(result).to.equal(12345n);
      expect(output).to.have.length(1);
      expect(output[0]).to.contain(`holds 12345 of asset ${assetIdToCb58(ASSET)}`);
      expect(output[0]!.toLowerCase()).to.contain(account.toLowerCase());
      expect(counts).to.deep.equal({ created: 1, closed: 1 });
    });

    it("nativekit:balance reads the --block given", async () => {
      const { runtime } = fakeRuntime(provider);
      const { result } = await runAction(tasks.get("nativekit:balance")!, { account, asset: ASSET, block: "0x0" }, runtime);
      expect(result).to.equal(0n); // funded at block 1
    });

    it("nativekit:balance without --account fails with the plugin error \"--account is required\" before connecting", async () => {
      const { runtime, counts } = fakeRuntime(provider);
      const error = await actionError(tasks.get("nativekit:balance")!, { account: "", asset: ASSET, block: "latest" }, runtime);
      expect(error).to.be.instanceOf(FakePluginError);
      expect(error.pluginId).to.equal("nativekit");
      expect(error.message).to.equal("--account is required");
      expect(counts.created).to.equal(0);
    });

    it("nativekit:balance with a bad --asset fails with a plugin error and still closes the connection", async () => {
      const { runtime, counts } = fakeRuntime(provider);
      const error = await actionError(tasks.get("nativekit:balance")!, { account, asset: "not-an-asset", block: "latest" }, runtime);
      expect(error).to.be.instanceOf(FakePluginError);
      expect(error.pluginId).to.equal("nativekit");
      expect(error.message).to.match(/^--asset: /);
      expect(counts).to.deep.equal({ created: 1, closed: 1 });
    });

    it("an error that is not an argument error is passed on unchanged", async () => {
      const failing = { request: async () => Promise.reject(new Error("connection lost")) } as unknown as NativeProvider;
      const { runtime, counts } = fakeRuntime(failing);
      const error = await actionError(tasks.get("nativekit:balance")!, { account, asset: ASSET, block: "latest" }, runtime);
      expect(error).not.to.be.instanceOf(FakePluginError);
      expect(error.message).to.equal("connection lost");
      expect(counts.closed).to.equal(1);
    });

    it("nativekit:deploy-wrapper then nativekit:wrap deploy and wrap on the connection's chain", async () => {
      const { runtime, counts } = fakeRuntime(provider);
      const { result: wrapper } = await runAction(tasks.get("nativekit:deploy-wrapper")!, { asset: ASSET, name: "Wrapped D", symbol: "WD", decimals: 6, from: "" }, runtime);
      expect(wrapper).to.match(/^0x[0-9a-fA-F]{40}$/);
      expect(await provider.request({ method: "eth_getCode", params: [wrapper, "latest"] })).not.to.equal("0x");
      const { output } = await runAction(tasks.get("nativekit:wrap")!, { wrapper, amount: "45", from: "0" }, runtime);
      expect(output[1]).to.contain("wrapped balance 45");
      expect(BigInt((await provider.request({ method: "eth_getAssetBalance", params: [account, "latest", ASSET] })) as string)).to.equal(12345n - 45n);
      expect(counts).to.deep.equal({ created: 2, closed: 2 });
    });

    it("nativekit:wrap without --amount fails with the plugin error \"--amount is required\"", async () => {
      const { runtime } = fakeRuntime(provider);
      const error = await actionError(tasks.get("nativekit:wrap")!, { wrapper: account }, runtime);
      expect(error).to.be.instanceOf(FakePluginError);
      expect(error.message).to.equal("--amount is required");
    });
  });
});
