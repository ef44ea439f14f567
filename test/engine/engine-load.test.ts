import { expect } from "chai";

import { modulesLoadedBy } from "../helpers/loaded-modules";

const ethersModules = (loaded: string[]) => loaded.filter((file) => file.includes("node_modules/ethers/"));

/**
 * Loading the engine is part of every in-process network's start (Hardhat 3's engine thread, a
 * viem project, the node's CLI): ethers stays out of it until a request needs it.
 */
describe("engine: what starting a chain loads", function () {
  this.timeout(120_000);

  it("starts a chain, mines a transfer and a revert with its reason, and loads no ethers", () => {
    const loaded = modulesLoadedBy(`
      const { createNativeProvider } = require("./src/engine/provider");
      (async () => {
        const provider = await createNativeProvider({});
        const [from] = await provider.request({ method: "eth_accounts" });
        await provider.request({ method: "eth_sendTransaction", params: [{ from, to: from, value: "0x1" }] });
        // Init code that reverts with Error("no") (four MSTOREs, REVERT of 100 bytes): the reason is decoded.
        const revert = "0x7f08c379a0000000000000000000000000000000000000000000000000000000006000527f00000000000000000000000000000000000000000000000000000000000000206004527f00000000000000000000000000000000000000000000000000000000000000026024527f6e6f00000000000000000000000000000000000000000000000000000000000060445260646000fd";
        const error = await provider.request({ method: "eth_call", params: [{ from, data: revert }] }).catch((e) => e);
        if (error.message !== "execution reverted: no") throw new Error("unexpected: " + error.message);
        report();
      })();
    `);
    expect(loaded.some((file) => file.includes("node_modules/@ethereumjs/evm/"))).to.equal(true);
    expect(ethersModules(loaded)).to.deep.equal([]);
  });

  it("loads ethers when a request needs it (eth_sign)", () => {
    const loaded = modulesLoadedBy(`
      const { createNativeProvider } = require("./src/engine/provider");
      (async () => {
        const provider = await createNativeProvider({});
        const [from] = await provider.request({ method: "eth_accounts" });
        await provider.request({ method: "eth_sign", params: [from, "0x1234"] });
        report();
      })();
    `);
    expect(ethersModules(loaded)).to.not.deep.equal([]);
  });
});
