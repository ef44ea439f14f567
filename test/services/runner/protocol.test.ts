/** The runner's proto: found from the sources, shipped in the package, declaring the reference's names. */
import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { protoPath, runnerProtocol } from "../../../src/services/runner/protocol";

const ROOT = path.join(__dirname, "..", "..", "..");

describe("network runner: protocol", () => {
  it("loads proto/rpcpb/rpc.proto from the package's root", () => {
    expect(protoPath()).to.equal(path.join(ROOT, "proto", "rpcpb", "rpc.proto"));
  });

  it("ships the proto in the npm package (package.json files)", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { files: string[] };
    expect(pkg.files).to.include("proto");
  });

  it("declares PingService and ControlService with the reference's method paths", () => {
    const { ping, control } = runnerProtocol();
    expect(Object.values(ping).map((m) => m.path)).to.deep.equal(["/rpcpb.PingService/Ping"]);
    expect(Object.values(control).map((m) => m.path).sort()).to.deep.equal(
      ["RPCVersion", "Start", "Health", "URIs", "WaitForHealthy", "Status", "StreamStatus", "RemoveNode", "AddNode", "RestartNode", "PauseNode", "ResumeNode", "Stop"]
        .map((m) => `/rpcpb.ControlService/${m}`)
        .sort(),
    );
    expect(control.StreamStatus!.responseStream).to.equal(true);
  });
});
