import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCli } from "../../../src/cli/cli";
import { spawnCliNode } from "../../helpers/cli-node";
import { alive } from "../../helpers/processes";
import { startFundedNode, xSend, newXAddress } from "./helpers";
import { waitFor } from "../../helpers/wait-for";

/** Runs a long-lived command; answers its output so far, a way to stop it, and its exit code. */
function start(argv: string[]) {
  let out = "";
  let stop: (signal: "SIGINT" | "SIGTERM") => void = () => undefined;
  const exit = runCli(argv, { createNode: async () => Promise.reject(new Error("no node")), stdout: (t) => (out += t), stderr: (t) => (out += t), onSignal: (h) => ((stop = h), () => undefined) });
  return { output: () => out, stop: () => stop("SIGTERM"), exit };
}


interface StatusAnswer {
  networkID: number;
  indexes: { index: string; nextIndex: string; lastAccepted: string | null; behindBy: string | null; state: string; lastError: string | null }[];
}

describe("explorer: the command line", function () {
  this.timeout(120_000);

  it("nativekit explorer --node URL --port 0 prints its data dir and serves /status with each index's progress", async () => {
    const node = await startFundedNode();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "explorer-cli-"));
    const run = start(["explorer", "--node", node.url, "--port", "0", "--data-dir", dir]);
    try {
      const [, url] = await waitFor(() => /explorer listening on (http:\/\/\S+) /.exec(run.output()), "the explorer to listen");
      expect(run.output()).to.include(`explorer data directory: ${dir}`);
      await xSend(node, await newXAddress(node), 1_000_000n);
      const status = await waitFor(async () => {
        const answer = (await (await fetch(`${url}/status`)).json()) as StatusAnswer;
        return answer.indexes.find((i) => i.index === "X-tx" && i.state === "caught-up" && i.nextIndex === "1") === undefined ? null : answer;
      }, "the X index to be read");
      expect(status.indexes.map((i) => i.index)).to.deep.equal(["X-tx", "P-block", "C-block"]);
      // The JSON API, the pages and /status are all served: the API's 404 is JSON, a page's is HTML.
      const apiMissing = await fetch(`${url}/v2/transactions/11111111111111111111111111111111LpoYY`);
      expect(apiMissing.status).to.equal(404);
      expect(((await apiMissing.json()) as { code: number }).code).to.equal(404);
      const overview = (await (await fetch(`${url}/v2`)).json()) as { network_id: number };
      expect(overview.network_id).to.equal(status.networkID);
      const pageMissing = await fetch(`${url}/v9/nothing`);
      expect(pageMissing.status).to.equal(404);
      expect(pageMissing.headers.get("content-type")).to.match(/^text\/html/);
      const home = await fetch(`${url}/`);
      expect(home.status).to.equal(200);
      expect(await home.text()).to.include("<form");
    } finally {
      run.stop();
      expect(await run.exit).to.equal(0);
      await node.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("nativekit explorer against a node without indexing fails at once with the flag to set, creating no database", async () => {
    const node = await startFundedNode({ indexEnabled: false });
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "explorer-cli-")), "data");
    const run = start(["explorer", "--node", node.url, "--port", "0", "--data-dir", dir]);
    try {
      expect(await run.exit).to.equal(1);
      expect(run.output()).to.include(`error: the explorer could not start: the node at ${node.url} serves no index API (/ext/index/X/tx answered 404): start the node with --index-enabled`);
      expect(fs.existsSync(dir)).to.equal(false);
    } finally {
      await node.close();
      fs.rmSync(path.dirname(dir), { recursive: true, force: true });
    }
  });

  it("refuses a bad --port with the usage", async () => {
    const run = start(["explorer", "--port", "70000"]);
    expect(await run.exit).to.equal(2);
    expect(run.output()).to.include('invalid --port "70000"').and.include("Usage: nativekit explorer");
  });

  it("nativekit node --explorer serves the explorer under /explorer on the node's port and turns indexing on", async () => {
    const started = await spawnCliNode(["--explorer", "--silent"]);
    if (!started.started) throw new Error(`the node did not start:\n${started.output}`);
    const node = started.node;
    try {
      const line = await waitFor(() => /explorer listening on (http:\/\/\S+\/explorer) /.exec(node.output()), "the explorer line");
      expect(line[1]).to.equal(`${node.url}/explorer`);
      const status = (await (await fetch(`${node.url}/explorer/status`)).json()) as StatusAnswer;
      expect(status.indexes.every((i) => i.lastError === null)).to.equal(true);
      expect((await fetch(`${node.url}/explorer/nope`)).status).to.equal(404);
      const overview = (await (await fetch(`${node.url}/explorer/v2`)).json()) as { network_id: number };
      expect(overview.network_id).to.equal(status.networkID);
      const home = await (await fetch(`${node.url}/explorer/`)).text();
      expect(home).to.include(`href="/explorer/`);
    } finally {
      expect(await node.stop()).to.equal(0);
      expect(alive(node.pid)).to.equal(false);
    }
  });
});
