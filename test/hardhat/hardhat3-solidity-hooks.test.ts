import { expect } from "chai";
import { solcjsCompilerPath, solcjsLongVersion, solcjsVersion } from "../../src/hardhat/solc-bundle";
import solidityHooks, { getCompiler } from "../../src/hardhat/hardhat3/solidity-hooks";
import type { Hardhat3Compiler, Hardhat3CompilerConfig, HookContext } from "../../src/hardhat/hardhat3/types";

const context = {} as HookContext;
const bundledConfig = (): Hardhat3CompilerConfig => ({ type: "solc", version: solcjsVersion(), path: solcjsCompilerPath() });

/** A `next` that stands for Hardhat's own handler: counts its calls and compiles to a marker. */
function hardhatsHandler() {
  const calls: Hardhat3CompilerConfig[] = [];
  const next = async (_context: HookContext, config: Hardhat3CompilerConfig): Promise<Hardhat3Compiler> => {
    calls.push(config);
    return { version: config.version, longVersion: "from-hardhat", compilerPath: config.path ?? "", isSolcJs: true, compile: async (input) => ({ compiledBy: "hardhat", input }) };
  };
  return { calls, next };
}

describe("Hardhat 3 solidity hooks: the bundled compiler", () => {
  it("knows the long version the bundled compiler itself reports", function () {
    this.timeout(60_000);
    expect(solcjsLongVersion()).to.equal((require("solc") as { version(): string }).version());
  });

  it("describes the bundled compiler as Hardhat would, without loading it", async () => {
    const { calls, next } = hardhatsHandler();
    const compiler = await getCompiler(context, bundledConfig(), next);
    expect(calls).to.deep.equal([]);
    expect({ version: compiler.version, longVersion: compiler.longVersion, compilerPath: compiler.compilerPath, isSolcJs: compiler.isSolcJs }).to.deep.equal({
      version: solcjsVersion(),
      longVersion: /^\d+\.\d+\.\d+\+commit\.\w+/.exec(solcjsLongVersion())![0],
      compilerPath: solcjsCompilerPath(),
      isSolcJs: true,
    });
  });

  it("loads the compiler through Hardhat's handler at the first compilation, and once only", async () => {
    const { calls, next } = hardhatsHandler();
    const compiler = await getCompiler(context, bundledConfig(), next);
    expect(await compiler.compile({ n: 1 })).to.deep.equal({ compiledBy: "hardhat", input: { n: 1 } });
    expect(await compiler.compile({ n: 2 })).to.deep.equal({ compiledBy: "hardhat", input: { n: 2 } });
    expect(calls).to.deep.equal([bundledConfig()]);
  });

  it("passes any other compiler to Hardhat's handler: another version, another path, another type", async () => {
    const others: Hardhat3CompilerConfig[] = [
      { type: "solc", version: "0.8.20" },
      { type: "solc", version: solcjsVersion(), path: "/opt/solc" },
      { type: "slang-solx", version: solcjsVersion(), path: solcjsCompilerPath() },
    ];
    for (const config of others) {
      const { calls, next } = hardhatsHandler();
      const compiler = await getCompiler(context, config, next);
      expect(compiler.longVersion).to.equal("from-hardhat");
      expect(calls).to.deep.equal([config]);
    }
  });

  it("is the plugin's getCompiler handler", async () => {
    expect((await solidityHooks()).getCompiler).to.equal(getCompiler);
  });
});
