/**
 * `nativekit node --dump-state FILE` and `--load-state FILE`, as anvil's flags (issue 27 item 3):
 * the contract chain's accounts written as anvil's state JSON when the node stops, and read back
 * at start, here and in the anvil binary.
 */
import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { anvilPeer, startPeer } from "../../bench/peers";
import { PATHS } from "../../src/network/paths";
import { spawnCliNode, startedCliNode } from "../helpers/cli-node";
import { alive } from "../helpers/processes";

const ACCOUNT = "0x00000000000000000000000000000000000bee71";
const BALANCE = "0x1234567890abcdef";
/** Runtime code that returns 42: PUSH1 42, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN. */
const CODE = "0x602a60005260206000f3";
const SLOT = `0x${"0".repeat(63)}7`;
const VALUE = `0x${"0".repeat(62)}99`;

describe("nativekit node --dump-state and --load-state", function () {
  this.timeout(120_000);
  let dir: string;
  let file: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-state-"));
    file = path.join(dir, "state.json");
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("writes the contract chain's accounts to the --dump-state file when the node stops", async () => {
    const node = await startedCliNode(["--silent", "--dump-state", file]);
    await node.call(PATHS.contractRpc, "hardhat_setBalance", [ACCOUNT, BALANCE]);
    await node.call(PATHS.contractRpc, "hardhat_setCode", [ACCOUNT, CODE]);
    await node.call(PATHS.contractRpc, "hardhat_setStorageAt", [ACCOUNT, SLOT, VALUE]);
    expect(await node.stop()).to.equal(0);
    expect(alive(node.pid)).to.equal(false);
    expect(node.output()).to.contain(`The contract chain's state is in ${file}`);
    const state = JSON.parse(fs.readFileSync(file, "utf8")) as { accounts: Record<string, { balance: string; code: string; storage: Record<string, string> }> };
    const account = state.accounts[ACCOUNT]!;
    expect(BigInt(account.balance)).to.equal(BigInt(BALANCE));
    expect(account.code).to.equal(CODE);
  });

  it("a node started with --load-state answers with those accounts", async () => {
    const node = await startedCliNode(["--silent", "--load-state", file]);
    try {
      expect(BigInt(await node.call<string>(PATHS.contractRpc, "eth_getBalance", [ACCOUNT, "latest"]))).to.equal(BigInt(BALANCE));
      expect(await node.call(PATHS.contractRpc, "eth_getCode", [ACCOUNT, "latest"])).to.equal(CODE);
      expect(await node.call(PATHS.contractRpc, "eth_getStorageAt", [ACCOUNT, SLOT, "latest"])).to.equal(VALUE);
    } finally {
      await node.stop();
    }
  });

  it("anvil loads the file nativekit wrote", async () => {
    const spec = { ...anvilPeer(), args: (port: number) => ["--host", "127.0.0.1", "--port", String(port), "--silent", "--load-state", file] };
    const { peer } = await startPeer(spec);
    try {
      expect(BigInt((await peer.client.call("eth_getBalance", [ACCOUNT, "latest"])) as string)).to.equal(BigInt(BALANCE));
      expect(await peer.client.call("eth_getCode", [ACCOUNT, "latest"])).to.equal(CODE);
    } finally {
      await peer.stop();
    }
    expect(alive(peer.child.pid!)).to.equal(false);
  });

  it("a state file that cannot be read stops the start with its path", async () => {
    const missing = path.join(dir, "missing.json");
    const start = await spawnCliNode(["--load-state", missing]);
    if (start.started) {
      await start.node.stop();
      expect.fail("the node started without its state file");
    }
    expect(start.code).to.equal(1);
    expect(start.output).to.contain(`cannot read the state file ${missing}`);
  });
});
