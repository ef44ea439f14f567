import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCli } from "../../../src/cli/cli";
import { createNodeChainsForCli } from "../../../src/cli/main";
import { createVaultClient } from "../../../src/clients";
import { ALIAS, ALIAS_ID, aliasSpend, hex, nowSeconds, OUTPUT_OWNERS, OWNERS, signBytes, signText, startAliasNode, unsignedBytes } from "./helpers";

/** Runs a long-lived command; answers its output so far, a way to stop it, and its exit code. */
function start(argv: string[], createNode: Parameters<typeof runCli>[1]["createNode"] = async () => Promise.reject(new Error("no node"))) {
  let out = "";
  let stop: (signal: "SIGINT" | "SIGTERM") => void = () => undefined;
  const exit = runCli(argv, { createNode, stdout: (t) => (out += t), stderr: (t) => (out += t), onSignal: (h) => ((stop = h), () => undefined) });
  return { output: () => out, stop: () => stop("SIGTERM"), exit };
}

async function waitFor(check: () => RegExpMatchArray | null): Promise<RegExpMatchArray> {
  for (let i = 0; i < 600; i++) {
    const match = check();
    if (match !== null) return match;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("timed out");
}

describe("vault: the command line", function () {
  this.timeout(120_000);

  it("nativekit vault --node URL --port 0 prints its data dir and serves /v1/multisig", async () => {
    const node = await startAliasNode();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vault-cli-"));
    const run = start(["vault", "--node", node.url, "--port", "0", "--data-dir", dir]);
    try {
      const [, url] = await waitFor(() => /listening on (http:\/\/\S+)\/v1\/multisig/.exec(run.output()));
      expect(run.output()).to.include(`vault data directory: ${dir}`);
      const bytes = unsignedBytes(aliasSpend());
      const record = await createVaultClient({ url: url! }).create({ alias: ALIAS, unsignedTx: hex(bytes), signature: signBytes(bytes, OWNERS[0]!.key), outputOwners: OUTPUT_OWNERS });
      expect(record.threshold).to.equal(2);
    } finally {
      run.stop();
      expect(await run.exit).to.equal(0);
      await node.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("nativekit node --vault serves the vault on the node's port", async () => {
    const platformGenesis = { initialMultisigAddresses: [{ addresses: OWNERS.map((o) => o.shortId), threshold: 2 }], allocations: [{ address: ALIAS_ID, amount: 10n ** 9n }] };
    const run = start(["node", "--port", "0", "--vault", "--silent"], () => createNodeChainsForCli({ platformGenesis }));
    try {
      const [, url] = await waitFor(() => /vault listening on (http:\/\/\S+)\/v1\/multisig/.exec(run.output()));
      const vault = createVaultClient({ url: url! });
      const bytes = unsignedBytes(aliasSpend());
      await vault.create({ alias: ALIAS, unsignedTx: hex(bytes), signature: signBytes(bytes, OWNERS[0]!.key), outputOwners: OUTPUT_OWNERS });
      const stamp = String(nowSeconds());
      expect(await vault.listPending(ALIAS, { timestamp: stamp, signature: signText(ALIAS + stamp, OWNERS[1]!.key) })).to.have.length(1);
    } finally {
      run.stop();
      expect(await run.exit).to.equal(0);
    }
  });
});
