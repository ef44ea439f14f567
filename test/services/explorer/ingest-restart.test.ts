import { expect } from "chai";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openExplorerService } from "../../../src/services/explorer";
import { alive } from "../../helpers/processes";
import { type FundedNode, newXAddress, startFundedNode, xSend } from "./helpers";
import { expectIndexedAsTheNode } from "./ingest-checks";

const BIN = path.join(__dirname, "..", "..", "..", "bin", "nativekit.js");
const SENDS = 40;

interface Status {
  indexes: { index: string; nextIndex: string; lastAccepted: string | null }[];
}

describe("explorer ingest: killed mid-ingest, it resumes from the last stored container", function () {
  this.timeout(180_000);
  let node: FundedNode;
  let dir: string;

  before(async () => {
    node = await startFundedNode();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "explorer-restart-"));
    const to = await newXAddress(node);
    for (let i = 0; i < SENDS; i++) await xSend(node, to, 1_000_000n + BigInt(i));
  });
  after(async () => {
    await node?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("stores each container once after a SIGKILL between two pages and a reopen of the same PGlite directory", async () => {
    const child = spawn(process.execPath, [BIN, "explorer", "--node", node.url, "--port", "0", "--data-dir", dir, "--page-size", "2", "--poll-interval", "10"], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
    const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
    let killedAt = -1;
    try {
      for (let i = 0; i < 2400 && killedAt < 0; i++) {
        const url = /explorer listening on (http:\/\/\S+) /.exec(output)?.[1];
        if (url !== undefined) {
          const status = (await (await fetch(`${url}/status`)).json()) as Status;
          const x = status.indexes.find((s) => s.index === "X-tx")!;
          if (Number(x.nextIndex) >= 4) killedAt = Number(x.nextIndex);
        }
        if (killedAt < 0) await new Promise((r) => setTimeout(r, 25));
      }
    } finally {
      child.kill("SIGKILL");
      await exited;
    }
    expect(alive(child.pid!)).to.equal(false);
    expect(killedAt, output).to.be.within(4, SENDS - 1);

    const explorer = await openExplorerService({ nodeUrl: node.url, dataDir: dir, pollIntervalMs: 20, autoStart: false });
    try {
      const [stored] = await explorer.database.query("SELECT next_index::int AS next FROM explorer_progress WHERE index_name = 'X-tx'");
      expect(stored!.next).to.be.at.least(killedAt).and.below(SENDS);
      await explorer.ingester.start();
      await explorer.ingester.waitUntilCaughtUp(60_000);
      await expectIndexedAsTheNode(explorer, node);
      const [txs] = await explorer.database.query("SELECT count(*)::int AS n FROM transactions WHERE chain_id = $1 AND NOT genesis", [explorer.context.chains.X]);
      expect(txs!.n).to.equal(SENDS);
    } finally {
      await explorer.close();
    }
  });
});
