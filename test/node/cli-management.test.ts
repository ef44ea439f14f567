import { expect } from "chai";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnCliNode, startedCliNode } from "../helpers/cli-node";

/** Posts one JSON-RPC call and returns the result (throws the error's message). */
async function call(url: string, method: string, params: unknown): Promise<unknown> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error !== undefined) throw new Error(body.error.message);
  return body.result;
}

describe("nativekit node with the operator's flags", () => {
  it("serves the index and admin APIs it is asked for, and admin.setLogLevel governs its request lines", async function () {
    this.timeout(40_000);
    const bin = path.join(__dirname, "..", "..", "bin", "nativekit.js");
    const child = spawn(process.execPath, [bin, "node", "--port", "0", "--index-enabled", "--chainevm-admin-api-enabled"], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      const started = Date.now();
      while (!/listening on (http:\S+)/.test(output) && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 50));
      const base = /listening on (http:\/\/[^/\s]+)/.exec(output)![1]!;
      expect(output).to.contain("Index API: /ext/index/X/tx");
      expect(output).to.contain("Admin API: /ext/bc/C/admin");
      const [from] = (await call(`${base}/ext/bc/C/rpc`, "eth_accounts", [])) as string[];
      await call(`${base}/ext/bc/C/rpc`, "eth_sendTransaction", [{ from, to: from, value: "0x1" }]);
      const last = (await call(`${base}/ext/index/C/block`, "index.getLastAccepted", { encoding: "hex" })) as { index: string };
      expect(last.index).to.equal("0");
      await call(`${base}/ext/bc/C/admin`, "admin.setLogLevel", { level: "warn" });
      const before = output.length;
      await call(`${base}/ext/bc/C/rpc`, "eth_blockNumber", []);
      await new Promise((r) => setTimeout(r, 100)); // the request log is flushed every 20 ms
      expect(output.slice(before)).not.to.contain("eth_blockNumber");
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).to.equal(0);
  });
});

describe("nativekit node --genesis-file", () => {
  const owners = ["P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u", "P-local1h8c2eq2hmmdk74fruj6g50uut44pwf306mu5sq", "P-local1utxa8d3srpuvfv8nfk4lvw7tqqku6ka5qd69zl"];

  it("declares the multisig aliases of initialMultisigAddresses on the platform chain, and names the expected alias of a wrong one", async function () {
    this.timeout(240_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-genesis-"));
    const file = path.join(dir, "genesis.json");
    try {
      const entry = { addresses: owners, threshold: 2, memo: "treasury" };
      fs.writeFileSync(file, JSON.stringify({ initialMultisigAddresses: [{ ...entry, alias: owners[0] }] }));
      const refused = await spawnCliNode(["--genesis-file", file]);
      expect(refused.started).to.equal(false);
      const expected = /expected (P-local1[0-9a-z]+)/.exec(refused.started ? "" : refused.output)?.[1];
      expect(expected, refused.started ? "" : refused.output).to.be.a("string");

      fs.writeFileSync(file, JSON.stringify({ camino: { initialMultisigAddresses: [{ ...entry, alias: expected }] } }));
      const node = await startedCliNode(["--genesis-file", file, "--silent"]);
      try {
        const alias = await node.call<{ threshold: string; addresses: string[] }>("/ext/bc/P", "platform.getMultisigAlias", { address: expected });
        expect(alias.threshold).to.equal("2");
        expect([...alias.addresses].sort()).to.deep.equal([...owners].sort());
      } finally {
        await node.stop();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
