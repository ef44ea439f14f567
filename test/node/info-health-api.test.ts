import { expect } from "chai";
import { X509Certificate } from "node:crypto";
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

import { encodeCb58, hexToBytes } from "../../src/encoding";
import { LOCAL_NETWORK } from "../../src/network/constants";
import type { ManagementOptions } from "../../src/node/management";
import { startManagedNode, type ManagedNode } from "../helpers/managed-node";

const NODE_ID = /^NodeID-[1-9A-HJ-NP-Za-km-z]+$/;

describe("info API (/ext/info) and health API (/ext/health)", function () {
  this.timeout(120_000);
  let n: ManagedNode;
  const result = async (p: string, method: string, params: unknown = {}) => {
    const { body } = await n.post(p, method, params);
    if (body.error !== undefined) throw new Error(body.error.message);
    return body.result as Record<string, unknown>;
  };
  const failure = async (p: string, method: string, params: unknown = {}) => (await n.post(p, method, params)).body.error;

  describe("info", () => {
    before(async () => {
      n = await startManagedNode({ publicIp: "10.1.2.3", stakingPort: 9671 });
    });
    after(async () => {
      await n.close();
    });

    it("getNetworkID answers the ID as a quoted number", async () => {
      expect(await result("/ext/info", "info.getNetworkID")).to.deep.equal({ networkID: "12345" });
    });

    it("getNetworkName answers 'local' for network 12345", async () => {
      expect(await result("/ext/info", "info.getNetworkName")).to.deep.equal({ networkName: "local" });
    });

    it("getBlockchainID resolves every alias and the IDs themselves", async () => {
      for (const [alias, id] of [["X", LOCAL_NETWORK.xChainId], ["avm", LOCAL_NETWORK.xChainId], ["C", LOCAL_NETWORK.cChainId], ["evm", LOCAL_NETWORK.cChainId], ["P", "11111111111111111111111111111111LpoYY"], [LOCAL_NETWORK.cChainId, LOCAL_NETWORK.cChainId]]) {
        expect(await result("/ext/info", "info.getBlockchainID", { alias }), alias).to.deep.equal({ blockchainID: id });
      }
    });

    it("getBlockchainID of an unknown alias: there is no ID with alias: <alias>", async () => {
      expect(await failure("/ext/info", "info.getBlockchainID", { alias: "Q" })).to.deep.include({ code: -32000, message: "there is no ID with alias: Q" });
    });

    it("isBootstrapped is true for the node's chains", async () => {
      for (const chain of ["X", "C", "P", LOCAL_NETWORK.xChainId]) expect(await result("/ext/info", "info.isBootstrapped", { chain })).to.deep.equal({ isBootstrapped: true });
    });

    it("isBootstrapped without chain: argument 'chain' not given", async () => {
      expect(await failure("/ext/info", "info.isBootstrapped", {})).to.deep.include({ code: -32000, message: "argument 'chain' not given" });
    });

    it("isBootstrapped of an unknown chain: there is no chain with alias/ID '<x>'", async () => {
      expect(await failure("/ext/info", "info.isBootstrapped", { chain: "Q" })).to.deep.include({ code: -32000, message: "there is no chain with alias/ID 'Q'" });
    });

    it("getTxFee answers quoted fees, under the recent and the legacy names", async () => {
      const fee = String(LOCAL_NETWORK.txFee);
      const create = String(LOCAL_NETWORK.createAssetTxFee);
      expect(await result("/ext/info", "info.getTxFee")).to.deep.equal({ txFee: fee, createAssetTxFee: create, creationTxFee: create });
    });

    it("getNodeID answers the hash of the staking certificate and a BLS proof of possession that verifies", async () => {
      const { nodeID, nodePOP } = (await result("/ext/info", "info.getNodeID")) as { nodeID: string; nodePOP: { publicKey: string; proofOfPossession: string } };
      expect(nodeID).to.match(NODE_ID);
      expect(nodeID).to.equal((await n.network.management.identity()).nodeID);
      const publicKey = hexToBytes(nodePOP.publicKey);
      const signature = hexToBytes(nodePOP.proofOfPossession);
      expect([publicKey.length, signature.length]).to.deep.equal([48, 96]);
      const bls = bls12_381.longSignatures;
      expect(bls.verify(signature, bls.hash(publicKey, "BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_"), publicKey)).to.equal(true);
    });

    it("getNodeIP answers the public IP and staking port", async () => {
      expect(await result("/ext/info", "info.getNodeIP")).to.deep.equal({ ip: "10.1.2.3:9671" });
    });

    it("getNodeVersion answers the version, database version, quoted protocol version, commit and VM versions", async () => {
      const version = await result("/ext/info", "info.getNodeVersion");
      expect(version.version).to.match(/^nativekit\/\d+\.\d+\.\d+/);
      expect(version.databaseVersion).to.equal("v1.4.5");
      expect(version.rpcProtocolVersion).to.match(/^\d+$/);
      expect(version.gitCommit).to.be.a("string");
      expect(Object.keys(version.vmVersions as object).sort()).to.deep.equal(["avm", "evm", "platform"]);
    });

    it("getVMs answers the VM IDs with their aliases and the feature extensions", async () => {
      expect(await result("/ext/info", "info.getVMs")).to.deep.equal({
        vms: {
          jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq: ["avm"],
          mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6: ["evm"],
          "11111111111111111111111111111111LpoYY": ["platform"],
        },
        fxs: {
          spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ: "secp256k1fx",
          qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT: "nftfx",
          rXJsCSEYXg2TehWxCEEGj6JU2PWKTkd6cBdNLjoe2SpsKD9cy: "propertyfx",
        },
      });
    });

    it("peers answers no peers for a single node, with or without a nodeIDs filter", async () => {
      expect(await result("/ext/info", "info.peers")).to.deep.equal({ numPeers: "0", peers: [] });
      expect(await result("/ext/info", "info.peers", { nodeIDs: ["NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"] })).to.deep.equal({ numPeers: "0", peers: [] });
    });

    it("peers refuses a nodeIDs entry that is not a node ID", async () => {
      const error = await failure("/ext/info", "info.peers", { nodeIDs: ["node-1"] });
      expect(error?.code).to.equal(-32602);
      expect(error?.message).to.include("nodeIDs[0] must be a node ID");
    });

    it("uptime answers 100 % as quoted 4-decimal floats: the node is its network's only validator", async () => {
      expect(await result("/ext/info", "info.uptime")).to.deep.equal({ rewardingStakePercentage: "100.0000", weightedAveragePercentage: "100.0000" });
    });

    it("uptime on another subnet: couldn't get node uptime: node is not a validator", async () => {
      const error = await failure("/ext/info", "info.uptime", { subnetID: "2bRCr6B4MiEfSjidDwxDpdCyviwnfUVqB2HGwhm947w9YYqb7r" });
      expect(error).to.deep.include({ code: -32000, message: "couldn't get node uptime: node is not a validator" });
    });
  });

  describe("health", () => {
    before(async () => {
      n = await startManagedNode();
    });
    after(async () => {
      await n.close();
    });

    for (const kind of ["health", "readiness"] as const) {
      it(`health.${kind} reports a healthy check per chain, each with the reference's fields`, async () => {
        const report = (await result("/ext/health", `health.${kind}`)) as { healthy: boolean; checks: Record<string, Record<string, unknown>> };
        expect(report.healthy).to.equal(true);
        for (const chain of ["C", "X"]) {
          const check = report.checks[chain]!;
          expect(Object.keys(check).sort()).to.deep.equal(["contiguousFailures", "duration", "message", "timeOfFirstFailure", "timestamp"]);
          expect(check.contiguousFailures).to.equal(0);
          expect(check.timeOfFirstFailure).to.equal(null);
          expect(Number.isNaN(Date.parse(check.timestamp as string))).to.equal(false);
          expect(check.duration).to.be.a("number");
        }
        expect(report.checks.C!.message).to.deep.include({ method: "eth_blockNumber", result: "0x0" });
      });
    }

    it("health.liveness reports the node itself", async () => {
      const report = (await result("/ext/health", "health.liveness")) as { healthy: boolean; checks: Record<string, unknown> };
      expect(report.healthy).to.equal(true);
      expect(Object.keys(report.checks)).to.deep.equal(["node"]);
    });

    it("GET /ext/health answers 200 with the health report", async () => {
      const answer = await n.get("/ext/health");
      expect(answer.status).to.equal(200);
      expect(answer.contentType).to.equal("application/json");
      expect(answer.body.healthy).to.equal(true);
      expect(Object.keys(answer.body.checks as object).sort()).to.deep.equal(["C", "X", "node"]);
    });

    it("GET /ext/health/readiness and /ext/health/liveness answer their reports", async () => {
      expect((await n.get("/ext/health/readiness")).body.checks).to.have.keys(["C", "X"]);
      expect((await n.get("/ext/health/liveness")).body.checks).to.have.keys(["node"]);
    });

    it("GET /ext/health answers 503 with the failing check once a chain stops answering, counting failures", async () => {
      n.network.routes["/ext/bc/X"] = () => Promise.reject(new Error("the exchange chain is stopped"));
      const broken = await startManagedNodeWithRoutes(n);
      try {
        const first = await broken.get("/ext/health");
        expect(first.status).to.equal(503);
        expect(first.body.healthy).to.equal(false);
        const x = (first.body.checks as Record<string, Record<string, unknown>>).X!;
        expect(x).to.deep.include({ error: "the exchange chain is stopped", contiguousFailures: 1 });
        expect(x.timeOfFirstFailure).to.be.a("string");
        const second = await broken.get("/ext/health");
        expect((second.body.checks as Record<string, Record<string, unknown>>).X).to.deep.include({ contiguousFailures: 2, timeOfFirstFailure: x.timeOfFirstFailure });
      } finally {
        await broken.close();
      }
    });

    it("POST to a GET-only path is refused with 405 naming GET", async () => {
      const response = await fetch(`${n.url}/ext/health/liveness`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect(response.status).to.equal(405);
      expect(response.headers.get("allow")).to.equal("GET, OPTIONS");
    });
  });

  describe("staking identity", () => {
    /** Management over no chain, served over HTTP, its identity read through a counting loader. */
    async function countingNode(options: ManagementOptions, failFirst = false) {
      const { createManagement } = await import("../../src/node/management");
      const { startHttpNode } = await import("../../src/node/http-server");
      const { loadStakingIdentity } = await import("../../src/node/staking");
      const loads = { count: 0 };
      const management = await createManagement(LOCAL_NETWORK, {}, {
        ...options,
        loadIdentity: async (staking) => {
          loads.count += 1;
          if (failFirst && loads.count === 1) throw new Error("the key generation failed");
          return loadStakingIdentity(staking);
        },
      });
      const node = await startHttpNode({ port: 0, routes: management.routes, getRoutes: management.getRoutes });
      const getNodeID = async () => {
        const response = await fetch(`${node.url}/ext/info`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "info.getNodeID", params: {} }) });
        return (await response.json()) as { result?: { nodeID: string }; error?: { message: string } };
      };
      return { management, node, loads, getNodeID };
    }

    it("one made for this run is made when first asked for, not at start, and only once", async () => {
      const { management, node, loads, getNodeID } = await countingNode({});
      try {
        expect(loads.count).to.equal(0);
        const first = await getNodeID();
        expect(first.result?.nodeID).to.match(NODE_ID);
        expect(loads.count).to.equal(1);
        expect(await getNodeID()).to.deep.equal(first);
        expect((await management.identity()).nodeID).to.equal(first.result?.nodeID);
        expect(loads.count).to.equal(1);
      } finally {
        await node.close();
      }
    });

    it("a failure to make it is reported to the caller, and the next call makes it again", async () => {
      const { node, loads, getNodeID } = await countingNode({}, true);
      try {
        expect((await getNodeID()).error?.message).to.match(/the key generation failed/);
        expect((await getNodeID()).result?.nodeID).to.match(NODE_ID);
        expect(loads.count).to.equal(2);
      } finally {
        await node.close();
      }
    });

    it("one kept in a staking directory is read at start", async () => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), "nativekit-staking-"));
      const { node, loads, getNodeID } = await countingNode({ stakingDir: dir });
      try {
        expect(loads.count).to.equal(1);
        expect((await getNodeID()).result?.nodeID).to.match(NODE_ID);
        expect(loads.count).to.equal(1);
      } finally {
        await node.close();
        await fs.rm(dir, { recursive: true, force: true });
      }
    });

    it("is kept in the staking directory: a node restarted on it has the same node ID", async () => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), "nativekit-staking-"));
      try {
        n = await startManagedNode({ stakingDir: dir });
        const first = (await result("/ext/info", "info.getNodeID")) as { nodeID: string; nodePOP: unknown };
        await n.close();
        n = await startManagedNode({ stakingDir: dir });
        expect(await result("/ext/info", "info.getNodeID")).to.deep.equal(first);
        await n.close();
        const certificate = new X509Certificate(await fs.readFile(path.join(dir, "staker.crt")));
        expect(first.nodeID).to.equal(`NodeID-${encodeCb58(ripemd160(sha256(new Uint8Array(certificate.raw))))}`);
        expect((await fs.readdir(dir)).sort()).to.deep.equal(["signer.key", "staker.crt", "staker.key"]);
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    });

    it("defaults to <db-dir>/staking when a data directory is given", async () => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), "nativekit-db-"));
      try {
        n = await startManagedNode({ dbDir: dir });
        await n.close();
        expect((await fs.readdir(path.join(dir, "staking"))).sort()).to.deep.equal(["signer.key", "staker.crt", "staker.key"]);
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    });

    it("uses the certificate of --staking-tls-cert-file/--staking-tls-key-file", async () => {
      const made = await fs.mkdtemp(path.join(os.tmpdir(), "nativekit-made-"));
      try {
        n = await startManagedNode({ stakingDir: made });
        const { nodeID } = (await result("/ext/info", "info.getNodeID")) as { nodeID: string };
        await n.close();
        n = await startManagedNode({ stakingTlsCertFile: path.join(made, "staker.crt"), stakingTlsKeyFile: path.join(made, "staker.key") });
        expect(((await result("/ext/info", "info.getNodeID")) as { nodeID: string }).nodeID).to.equal(nodeID);
        await n.close();
      } finally {
        await fs.rm(made, { recursive: true, force: true });
      }
    });

    it("refuses a key that is not the certificate's", async () => {
      const a = await fs.mkdtemp(path.join(os.tmpdir(), "nativekit-a-"));
      const b = await fs.mkdtemp(path.join(os.tmpdir(), "nativekit-b-"));
      try {
        await (await startManagedNode({ stakingDir: a })).close();
        await (await startManagedNode({ stakingDir: b })).close();
        let error: unknown;
        await startManagedNode({ stakingTlsCertFile: path.join(a, "staker.crt"), stakingTlsKeyFile: path.join(b, "staker.key") }).catch((e: unknown) => (error = e));
        expect((error as Error).message).to.match(/is not the key of the certificate/);
      } finally {
        await fs.rm(a, { recursive: true, force: true });
        await fs.rm(b, { recursive: true, force: true });
      }
    });
  });
});

/** Serves the routes of `n`'s network as they are now (with a chain replaced) on a new server. */
async function startManagedNodeWithRoutes(n: ManagedNode): Promise<ManagedNode> {
  const { startHttpNode } = await import("../../src/node/http-server");
  const { createManagement } = await import("../../src/node/management");
  const { PATHS } = await import("../../src/network/paths");
  const chainRoutes = { ...n.network.routes };
  delete chainRoutes[PATHS.info];
  delete chainRoutes[PATHS.health];
  const management = await createManagement(LOCAL_NETWORK, chainRoutes);
  const node = await startHttpNode({ port: 0, routes: management.routes, getRoutes: management.getRoutes });
  return {
    ...n,
    node,
    url: node.url,
    get: async (p) => {
      const response = await fetch(`${node.url}${p}`);
      return { status: response.status, contentType: response.headers.get("content-type"), body: (await response.json()) as Record<string, unknown> };
    },
    close: () => node.close(),
  };
}
