import { expect } from "chai";
import { openExplorerService, type ExplorerService } from "../../../src/services/explorer";
import { startHttpNode } from "../../../src/node/http-server";
import { type FundedNode, newXAddress, startFundedNode, xSend } from "./helpers";
import { expectIndexedAsTheNode } from "./ingest-checks";

describe("explorer ingest: a node that stops answering and comes back", function () {
  this.timeout(120_000);
  let node: FundedNode;
  let explorer: ExplorerService;

  before(async () => {
    node = await startFundedNode();
    explorer = await openExplorerService({ nodeUrl: node.url, pollIntervalMs: 20 });
  });
  after(async () => {
    await explorer?.close();
    await node?.close();
  });

  it("reports the node unreachable while it is away, then reads on where it stopped", async () => {
    const before = await xSend(node, await newXAddress(node), 1_500_000n);
    await explorer.ingester.waitUntilCaughtUp(30_000);
    const port = Number(new URL(node.url).port);
    const meanwhile = await xSend(node, await newXAddress(node), 2_500_000n);
    await node.http.close();
    for (let i = 0; i < 200 && !explorer.ingester.progress().some((p) => p.state === "retrying"); i++) await new Promise((r) => setTimeout(r, 25));
    const away = explorer.ingester.progress().find((p) => p.state === "retrying");
    expect(away?.lastError).to.match(/the node cannot be reached/);

    const { getRoutes, authorize } = node.network.management;
    node.http = await startHttpNode({ port, routes: node.network.routes, getRoutes, authorize });
    const after = await xSend(node, await newXAddress(node), 3_500_000n);
    await explorer.ingester.waitUntilCaughtUp(60_000);
    for (const id of [before, meanwhile, after]) expect(await explorer.database.query("SELECT count(*)::int AS n FROM transactions WHERE id = $1", [id])).to.deep.equal([{ n: 1 }]);
    await expectIndexedAsTheNode(explorer, node);
    // An index with nothing new is caught up once its loop asks the node again, after the backoff
    // it was waiting out (at most 10 s): then no index shows the outage's error any more.
    const recovered = () => explorer.ingester.progress().every((p) => p.lastError === null && p.state === "caught-up");
    for (let i = 0; i < 600 && !recovered(); i++) await new Promise((r) => setTimeout(r, 25));
    expect(explorer.ingester.progress().map((p) => [p.index, p.state, p.lastError])).to.deep.equal(explorer.ingester.progress().map((p) => [p.index, "caught-up", null]));
  });
});
