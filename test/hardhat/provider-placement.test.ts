import { EventEmitter } from "node:events";

import { expect } from "chai";
import hre from "hardhat";
import { HardhatContext } from "hardhat/internal/context";
import { createProvider } from "hardhat/internal/core/providers/construction";
import { ProviderWrapper } from "hardhat/plugins";
import type { EIP1193Provider, RequestArguments } from "hardhat/types";

import { NATIVEKIT_NETWORK } from "../../src/hardhat/config";
import { placeEngine } from "../../src/hardhat/provider-placement";

/** A wrapper that notes the methods it passes on, as hardhat-gas-reporter 2's does to watch transactions. */
class Watcher extends ProviderWrapper {
  readonly seen: string[] = [];

  request(args: RequestArguments): Promise<unknown> {
    this.seen.push(args.method);
    return this._wrappedProvider.request(args);
  }
}

/** A provider that answers every request with its name. */
class Named extends EventEmitter implements EIP1193Provider {
  constructor(readonly name: string) {
    super();
  }

  async request(): Promise<unknown> {
    return this.name;
  }
}

const isPlaceholder = (candidate: unknown) => candidate instanceof Named && candidate.name === "placeholder";

describe("the nativekit network's provider under other plugins' wrappers", () => {
  it("a wrapper an earlier provider extender put around the network's HTTP provider stays, over the engine", async function () {
    this.timeout(60_000);
    let watcher: Watcher | undefined;
    // hardhat-gas-reporter 2's extender, as the toolbox (imported first) registers it: before nativekit's.
    const earlier = (provider: EIP1193Provider) => (watcher = new Watcher(provider));
    const provider = await createProvider(hre.config, NATIVEKIT_NETWORK, hre.artifacts, [earlier, ...HardhatContext.getHardhatContext().providerExtenders]);
    expect(await provider.request({ method: "eth_chainId" })).to.equal("0xa868"); // the engine's (43112), not a request to the placeholder URL
    expect(watcher!.seen).to.include("eth_chainId");
  });

  it("the engine takes the placeholder's place under a chain of wrappers, for requests and for event listeners", async () => {
    const inner = new Watcher(new Named("placeholder"));
    const outer = new Watcher(inner);
    const engine = new Named("engine");
    expect(placeEngine(outer, isPlaceholder, engine)).to.equal(outer);
    expect(await outer.request({ method: "eth_blockNumber" })).to.equal("engine");
    expect([outer.seen, inner.seen]).to.deep.equal([["eth_blockNumber"], ["eth_blockNumber"]]);
    const heard: unknown[] = [];
    outer.on("message", (message) => heard.push(message));
    engine.emit("message", "from the engine");
    expect(heard).to.deep.equal(["from the engine"]);
  });

  it("without a wrapper around the placeholder, the engine alone is the provider", () => {
    const engine = new Named("engine");
    expect(placeEngine(new Named("placeholder"), isPlaceholder, engine)).to.equal(engine);
  });

  it("under a wrapper that is no ProviderWrapper (nothing under it can be reached), the engine alone is the provider", () => {
    const opaque = new Named("opaque"); // whatever it holds inside, it has no _wrappedProvider
    const engine = new Named("engine");
    expect(placeEngine(opaque, isPlaceholder, engine)).to.equal(engine);
  });
});
