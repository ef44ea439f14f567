import path from "node:path";
import { expect } from "chai";
import { IN_PROCESS_URL } from "../../src/hardhat/config";
import { solcjsCompilerPath, solcjsVersion } from "../../src/hardhat/solc-bundle";
import configHooks, { extendUserConfig, resolveUserConfig, validateUserConfig, WRAPPED_NATIVE_ASSET_SOURCE } from "../../src/hardhat/hardhat3/config-hooks";
import type { Hardhat3CompilerConfig, Hardhat3ResolvedConfig, Hardhat3UserConfig } from "../../src/hardhat/hardhat3/types";

const IN_PROCESS_NETWORK = { type: "http", url: IN_PROCESS_URL, accounts: "remote" };

/** What Hardhat 3's own resolution returns for a project with the given profiles. */
function resolvedByHardhat(profiles: NonNullable<Hardhat3ResolvedConfig["solidity"]>["profiles"] = {}, npmFilesToBuild: string[] | undefined = []): Hardhat3ResolvedConfig {
  return {
    paths: { root: "/project", cache: "/project/cache" },
    solidity: { profiles, ...(npmFilesToBuild === undefined ? {} : { npmFilesToBuild }) },
  } as unknown as Hardhat3ResolvedConfig;
}

/** Runs resolveUserConfig with a `next` that returns `resolved`. */
function resolveWith(userConfig: Hardhat3UserConfig, resolved: Hardhat3ResolvedConfig = resolvedByHardhat()): Promise<Hardhat3ResolvedConfig> {
  return resolveUserConfig(userConfig, undefined, async () => resolved);
}

