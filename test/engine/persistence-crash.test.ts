import { expect } from "chai";
import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createNativeProvider } from "../../src/engine";
import { durableStore, LevelBackend } from "../../src/storage";

const WRITER = path.join(__dirname, "..", "helpers", "chain-writer.ts");
const ASSET = "0x" + "7".padStart(64, "0");

/** Runs the writer on `dir` until it has answered `answers` transactions (and a few ms more), then kills it with SIGKILL. */
function runAndKill(dir: string, answers: number): Promise<{ hashes: string[]; lastAsset: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", WRITER, dir], { stdio: ["ignore", "pipe", "pipe"] });
    const hashes: string[] = [];
    let lastAsset = 0;
    let buffer = "";
    let stderr = "";
    let killing = false;
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split("\n");
      buffer = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith("0x")) hashes.push(line);
        else if (line.startsWith("asset ")) lastAsset = Number(line.slice(6));
      }
      if (!killing && hashes.length >= answers) {
        killing = true;
        // Somewhere in the middle of the next transactions.
        setTimeout(() => child.kill("SIGKILL"), Math.floor(Math.random() * 15));
      }
    });
    child.on("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve({ hashes, lastAsset });
      else reject(new Error(`the writer exited with ${code}: ${stderr}`));
    });
  });
}

describe("contract chain persistence: kill -9", function () {
  this.timeout(120_000);

  it("loses no answered transaction or edit, and leaves a store that opens, run after run", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "nativekit-crash-"));
    try {
      const answered: string[] = [];
      for (let run = 0; run < 2; run++) {
        const { hashes, lastAsset } = await runAndKill(dir, 25);
        answered.push(...hashes);
        const backend = await LevelBackend.open(dir);
        try {
          const provider = await createNativeProvider({ store: durableStore(backend).namespace("c/") });
          expect(provider.engine.restored).to.equal(true);
          for (const hash of answered) {
            const receipt = (await provider.request({ method: "eth_getTransactionReceipt", params: [hash] })) as { status: string } | null;
            expect(receipt, `transaction ${hash} was answered before the kill`).to.not.equal(null);
          }
          const [, to] = (await provider.request({ method: "eth_accounts" })) as string[];
          const asset = BigInt((await provider.request({ method: "eth_getAssetBalance", params: [to, "latest", ASSET] })) as string);
          expect(asset >= BigInt(lastAsset), "the last answered asset edit").to.equal(true);
        } finally {
          await backend.close();
        }
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
