import { expect } from "chai";
import { Engine } from "../../src/engine/engine";
import { scheduledPrecompileMode } from "../../src/engine/fork/precompile-schedule";
import { rpcResult, startScriptedRemote, type TestServer } from "../helpers/fork";

const at = (iso: string) => BigInt(Date.parse(iso) / 1000);

describe("fork: the precompiles' behaviour at the fork point", () => {
  it("on mainnet follows the upgrade table: active from ApricotPhase2, deprecated at Pre6, active again at Phase6, deprecated from Banff", () => {
    const mode = (iso: string) => scheduledPrecompileMode(43114, at(iso))?.mode;
    expect(mode("2021-05-10T10:59:59Z")).to.equal("deprecated");
    expect(mode("2021-05-10T11:00:00Z")).to.equal("active");
    expect(mode("2022-09-05T01:30:00Z")).to.equal("deprecated");
    expect(mode("2022-09-06T20:00:00Z")).to.equal("active");
    expect(mode("2022-10-18T15:59:59Z")).to.equal("active");
    expect(mode("2022-10-18T16:00:00Z")).to.equal("deprecated");
  });

  it("on the test network follows its own table (Banff on 2022-10-03)", () => {
    expect(scheduledPrecompileMode(43113, at("2022-10-03T13:59:59Z"))?.mode).to.equal("active");
    expect(scheduledPrecompileMode(43113, at("2022-10-03T14:00:00Z"))?.mode).to.equal("deprecated");
  });

  it("on a local network of the reference node has every upgrade from the start: deprecated", () => {
    expect(scheduledPrecompileMode(43112, at("2024-01-01T00:00:00Z"))?.mode).to.equal("deprecated");
  });

  it("knows no schedule for another chain", () => {
    expect(scheduledPrecompileMode(31337, 0n)).to.equal(undefined);
  });

  describe("a remote that is not a nativekit node", () => {
    let server: TestServer;
    const lines: string[] = [];
    before(async () => {
      const block = { number: "0x10", hash: "0x" + "ab".repeat(32), timestamp: `0x${at("2024-06-01T00:00:00Z").toString(16)}`, gasLimit: "0xe4e1c0", baseFeePerGas: "0x1" };
      server = await startScriptedRemote(async (method, body) => {
        const answers: Record<string, unknown> = { eth_chainId: "0xa86a", eth_getBlockByNumber: block, eth_blockNumber: "0x10" };
        if (method in answers) return { body: rpcResult(body.id, answers[method]) };
        return { body: JSON.stringify({ jsonrpc: "2.0", id: body.id, error: { code: -32601, message: `the method ${method} does not exist/is not available` } }) };
      });
    });
    after(() => server.close());

    it("on mainnet after Banff forks with deprecated precompiles, and says why", async () => {
      const engine = await Engine.create({ forking: { url: server.url, blockNumber: 16, cacheDir: false }, accounts: [], log: (l) => lines.push(l) });
      expect(engine.deprecatedPrecompiles).to.equal(true);
      expect(engine.options.chainId).to.equal(43114);
      expect(lines).to.include("Native-asset precompiles: deprecated (the mainnet's upgrade schedule at the fork block's time).");
    });

    it("an option forces active precompiles on it", async () => {
      const engine = await Engine.create({ forking: { url: server.url, blockNumber: 16, cacheDir: false, precompiles: "active" }, accounts: [], log: () => {} });
      expect(engine.deprecatedPrecompiles).to.equal(false);
    });

    it("without a pinned block, forks at the remote's head (accepted blocks are final) with a warning", async () => {
      const warnings: string[] = [];
      const engine = await Engine.create({ forking: { url: server.url, cacheDir: false }, accounts: [], log: (l) => warnings.push(l) });
      expect(engine.head.number).to.equal(16n);
      expect(warnings[0]).to.match(/^Warning: no fork block number given: forking at block 16 .*Pin it/);
    });

    it("the chain ID given in the options wins over the remote's", async () => {
      const engine = await Engine.create({ chainId: 99, forking: { url: server.url, blockNumber: 16, cacheDir: false }, accounts: [], log: () => {} });
      expect(engine.options.chainId).to.equal(99);
    });
  });
});
