import { expect } from "chai";

import { resolveNativekitConfig } from "../../src/hardhat/config";
import { InProcessProviderError, REVERT_SNAPSHOT_EVENT, withInProcessConnections } from "../../src/hardhat/hardhat3/in-process-connections";
import { createNetworkHooks } from "../../src/hardhat/hardhat3/network-hooks";
import type {
  CreatedRuntime,
  Hardhat3NetworkHookChains,
  Hardhat3NetworkManager,
  HookContext,
  NetworkConnection,
  NetworkConnectionParams,
  NetworkHooks,
} from "../../src/hardhat/hardhat3/types";
import { refusal, refusalOf } from "../helpers/refusal";

const IN_PROCESS = { type: "http", url: "http://nativekit.in-process.invalid", accounts: "remote" };

function runtimeConfig(): CreatedRuntime["config"] {
  return {
    paths: { root: "/project", cache: "/project/cache" },
    nativekit: { ...resolveNativekitConfig({ loggingEnabled: false }), inProcessNetworks: ["nativekit"] },
    networks: { nativekit: IN_PROCESS, default: { type: "edr-simulated" }, typed: { ...IN_PROCESS, chainType: "l1" } },
    defaultChainType: "generic",
  };
}

type HookName = keyof NetworkHooks;
type Handler = (...args: unknown[]) => Promise<unknown>;

/** Hardhat's hook manager, reduced to running the network handler chains of `plugins`, outermost first. */
function handlerChains(context: HookContext, plugins: Array<Partial<NetworkHooks>>): Hardhat3NetworkHookChains {
  const runHandlerChain = (_category: string, hook: HookName, params: unknown[], defaultImplementation: Handler) => {
    const handlers = plugins.map((plugin) => plugin[hook] as Handler | undefined).filter((handler): handler is Handler => handler !== undefined);
    const at =
      (i: number): Handler =>
      (...args) =>
        i === handlers.length ? defaultImplementation(...args) : handlers[i]!(...args, at(i + 1));
    return at(0)(context, ...params);
  };
  return { runHandlerChain } as unknown as Hardhat3NetworkHookChains;
}

/** Hardhat's own `hre.network`, recording what it was asked; its `wasConnectCalled` fixed as Hardhat defines it. */
function builtinNetwork(): { network: Hardhat3NetworkManager & Record<string, unknown>; calls: Array<[string, unknown]> } {
  const calls: Array<[string, unknown]> = [];
  const connectionOf = (method: string) => async (params?: unknown) => {
    calls.push([method, params]);
    return { id: 0, networkName: `builtin ${method}`, provider: { request: async () => null }, close: async () => {} } as NetworkConnection;
  };
  const network = { create: connectionOf("create"), getOrCreate: connectionOf("getOrCreate"), connect: connectionOf("connect"), createServer: connectionOf("createServer") };
  Object.defineProperty(network, "wasConnectCalled", { value: () => calls.some(([method]) => method === "connect"), enumerable: false });
  return { network, calls };
}

/** A plugin whose newConnection handler decorates every connection, as hardhat-ethers does. */
function decoratingPlugin(seen: NetworkConnection[]): Partial<NetworkHooks> {
  return {
    async newConnection(context, next) {
      const connection = await next(context);
      seen.push(connection);
      (connection as NetworkConnection & { decorated?: boolean }).decorated = true;
      return connection;
    },
  };
}

function setUp(globalNetwork?: string) {
  const config = runtimeConfig();
  const context: HookContext = { config };
  const decorated: NetworkConnection[] = [];
  const chains = handlerChains(context, [createNetworkHooks({ importChai: async () => undefined }), decoratingPlugin(decorated)]);
  const builtin = builtinNetwork();
  const network = withInProcessConnections({ config, globalOptions: globalNetwork === undefined ? {} : { network: globalNetwork }, network: builtin.network }, chains);
  return { network, builtin, decorated };
}

