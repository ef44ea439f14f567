/**
 * A fork's start does not ask the remote about the funded development accounts (issue 28 item
 * 5): their balances are set over the remote's accounts when each is first read, so only the
 * accounts a test uses cost remote calls.
 */
import { expect } from "chai";

import { createNativeProvider } from "../../src/engine/provider";
import { startCountingProxy, type TestServer } from "../helpers/fork";
import { startRemoteNativekitNode, type RemoteNativekitNode } from "../helpers/fork-remote";

const ACCOUNT_READS = new Set(["eth_getBalance", "eth_getTransactionCount", "eth_getCode"]);
const TEN_THOUSAND_ETHER = 10_000n * 10n ** 18n;

describe("fork: start without reading the funded accounts", function () {
  this.timeout(60_000);
  let remote: RemoteNativekitNode;
  let proxy: TestServer;

  before(async () => {
    remote = await startRemoteNativekitNode();
    proxy = await startCountingProxy(remote.rpcUrl);
  });
  after(async () => {
    await proxy.close().catch(() => {});
    await remote.close();
  });
  beforeEach(() => {
    proxy.methods.length = 0;
  });

  const fork = () => createNativeProvider({ forking: { url: proxy.url }, log: () => {} });

  it("a fork's start and its eth_accounts ask the remote nothing about the twenty funded accounts", async () => {
    const provider = await fork();
    expect(await provider.request({ method: "eth_accounts" })).to.have.length(20);
    expect(proxy.methods.filter((m) => ACCOUNT_READS.has(m))).to.deep.equal([]);
  });

  it("a funded account read on the fork has its configured balance and the remote's nonce", async () => {
    const provider = await fork();
    const [first] = (await provider.request({ method: "eth_accounts" })) as string[];
    // The remote's first signer sent transactions before the fork (setting up its contract).
    const remoteNonce = await remote.rpc<string>("eth_getTransactionCount", [first, "latest"]);
    expect(BigInt(remoteNonce)).to.be.above(0n);
    expect(BigInt((await provider.request({ method: "eth_getBalance", params: [first, "latest"] })) as string)).to.equal(TEN_THOUSAND_ETHER);
    expect(await provider.request({ method: "eth_getTransactionCount", params: [first, "latest"] })).to.equal(remoteNonce);
    // Only the account read cost remote calls: three, one per field.
    expect(proxy.methods.filter((m) => ACCOUNT_READS.has(m))).to.have.length(3);
  });

  it("after a revert, an account first read after the snapshot still has its configured balance", async () => {
    const provider = await fork();
    const accounts = (await provider.request({ method: "eth_accounts" })) as string[];
    const snapshot = await provider.request({ method: "evm_snapshot" });
    await provider.request({ method: "eth_sendTransaction", params: [{ from: accounts[5], to: accounts[6], value: "0x1000" }] });
    await provider.request({ method: "evm_revert", params: [snapshot] });
    for (const account of [accounts[5], accounts[6]]) {
      expect(BigInt((await provider.request({ method: "eth_getBalance", params: [account, "latest"] })) as string)).to.equal(TEN_THOUSAND_ETHER);
    }
  });

  it("hardhat_reset gives the funded accounts their configured balances again", async () => {
    const provider = await fork();
    const accounts = (await provider.request({ method: "eth_accounts" })) as string[];
    await provider.request({ method: "eth_sendTransaction", params: [{ from: accounts[7], to: accounts[8], value: "0x1000" }] });
    await provider.request({ method: "hardhat_reset", params: [{ forking: { jsonRpcUrl: proxy.url } }] });
    expect(BigInt((await provider.request({ method: "eth_getBalance", params: [accounts[7], "latest"] })) as string)).to.equal(TEN_THOUSAND_ETHER);
  });
});
