import { expect } from "chai";
import { spawn } from "node:child_process";
import path from "node:path";
import { alive } from "../helpers/processes";


describe("nativekit node started through npm", () => {
  it("stops when npm's shell goes away without passing the signal on, leaving no orphan", async function () {
    this.timeout(40_000);
    const bin = path.join(__dirname, "..", "..", "bin", "nativekit.js");
    // What npx does: a shell runs the command; here the shell prints the node's pid and waits.
    const shell = spawn("sh", ["-c", `"${process.execPath}" "${bin}" node --port 0 --silent & echo $!; wait`], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, npm_command: "exec" },
    });
    let output = "";
    shell.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const started = Date.now();
    while (!/listening on http/.test(output) && Date.now() - started < 25_000) await new Promise((r) => setTimeout(r, 50));
    const nodePid = Number(/^(\d+)/.exec(output)?.[1]);
    expect(nodePid).to.be.greaterThan(0);
    expect(output).to.match(/listening on http/);
    shell.kill("SIGKILL");
    const killed = Date.now();
    while (alive(nodePid) && Date.now() - killed < 10_000) await new Promise((r) => setTimeout(r, 100));
    const stillRunning = alive(nodePid);
    if (stillRunning) process.kill(nodePid, "SIGKILL");
    expect(stillRunning, "the node outlived its parent").to.equal(false);
  });
});