describe("Hardhat 3 in-process connections (network.create of a nativekit network)", () => {
  const opened: NetworkConnection[] = [];
  const track = (connection: NetworkConnection) => (opened.push(connection), connection);
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((connection) => connection.close()));
  });

  it("answers create() of the --network in-process network from its own chain, without Hardhat's network manager", async () => {
    const { network, builtin } = setUp("nativekit");
    const connection = track(await network.create());
    expect(connection.networkName).to.equal("nativekit");
    expect(await connection.provider.request({ method: "eth_chainId" })).to.equal("0xa868");
    expect(builtin.calls).to.deep.equal([]);
  });

  it("answers create() naming the network, as a string or in the params", async () => {
    const { network, builtin } = setUp();
    for (const target of ["nativekit", { network: "nativekit" }] as Array<string | NetworkConnectionParams>) {
      const connection = track(await network.create(target));
      expect(await connection.provider.request({ method: "eth_blockNumber", params: [] })).to.equal("0x0");
    }
    expect(builtin.calls).to.deep.equal([]);
  });

  it("runs every plugin's newConnection handler on the connection, and the hooks mark it simulated", async () => {
    const { network, decorated } = setUp();
    const connection = track(await network.create("nativekit"));
    expect(decorated).to.deep.equal([connection]);
    expect((connection as NetworkConnection & { decorated?: boolean }).decorated).to.equal(true);
    expect(connection.networkConfig?.type).to.equal("edr-simulated");
    expect(connection.chainType).to.equal("generic");
  });

  it("gives each create() a fresh chain and an id of its own", async () => {
    const { network } = setUp();
    const first = track(await network.create("nativekit"));
    const second = track(await network.create("nativekit"));
    await first.provider.request({ method: "hardhat_mine", params: ["0x3"] });
    expect(await first.provider.request({ method: "eth_blockNumber" })).to.equal("0x3");
    expect(await second.provider.request({ method: "eth_blockNumber" })).to.equal("0x0");
    expect(first.id).to.not.equal(second.id);
  });

  it("shares one connection among getOrCreate() calls, concurrent ones included", async () => {
    const { network, builtin } = setUp("nativekit");
    const [a, b] = await Promise.all([network.getOrCreate(), network.getOrCreate("nativekit")]);
    track(a!);
    expect(b).to.equal(a);
    expect(await network.getOrCreate({ network: "nativekit" })).to.equal(a);
    expect(builtin.calls).to.deep.equal([]);
  });

  it("leaves other networks, config overrides and another chain type to Hardhat's network manager", async () => {
    const { network, builtin } = setUp("nativekit");
    await network.create("default");
    await network.create({ network: "nativekit", override: { timeout: 5 } });
    await network.create({ network: "typed", chainType: "op" });
    await network.getOrCreate({ network: "nativekit", override: {} });
    expect(builtin.calls.map(([method]) => method)).to.deep.equal(["create", "create", "create", "getOrCreate"]);
  });

  it("leaves connect(), createServer() and wasConnectCalled to Hardhat's network manager", async () => {
    const { network, builtin } = setUp("nativekit");
    const managed = network as unknown as { connect(): Promise<NetworkConnection>; createServer(): Promise<unknown>; wasConnectCalled(): boolean };
    expect(managed.wasConnectCalled()).to.equal(false);
    expect((await managed.connect()).networkName).to.equal("builtin connect");
    await managed.createServer();
    expect(managed.wasConnectCalled()).to.equal(true);
    expect(builtin.calls.map(([method]) => method)).to.deep.equal(["connect", "createServer"]);
  });

  it("throws a refused request as Hardhat's providers do: a ProviderError with the code and data", async () => {
    const { network } = setUp();
    const connection = track(await network.create("nativekit"));
    const error = await refusalOf(connection.provider.request({ method: "nativekit_noSuchMethod", params: [] }), InProcessProviderError);
    expect([error.name, error.code, error.message]).to.deep.equal(["ProviderError", -32601, "the method nativekit_noSuchMethod does not exist/is not available"]);
    expect(Object.getOwnPropertyDescriptor(error, "_isProviderError")?.value).to.equal(true);
  });

  it("refuses params that are not an array, as Hardhat's providers do", async () => {
    const { network } = setUp();
    const connection = track(await network.create("nativekit"));
    const error = await refusalOf(connection.provider.request({ method: "eth_getBalance", params: { address: "0x00" } }), InProcessProviderError);
    expect(error.code).to.equal(-32602);
  });

  it("tells listeners after evm_revert, as loadFixture expects of Hardhat's providers", async () => {
    const { network } = setUp();
    const connection = track(await network.create("nativekit"));
    const provider = connection.provider as unknown as NodeJS.EventEmitter & NetworkConnection["provider"];
    let reverts = 0;
    provider.on(REVERT_SNAPSHOT_EVENT, () => reverts++);
    const snapshot = await provider.request({ method: "evm_snapshot" });
    expect(reverts).to.equal(0);
    await provider.request({ method: "evm_revert", params: [snapshot] });
    expect(reverts).to.equal(1);
  });

  it("answers send() and sendAsync() through the same chain", async () => {
    const { network } = setUp();
    const connection = track(await network.create("nativekit"));
    const provider = connection.provider as unknown as {
      send(method: string, params?: unknown[]): Promise<unknown>;
      sendAsync(request: object, callback: (error: Error | null, response?: unknown) => void): void;
    };
    expect(await provider.send("eth_chainId")).to.equal("0xa868");
    const response = await new Promise((resolve) => provider.sendAsync({ id: 7, method: "nativekit_noSuchMethod" }, (_error, answer) => resolve(answer)));
    expect(response).to.deep.include({ jsonrpc: "2.0", id: 7 });
    expect((response as { error: { code: number } }).error.code).to.equal(-32601);
  });

  it("closes through the closeConnection chain: later requests are refused and a new create() gets a fresh chain", async () => {
    const { network } = setUp();
    const connection = await network.create("nativekit");
    await connection.provider.request({ method: "hardhat_mine", params: ["0x2"] });
    const { close } = connection;
    await close();
    const error = await refusal(connection.provider.request({ method: "eth_blockNumber" }));
    expect(error.message).to.equal("The connection to the nativekit network has been closed: make a new one with network.create().");
    const fresh = track(await network.create("nativekit"));
    expect(await fresh.provider.request({ method: "eth_blockNumber" })).to.equal("0x0");
  });
});
