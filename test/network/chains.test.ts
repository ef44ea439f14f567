import { expect } from "chai";

import { decodeCb58, encodeCb58 } from "../../src/encoding";
import { ChainDirectory, PLATFORM_CHAIN_ID } from "../../src/network/chains";
import { LOCAL_NETWORK } from "../../src/network/constants";

describe("ChainDirectory: the chains of a network and the names that reach them", () => {
  const chains = new ChainDirectory(LOCAL_NETWORK);

  it("resolves the reference node's aliases, the seed's namespaces and the IDs themselves", () => {
    for (const name of ["X", "avm", "xvm", LOCAL_NETWORK.xChainId]) expect(chains.lookup(name)?.id).to.equal(LOCAL_NETWORK.xChainId);
    for (const name of ["C", "evm", "cvm", LOCAL_NETWORK.cChainId]) expect(chains.lookup(name)?.id).to.equal(LOCAL_NETWORK.cChainId);
    for (const name of ["P", "platform", PLATFORM_CHAIN_ID]) expect(chains.lookup(name)?.id).to.equal(PLATFORM_CHAIN_ID);
  });

  it("knows no other name", () => {
    for (const name of ["Y", "x", "", "platformvm"]) expect(chains.lookup(name)).to.equal(undefined);
  });

  it("gives the primary alias of a chain ID, and the cb58 ID of a chain it does not know", () => {
    expect(chains.aliasOf(decodeCb58(LOCAL_NETWORK.cChainId))).to.equal("C");
    expect(chains.aliasOf(new Uint8Array(32))).to.equal("P");
    const other = new Uint8Array(32).fill(7);
    expect(chains.byId(other)).to.equal(undefined);
    expect(chains.aliasOf(other)).to.equal(encodeCb58(other));
  });
});
