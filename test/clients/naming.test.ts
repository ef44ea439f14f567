import { expect } from "chai";

import { NAMINGS, namingScheme } from "../../src/clients";

describe("clients/naming", () => {
  it("seed naming: xvm.* at /ext/bc/X, cvm.* at /ext/bc/C/cvm, genesis at /ext/vm/xvm", () => {
    const seed = namingScheme("seed");
    expect(seed.exchangeMethod("send")).to.equal("xvm.send");
    expect(seed.exchangeChainPath()).to.equal("/ext/bc/X");
    expect(seed.contractMethod("export")).to.equal("cvm.export");
    expect(seed.contractChainPath()).to.equal("/ext/bc/C/cvm");
    expect(seed.exchangeStaticPath).to.equal("/ext/vm/xvm");
    expect(seed.evmRpcPath()).to.equal("/ext/bc/C/rpc");
  });

  it("reference naming: avm.* at /ext/bc/X, avax.* at /ext/bc/C/avax, genesis at /ext/vm/avm", () => {
    const reference = namingScheme("reference");
    expect(reference.exchangeMethod("send")).to.equal("avm.send");
    expect(reference.exchangeChainPath()).to.equal("/ext/bc/X");
    expect(reference.contractMethod("export")).to.equal("avax.export");
    expect(reference.contractChainPath()).to.equal("/ext/bc/C/avax");
    expect(reference.exchangeStaticPath).to.equal("/ext/vm/avm");
    expect(reference.evmRpcPath()).to.equal("/ext/bc/C/rpc");
  });

  it("nativekit naming: the same names and paths as the seed naming it replaces", () => {
    const nativekit = namingScheme("nativekit");
    expect(nativekit.naming).to.equal("nativekit");
    expect(nativekit.exchangeMethod("send")).to.equal("xvm.send");
    expect(nativekit.contractMethod("export")).to.equal("cvm.export");
    expect(nativekit.contractChainPath()).to.equal("/ext/bc/C/cvm");
    expect(nativekit.exchangeStaticPath).to.equal("/ext/vm/xvm");
  });

  it("still accepts the deprecated seed naming, and reports it as given", () => {
    expect(namingScheme("seed").naming).to.equal("seed");
    expect(namingScheme("seed").exchangeStaticPath).to.equal(namingScheme("nativekit").exchangeStaticPath);
  });

  it("defaults to the nativekit naming", () => {
    expect(namingScheme().naming).to.equal("nativekit");
  });

  it("lists nativekit and reference as the namings to choose from", () => {
    expect(NAMINGS).to.deep.equal(["nativekit", "reference"]);
  });

  it("puts another chain's ID in the path", () => {
    expect(namingScheme("seed").contractChainPath("2CA6j5zYzasynPsFeNoqWkmTCt3VScMvXUZHbfDJ8k3oGzAPtU")).to.equal(
      "/ext/bc/2CA6j5zYzasynPsFeNoqWkmTCt3VScMvXUZHbfDJ8k3oGzAPtU/cvm",
    );
  });

  it("rejects an unknown naming and a chain that is not an alias or ID", () => {
    expect(() => namingScheme("avalanche" as "nativekit")).to.throw(
      TypeError,
      'naming must be "nativekit" (xvm/cvm) or "reference" (avm/avax), got "avalanche"',
    );
    expect(() => namingScheme("seed").exchangeChainPath("X/../info")).to.throw(TypeError, "chain must be an alias");
  });
});
