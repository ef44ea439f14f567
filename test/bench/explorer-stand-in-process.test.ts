import { expect } from "chai";
import { startStandInNodeProcess, type StandInNodeProcess } from "../../bench/explorer-stand-in-process";
import { alive } from "../helpers/processes";

/** The last container the stand-in's exchange-chain index serves, by JSON-RPC over HTTP. */
async function lastAcceptedIndex(url: string): Promise<string> {
  const response = await fetch(`${url}/ext/index/X/tx`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "index.getLastAccepted", params: { encoding: "hex" } }),
  });
  return ((await response.json()) as { result: { index: string } }).result.index;
}

describe("the explorer benchmark's stand-in node in a process of its own", function () {
  this.timeout(120_000);
  let node: StandInNodeProcess | undefined;
  afterEach(async () => {
    await node?.close();
    node = undefined;
  });

  it("serves the first containers it was told, then as many as serve() says", async () => {
    node = await startStandInNodeProcess(50, 10, 10, () => undefined);
    expect(await lastAcceptedIndex(node.url)).to.equal("9");
    await node.serve(50);
    expect(await lastAcceptedIndex(node.url)).to.equal("49");
  });

  it("is ended by close(): its process is gone", async () => {
    node = await startStandInNodeProcess(20, 5, 20, () => undefined);
    const { pid } = node;
    expect(alive(pid)).to.equal(true);
    await node.close();
    node = undefined;
    expect(alive(pid)).to.equal(false);
  });
});
