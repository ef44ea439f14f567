/**
 * Hostile input over WebSocket, long EVM calls (issue 26 item 1): the contract chain's
 * WebSocket reaches the same engine as HTTP, so an endless eth_call sent there held every
 * connection until it ended. Now it stops at `--rpc-evm-timeout`, and other connections get
 * answers while it runs. (Nesting limits over WebSocket: hostile-json-depth.test.ts.)
 */
import { expect } from "chai";

import { PATHS } from "../../src/network/paths";
import { type CliNode, startedCliNode } from "../helpers/cli-node";
import { medianLatencyMs, whileHammered } from "../helpers/latency";
import { alive } from "../helpers/processes";
import { connectWsRpc, type WsRpcClient, type WsRpcError } from "../helpers/ws-rpc";

/** JUMPDEST, PUSH1 0, JUMP: runs until its gas is gone. */
const ENDLESS_LOOP = "0x5b600056";

describe("hostile input: WebSocket, a call that runs for long", function () {
  this.timeout(120_000);
  let node: CliNode;
  const clients: WsRpcClient[] = [];
  const connect = async () => {
    const client = await connectWsRpc(`${node.url.replace(/^http/, "ws")}${PATHS.contractWs}`);
    clients.push(client);
    return client;
  };
  before(async () => {
    node = await startedCliNode(["--silent", "--rpc-evm-timeout", "1s"]);
  });
  after(async () => {
    for (const client of clients) client.close();
    await node?.stop();
    expect(alive(node.pid)).to.equal(false);
  });

  it("an endless eth_call over WebSocket answers 'execution aborted (timeout = 1s)'", async () => {
    const client = await connect();
    const error = (await client.request("eth_call", [{ data: ENDLESS_LOOP, gas: "0xffffffffffffffff" }, "latest"]).then(
      () => expect.fail("the endless call answered a result"),
      (e: WsRpcError) => e,
    )) as WsRpcError;
    expect(error).to.deep.include({ code: -32000, message: "execution aborted (timeout = 1s)" });
  });

  it("while two connections send endless eth_calls, eth_blockNumber on a third stays under 50 ms median", async () => {
    const [first, second, measured] = await Promise.all([connect(), connect(), connect()]);
    let turn = 0;
    const endless = () => [first!, second!][turn++ % 2]!.request("eth_call", [{ data: ENDLESS_LOOP, gas: "0xffffffffffffffff" }, "latest"]);
    const median = await whileHammered(endless, () => medianLatencyMs(() => measured!.request("eth_blockNumber")));
    console.log(`      eth_blockNumber median over WebSocket while two connections send endless eth_calls: ${median.toFixed(1)} ms`);
    expect(median).to.be.below(50);
  });
});
