import { expect } from "chai";
import { createNodeChainsForCli } from "../../src/cli/main";
import { resolveNativekitConfig } from "../../src/hardhat/config";
import { NativeHardhatProvider } from "../../src/hardhat/provider";
import { startRemoteNativekitNode, type RemoteNativekitNode } from "../helpers/fork-remote";

describe("fork: the Hardhat config and the node command use the engine's one mechanism", function () {
  this.timeout(60_000);
  let remote: RemoteNativekitNode;
  before(async () => {
    remote = await startRemoteNativekitNode({ chainId: 43113 });
  });
  after(() => remote.close());

  it("nativekit.forking in hardhat.config is passed to the engine as its forking options", () => {
    const config = resolveNativekitConfig({ forking: { url: "https://rpc.example/ext/bc/C/rpc", blockNumber: "123" as unknown as number, httpHeaders: { "x-api-key": "k" } } });
    expect(config.engine.forking).to.deep.equal({ url: "https://rpc.example/ext/bc/C/rpc", blockNumber: 123n, httpHeaders: { "x-api-key": "k" } });
  });

  it("refuses a forking config without a URL", () => {
    expect(() => resolveNativekitConfig({ forking: {} as { url: string } })).to.throw("nativekit config: forking.url must be the remote's JSON-RPC URL");
  });

  it("the plugin's in-process network forks with nativekit.forking", async () => {
    const provider = new NativeHardhatProvider(resolveNativekitConfig({ forking: { url: remote.rpcUrl, cacheDir: false }, loggingEnabled: false }));
    expect(await provider.request({ method: "eth_chainId" })).to.equal("0xa869");
    const code = await provider.request({ method: "eth_getCode", params: [remote.wrapperAddress, "latest"] });
    expect(code).to.equal(await remote.rpc("eth_getCode", [remote.wrapperAddress, "latest"]));
  });

  it("the node command's local network forks with the remote's chain ID and prints the fork", async () => {
    const lines: string[] = [];
    const node = await createNodeChainsForCli({ forking: { url: remote.rpcUrl, cacheDir: false }, log: (l) => lines.push(l) });
    try {
      expect(node.chainId).to.equal(43113);
      expect(lines.some((l) => l.startsWith(`Forking ${remote.rpcUrl} (chain 43113)`))).to.equal(true);
    } finally {
      await node.close?.();
    }
  });
});