describe("Hardhat 3 config hooks", () => {
  describe("extendUserConfig", () => {
    it("adds an http nativekit network with the in-process placeholder URL, keeping the others", async () => {
      const extended = await extendUserConfig({ networks: { local: { type: "http", url: "http://127.0.0.1:9650/ext/bc/C/rpc" } } }, async (config) => config);
      expect(extended.networks).to.deep.equal({
        local: { type: "http", url: "http://127.0.0.1:9650/ext/bc/C/rpc" },
        nativekit: IN_PROCESS_NETWORK,
      });
    });

    it("adds the network to a config that has no networks at all", async () => {
      const extended = await extendUserConfig({}, async (config) => config);
      expect(extended.networks).to.deep.equal({ nativekit: IN_PROCESS_NETWORK });
    });

    it("extends what next returns, not the config it was given", async () => {
      const seen: Hardhat3UserConfig[] = [];
      const original: Hardhat3UserConfig = { networks: {} };
      const extended = await extendUserConfig(original, async (config) => {
        seen.push(config);
        return { ...config, networks: { fromNext: { type: "edr-simulated" } } };
      });
      expect(seen).to.deep.equal([original]);
      expect(Object.keys(extended.networks ?? {})).to.deep.equal(["fromNext", "nativekit"]);
    });

    it("leaves a nativekit network the user defined as it is", async () => {
      const own = { type: "http", url: "http://127.0.0.1:9650/ext/bc/C/rpc" };
      const extended = await extendUserConfig({ networks: { nativekit: own } }, async (config) => config);
      expect(extended.networks).to.deep.equal({ nativekit: own });
    });
  });

  describe("validateUserConfig", () => {
    it("finds nothing wrong with a config without the nativekit key or with a valid one", async () => {
      expect(await validateUserConfig({})).to.deep.equal([]);
      expect(await validateUserConfig({ nativekit: { chainId: 99, gas: 1_000_000, assetBalances: [{ account: 0, assetId: "0x" + "a1".repeat(32), amount: "5" }] } })).to.deep.equal([]);
    });

    it("reports a bad nativekit config at the path [\"nativekit\"] with the resolver's message", async () => {
      const errors = await validateUserConfig({ nativekit: { gas: -1 } });
      expect(errors).to.deep.equal([{ path: ["nativekit"], message: 'nativekit config: gas must be "auto" or a positive integer, got -1' }]);
    });

    it("reports a bad amount in assetBalances", async () => {
      const errors = await validateUserConfig({ nativekit: { assetBalances: [{ account: 0, assetId: "0x01", amount: "lots" }] } });
      expect(errors).to.have.length(1);
      expect(errors[0]!.path).to.deep.equal(["nativekit"]);
      expect(errors[0]!.message).to.match(/assetBalances\[0\]\.amount must be a non-negative integer/);
    });
  });

  describe("resolveUserConfig", () => {
    it("calls next with the user config and the configuration-variable resolver, and keeps what it resolved", async () => {
      const calls: unknown[][] = [];
      const resolver = () => "resolved";
      const userConfig: Hardhat3UserConfig = { networks: {} };
      const fromNext = { ...resolvedByHardhat(), somethingElse: 42 };
      const resolved = await resolveUserConfig(userConfig, resolver, async (...args) => {
        calls.push(args);
        return fromNext;
      });
      expect(calls).to.have.length(1);
      expect(calls[0]![0]).to.equal(userConfig);
      expect(calls[0]![1]).to.equal(resolver);
      expect(resolved.somethingElse).to.equal(42);
      expect(resolved.paths).to.deep.equal({ root: "/project", cache: "/project/cache" });
    });

    it("resolves the nativekit key: defaults, and amounts turned into bigints", async () => {
      const resolved = await resolveWith({ nativekit: { chainId: 1234, assetBalances: [{ account: 1, assetId: "0x" + "b2".repeat(32), amount: "77" }] } });
      expect(resolved.nativekit.engine.chainId).to.equal(1234);
      expect(resolved.nativekit.engine.assetBalances).to.deep.equal([{ account: 1, assetId: "0x" + "b2".repeat(32), amount: 77n }]);
      expect(resolved.nativekit.loggingEnabled).to.equal(true);
      expect(resolved.nativekit.engine.throwOnTransactionFailures).to.equal(true);
      expect(resolved.nativekit.gas).to.equal(15_000_000);
    });

    it("gives the bundled solc-js to every compiler of every profile and override that asks for its version", async () => {
      const bundled = () => ({ version: solcjsVersion() }) as Hardhat3CompilerConfig;
      const profiles = {
        default: { compilers: [bundled(), { type: "solc", version: solcjsVersion() }], overrides: { "contracts/A.sol": bundled() } },
        production: { compilers: [bundled()], overrides: { "contracts/B.sol": bundled() } },
      };
      const resolved = await resolveWith({}, resolvedByHardhat(profiles));
      const compilers = Object.values(resolved.solidity!.profiles).flatMap((p) => [...p.compilers, ...Object.values(p.overrides)]);
      expect(compilers).to.have.length(5);
      for (const compiler of compilers) expect(compiler.path).to.equal(solcjsCompilerPath());
    });

    it("leaves other versions, other compiler types and compilers with a path of their own alone", async () => {
      const otherVersion = { version: "0.8.0" };
      const ownPath = { version: solcjsVersion(), path: "/my/soljson.js" };
      const otherType = { type: "solx", version: solcjsVersion() };
      const profiles = { default: { compilers: [otherVersion, ownPath, otherType], overrides: { "contracts/A.sol": { version: "0.7.6" } } } };
      const resolved = await resolveWith({}, resolvedByHardhat(profiles));
      const profile = resolved.solidity!.profiles.default!;
      expect(profile.compilers).to.deep.equal([{ version: "0.8.0" }, { version: solcjsVersion(), path: "/my/soljson.js" }, { type: "solx", version: solcjsVersion() }]);
      expect(profile.overrides).to.deep.equal({ "contracts/A.sol": { version: "0.7.6" } });
    });

    it("adds WrappedNativeAsset's source to npmFilesToBuild, after the project's own", async () => {
      const resolved = await resolveWith({}, resolvedByHardhat({}, ["some-package/contracts/Token.sol"]));
      expect(resolved.solidity!.npmFilesToBuild).to.deep.equal(["some-package/contracts/Token.sol", "nativekit/contracts/WrappedNativeAsset.sol"]);
      expect(WRAPPED_NATIVE_ASSET_SOURCE).to.equal("nativekit/contracts/WrappedNativeAsset.sol");
    });

    it("does not add WrappedNativeAsset's source a second time", async () => {
      const resolved = await resolveWith({}, resolvedByHardhat({}, [WRAPPED_NATIVE_ASSET_SOURCE]));
      expect(resolved.solidity!.npmFilesToBuild).to.deep.equal([WRAPPED_NATIVE_ASSET_SOURCE]);
    });

    it("copes with a resolved config without solidity settings", async () => {
      const resolved = await resolveWith({}, { paths: { root: "/project", cache: "/project/cache" } } as unknown as Hardhat3ResolvedConfig);
      expect(resolved.solidity).to.equal(undefined);
      expect(resolved.nativekit.inProcessNetworks).to.deep.equal([]);
    });

    it("puts the fork cache under the project's cache directory by default", async () => {
      const resolved = await resolveWith({ nativekit: { forking: { url: "https://example.invalid/rpc" } } });
      expect(resolved.nativekit.engine.forking!.cacheDir).to.equal(path.join("/project/cache", "nativekit-fork"));
    });

    it("keeps a fork cache directory the user gave, and has no forking when none is configured", async () => {
      const resolved = await resolveWith({ nativekit: { forking: { url: "https://example.invalid/rpc", cacheDir: "/elsewhere" } } });
      expect(resolved.nativekit.engine.forking!.cacheDir).to.equal("/elsewhere");
      expect((await resolveWith({})).nativekit.engine.forking).to.equal(undefined);
    });

    it("records the networks whose URL is the in-process placeholder as the in-process networks", async () => {
      const userConfig: Hardhat3UserConfig = {
        networks: {
          nativekit: IN_PROCESS_NETWORK,
          second: { type: "http", url: IN_PROCESS_URL },
          local: { type: "http", url: "http://127.0.0.1:9650/ext/bc/C/rpc" },
          simulated: { type: "edr-simulated", url: IN_PROCESS_URL },
        },
      };
      const resolved = await resolveWith(userConfig);
      expect(resolved.nativekit.inProcessNetworks).to.deep.equal(["nativekit", "second"]);
    });
  });

  it("the default export hands Hardhat the three hooks", async () => {
    const hooks = await configHooks();
    expect(hooks).to.deep.equal({ extendUserConfig, validateUserConfig, resolveUserConfig });
  });
});
