/**
 * Hostile input against the multisig vault (issue 26, items 4 and 9, and the vault's own
 * defects): a record one alias's owner stores to jam every other alias's issue, bytes that are
 * not a transaction, malformed percent-encoding, two issues of one record at once, and a node
 * that requires an auth token. Each test is an attack or a failure seen before the fix.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { expect } from "chai";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { createNodeVaultMount, runVaultCommand } from "../../../src/cli/vault-command";
import { createNodeClient, createPlatformChainClient, createTransport, createVaultClient, NODE_TOKEN_ENV, type VaultClient, type VaultRequestError } from "../../../src/clients";
import { decodeCb58 } from "../../../src/encoding";
import { PLATFORM_CHAIN_ID } from "../../../src/network/chains";
import { LOCAL_NETWORK } from "../../../src/network/constants";
import type { PUnsignedTx } from "../../../src/pchain";
import { openPgliteDatabase } from "../../../src/services/sql/pglite-database";
import type { SqlDatabase } from "../../../src/services/sql/database";
import { startVaultServer, type PlatformApi, type VaultServer } from "../../../src/services/vault";
import { VaultError } from "../../../src/services/vault/errors";
import { VaultEvents } from "../../../src/services/vault/events";
import { migrateVault } from "../../../src/services/vault/schema";
import { VaultStore } from "../../../src/services/vault/store";
import { Vault } from "../../../src/services/vault/vault";
import { refusalOf } from "../../helpers/refusal";
import { ALIAS, aliasSpend, hex, nowSeconds, OUTPUT_OWNERS, OWNERS, pgliteTemplate, RIVAL, signBytes, signedFromRecord, signText, startAliasNode, type TestNode, unsignedBytes } from "./helpers";
import { refusal } from "./rules";

/** The 42 bytes every platform BaseTx of the local network starts with: codec version, type ID, network ID, chain ID. */
const SHARED_HEADER = unsignedBytes(aliasSpend()).subarray(0, 42);
const PASSWORD = "vault-hostile-password-7";

/** What the vault said, without the client's "vault answered <status> <code>: " in front. */
const said = (error: VaultRequestError): string => error.message.replace(/^vault answered \d+ \w+: /, "");

/** A gate the test opens: `wait()` resolves once `open()` is called. */
function gate(): { wait: () => Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { wait: () => opened, open };
}

/** The node's platform API with every `issueTx` counted, the first one held until `held` opens. */
function countingPlatform(nodeUrl: string, held?: { reached: () => void; release: Promise<void> }): PlatformApi & { sent: number } {
  const real = createPlatformChainClient({ transport: createTransport({ url: nodeUrl }) });
  const platform = {
    sent: 0,
    getMultisigAlias: real.getMultisigAlias.bind(real),
    getTxStatus: real.getTxStatus.bind(real),
    issueTx: async (...args: Parameters<PlatformApi["issueTx"]>) => {
      platform.sent++;
      if (platform.sent === 1 && held !== undefined) {
        held.reached();
        await held.release;
      }
      return real.issueTx(...args);
    },
  };
  return platform;
}

describe("hostile input against the vault", function () {
  this.timeout(120_000);
  let node: TestNode;

  describe("one alias's record against another alias (the jamming attack)", () => {
    let server: VaultServer;
    let vault: VaultClient;
    let platform: PlatformApi & { sent: number };

    before(async () => {
      node = await startAliasNode({ withRival: true });
    });
    after(async () => node?.close());
    beforeEach(async () => {
      platform = countingPlatform(node.url);
      server = await startVaultServer({ nodeUrl: node.url, platform, pgliteTemplate: await pgliteTemplate() });
      vault = createVaultClient({ url: server.url });
    });
    afterEach(async () => server?.close());

    /** The victim's transaction created by owner 0 and signed by owner 1: ready to issue. */
    async function victimReady(tx: PUnsignedTx = aliasSpend()) {
      const unsigned = unsignedBytes(tx);
      const created = await vault.create({ alias: ALIAS, unsignedTx: hex(unsigned), signature: signBytes(unsigned, OWNERS[0]!.key), outputOwners: OUTPUT_OWNERS });
      const record = await vault.sign(created.id, { signature: signBytes(unsigned, OWNERS[1]!.key) });
      return { record, signedTx: signedFromRecord(tx, record) };
    }
    /** The rival's record of the shared header, written to the database as a vault before the fix stored it. */
    async function storeJammingRecord(): Promise<string> {
      const id = Buffer.from(sha256(SHARED_HEADER)).toString("hex");
      const now = nowSeconds() - 60; // older than the victim's
      await new VaultStore(server.service.database).create(
        {
          id,
          unsignedTx: Buffer.from(SHARED_HEADER).toString("hex"),
          alias: RIVAL.alias,
          chainId: PLATFORM_CHAIN_ID,
          threshold: 1,
          outputOwners: "00",
          metadata: "",
          parentTransaction: "",
          creator: RIVAL.address,
          expiresAt: now + 3600,
          createdAt: now,
          owners: [RIVAL.address],
          creatorSignature: signBytes(SHARED_HEADER, RIVAL.key).slice(2),
        },
        now,
      );
      return id;
    }
    const pendingOf = async (alias: string, key: Uint8Array) => {
      const stamp = String(nowSeconds());
      return (await vault.listPending(alias, { timestamp: stamp, signature: signText(alias + stamp, key) })).map((r) => r.id);
    };

    it("refuses at POST the 42-byte header every platform BaseTx shares (400), storing nothing", async () => {
      const error = await refusal(vault.create({ alias: RIVAL.alias, unsignedTx: hex(SHARED_HEADER), signature: signBytes(SHARED_HEADER, RIVAL.key), outputOwners: OUTPUT_OWNERS }));
      expect(error.status).to.equal(400);
      expect(said(error)).to.match(/^unsignedTx is not a platform transaction: /);
      expect(await pendingOf(RIVAL.alias, RIVAL.key)).to.deep.equal([]);
    });

    it("refuses unsignedTx bytes that are not a transaction (400), saying where decoding stopped", async () => {
      const junk = new Uint8Array(120).fill(7);
      const error = await refusal(vault.create({ alias: ALIAS, unsignedTx: hex(junk), signature: signBytes(junk, OWNERS[0]!.key), outputOwners: OUTPUT_OWNERS }));
      expect(error.status).to.equal(400);
      expect(said(error)).to.match(/^unsignedTx is not a platform transaction: .*codecVersion/);
    });

    it("refuses a complete transaction followed by extra bytes (400)", async () => {
      const bytes = Buffer.concat([unsignedBytes(aliasSpend()), Buffer.from([0])]);
      const error = await refusal(vault.create({ alias: ALIAS, unsignedTx: hex(bytes), signature: signBytes(bytes, OWNERS[0]!.key), outputOwners: OUTPUT_OWNERS }));
      expect(error.status).to.equal(400);
      expect(said(error)).to.match(/^unsignedTx is not a platform transaction: /);
    });

    it("refuses a transaction of another chain than the alias's (400), naming both", async () => {
      const bytes = unsignedBytes({ ...aliasSpend(), blockchainId: decodeCb58(LOCAL_NETWORK.xChainId) });
      const error = await refusal(vault.create({ alias: ALIAS, unsignedTx: hex(bytes), signature: signBytes(bytes, OWNERS[0]!.key), outputOwners: OUTPUT_OWNERS }));
      expect(error.status).to.equal(400);
      expect(said(error)).to.equal(`unsignedTx is a transaction of chain ${LOCAL_NETWORK.xChainId}, not of the platform chain (${PLATFORM_CHAIN_ID}) of alias ${ALIAS}`);
    });

    it("a record of another alias, older and a prefix of the victim's transaction, does not make the victim's issue fail", async () => {
      await storeJammingRecord();
      const { record, signedTx } = await victimReady();
      const { txID } = await vault.issue({ signedTx: hex(signedTx), signature: signBytes(signedTx, OWNERS[1]!.key) });
      expect(await pendingOf(ALIAS, OWNERS[0]!.key)).to.deep.equal([]);
      const rows = await server.service.database.query("SELECT transaction_id FROM multisig_tx WHERE id = $1", [record.id]);
      expect(rows[0]!.transaction_id).to.equal(txID);
    });

    it("the other alias's owner cannot issue the victim's transaction (403), and no record is marked issued", async () => {
      const jamming = await storeJammingRecord();
      const { record, signedTx } = await victimReady();
      const error = await refusal(vault.issue({ signedTx: hex(signedTx), signature: signBytes(signedTx, RIVAL.key) }));
      expect(error.status).to.equal(403);
      expect(platform.sent).to.equal(0);
      expect(await pendingOf(ALIAS, OWNERS[0]!.key)).to.deep.equal([record.id]);
      expect(await pendingOf(RIVAL.alias, RIVAL.key)).to.deep.equal([jamming]);
    });

    it("issue matches the exact unsigned bytes: a signed tx with bytes after the credentials is refused (400), nothing sent", async () => {
      const { signedTx } = await victimReady();
      const longer = Buffer.concat([signedTx, Buffer.from([0, 0, 0, 0])]);
      const error = await refusal(vault.issue({ signedTx: hex(longer), signature: signBytes(longer, OWNERS[1]!.key) }));
      expect(error.status).to.equal(400);
      expect(said(error)).to.match(/^signedTx is not a signed platform transaction: /);
      expect(platform.sent).to.equal(0);
    });

    it("the other alias's owner cannot store the victim's pending transaction under its own alias (409), and the victim's record stays", async () => {
      const { record } = await victimReady();
      const bytes = unsignedBytes(aliasSpend());
      const error = await refusal(vault.create({ alias: RIVAL.alias, unsignedTx: hex(bytes), signature: signBytes(bytes, RIVAL.key), outputOwners: OUTPUT_OWNERS }));
      expect(error.status).to.equal(409);
      expect(said(error)).to.equal(`this transaction is already pending in the vault for another alias (id ${record.id})`);
      const stamp = String(nowSeconds());
      const [kept] = await vault.listPending(ALIAS, { timestamp: stamp, signature: signText(ALIAS + stamp, OWNERS[2]!.key) });
      expect(kept!.owners.map((o) => o.signature !== "")).to.deep.equal([true, true, false]);
    });
  });

  describe("malformed percent-encoding", () => {
    let server: VaultServer;
    before(async () => {
      node = await startAliasNode();
      server = await startVaultServer({ nodeUrl: node.url, pgliteTemplate: await pgliteTemplate() });
    });
    after(async () => {
      await server?.close();
      await node?.close();
    });

    const answer = async (method: string, path: string) => {
      const response = await fetch(`${server.url}${path}`, { method, ...(method === "PUT" ? { body: "{}", headers: { "content-type": "application/json" } } : {}) });
      return { status: response.status, body: (await response.json()) as { error: string; message: string } };
    };

    for (const [method, path] of [
      ["GET", "/v1/multisig/%E0%A4%A"],
      ["GET", "/v1/multisig/%zz"],
      ["PUT", "/v1/multisig/%"],
      ["GET", "/v1/multisig/%C0%AF/events"],
    ] as const) {
      it(`answers 400, not 500, to malformed percent-encoding in the path: ${method} ${path}`, async () => {
        const { status, body } = await answer(method, path);
        expect(status).to.equal(400);
        expect(body.error).to.equal("bad_request");
        expect(body.message).to.match(/^the request path is not valid percent-encoding: /);
      });
    }

    for (const query of ["?signature=%E0%A4%A&timestamp=1", "?signature=0x00&timestamp=%zz", "?sig%nature=1"]) {
      it(`answers 400 to malformed percent-encoding in the query: ${query}`, async () => {
        const { status, body } = await answer("GET", `/v1/multisig/${ALIAS}${query}`);
        expect(status).to.equal(400);
        expect(body.message).to.match(/^the request query is not valid percent-encoding: /);
      });
    }
  });

  describe("two issues of one record at once", () => {
    // A node per test: each issues the alias's one genesis output.
    beforeEach(async () => {
      node = await startAliasNode();
    });
    afterEach(async () => node?.close());

    async function readyOn(vault: VaultClient, tx: PUnsignedTx = aliasSpend()) {
      const unsigned = unsignedBytes(tx);
      const created = await vault.create({ alias: ALIAS, unsignedTx: hex(unsigned), signature: signBytes(unsigned, OWNERS[0]!.key), outputOwners: OUTPUT_OWNERS });
      const record = await vault.sign(created.id, { signature: signBytes(unsigned, OWNERS[2]!.key) });
      return signedFromRecord(tx, record);
    }

    it("sends the transaction once when the second issue arrives while the first is at the node (409 to the second)", async () => {
      const reached = gate();
      const release = gate();
      const platform = countingPlatform(node.url, { reached: reached.open, release: release.wait() });
      const server = await startVaultServer({ nodeUrl: node.url, platform, pgliteTemplate: await pgliteTemplate() });
      try {
        const vault = createVaultClient({ url: server.url });
        const signedTx = await readyOn(vault, aliasSpend({ slots: [0, 2] }));
        const first = vault.issue({ signedTx: hex(signedTx), signature: signBytes(signedTx, OWNERS[0]!.key) });
        await reached.wait();
        const second = await refusal(vault.issue({ signedTx: hex(signedTx), signature: signBytes(signedTx, OWNERS[2]!.key) }));
        release.open();
        expect((await first).txID).to.be.a("string");
        expect(second.status).to.equal(409);
        expect(platform.sent).to.equal(1);
      } finally {
        release.open();
        await server.close();
      }
    });

    it("sends the transaction once when several issue requests arrive together", async () => {
      const platform = countingPlatform(node.url);
      const server = await startVaultServer({ nodeUrl: node.url, platform, pgliteTemplate: await pgliteTemplate() });
      try {
        const vault = createVaultClient({ url: server.url });
        const signedTx = await readyOn(vault, aliasSpend({ slots: [0, 2], memo: "together" }));
        const results = await Promise.allSettled([0, 2, 0, 2].map((owner) => vault.issue({ signedTx: hex(signedTx), signature: signBytes(signedTx, OWNERS[owner]!.key) })));
        expect(results.filter((r) => r.status === "fulfilled")).to.have.length(1);
        expect(platform.sent).to.equal(1);
      } finally {
        await server.close();
      }
    });

    describe("two vaults on one database", () => {
      let db: SqlDatabase;
      before(async () => {
        db = await openPgliteDatabase(undefined, { template: await pgliteTemplate() });
        await migrateVault(db);
      });
      after(async () => db?.close());

      it("a second vault does not send a record the first vault is issuing (409), though the node does not have it yet", async () => {
        const reached = gate();
        const release = gate();
        const slow = countingPlatform(node.url, { reached: reached.open, release: release.wait() });
        const other = countingPlatform(node.url);
        const one = new Vault({ store: new VaultStore(db), platform: slow, events: new VaultEvents() });
        const two = new Vault({ store: new VaultStore(db), platform: other, events: new VaultEvents() });
        const tx = aliasSpend({ memo: "two vaults" });
        const unsigned = unsignedBytes(tx);
        const created = await one.create({ alias: ALIAS, unsignedTx: hex(unsigned), signature: signBytes(unsigned, OWNERS[0]!.key), outputOwners: OUTPUT_OWNERS });
        const record = await one.sign(created.id, signBytes(unsigned, OWNERS[1]!.key));
        const signedTx = signedFromRecord(tx, record);
        const first = one.issue(hex(signedTx), signBytes(signedTx, OWNERS[0]!.key));
        await reached.wait();
        const error = await refusalOf(two.issue(hex(signedTx), signBytes(signedTx, OWNERS[1]!.key)), VaultError);
        release.open();
        expect((await first).txID).to.be.a("string");
        expect(error.status).to.equal(409);
        expect(other.sent).to.equal(0);
      });
    });
  });

  describe("a node started with --api-auth-required", () => {
    let token: string;
    before(async () => {
      node = await startAliasNode({ management: { apiAuthRequired: true, apiAuthPassword: PASSWORD } });
      token = await createNodeClient({ url: node.url }).auth.newToken(PASSWORD, ["*"]);
    });
    after(async () => node?.close());

    const createOn = (url: string) => {
      const bytes = unsignedBytes(aliasSpend());
      return createVaultClient({ url }).create({ alias: ALIAS, unsignedTx: hex(bytes), signature: signBytes(bytes, OWNERS[0]!.key), outputOwners: OUTPUT_OWNERS });
    };

    it("a vault given nodeToken reads the alias's owners from the node", async () => {
      const server = await startVaultServer({ nodeUrl: node.url, nodeToken: token, pgliteTemplate: await pgliteTemplate() });
      try {
        expect((await createOn(server.url)).threshold).to.equal(2);
      } finally {
        await server.close();
      }
    });

    it("a vault given a token function asks it for the token", async () => {
      let asked = 0;
      const server = await startVaultServer({ nodeUrl: node.url, nodeToken: async () => (asked++, token), pgliteTemplate: await pgliteTemplate() });
      try {
        expect((await createOn(server.url)).threshold).to.equal(2);
        expect(asked).to.equal(1);
      } finally {
        await server.close();
      }
    });

    it("a vault without a token answers 502 saying the node requires one and how to give it", async () => {
      const server = await startVaultServer({ nodeUrl: node.url, pgliteTemplate: await pgliteTemplate() });
      try {
        const error = await refusal(createOn(server.url));
        expect(error.status).to.equal(502);
        expect(said(error)).to.match(/^the node refused the vault's call platform\.getMultisigAlias: it requires an auth token \(give the vault one: --node-token or NATIVEKIT_NODE_TOKEN\)/);
      } finally {
        await server.close();
      }
    });

    /** Runs `nativekit vault` on a free port until its URL is printed; answers it and a way to stop it. */
    async function runCommand(args: string[], env: Record<string, string | undefined>) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vault-token-"));
      let out = "";
      let stop: (signal: "SIGINT" | "SIGTERM") => void = () => undefined;
      const exit = runVaultCommand(["--node", node.url, "--port", "0", "--data-dir", dir, ...args], { stdout: (t) => (out += t), stderr: (t) => (out += t), onSignal: (h) => ((stop = h), () => undefined), env });
      for (let i = 0; i < 600 && !/listening on /.test(out); i++) await new Promise((r) => setTimeout(r, 50));
      const url = /listening on (http:\/\/\S+)\/v1\/multisig/.exec(out)?.[1];
      if (url === undefined) {
        fs.rmSync(dir, { recursive: true, force: true });
        throw new Error(`the vault did not start: ${out}`);
      }
      return {
        url,
        close: async () => {
          stop("SIGTERM");
          const code = await exit;
          fs.rmSync(dir, { recursive: true, force: true });
          return code;
        },
      };
    }

    it("nativekit vault --node-token TOKEN calls the node with it", async () => {
      const run = await runCommand(["--node-token", token], {});
      try {
        expect((await createOn(run.url)).threshold).to.equal(2);
      } finally {
        expect(await run.close()).to.equal(0);
      }
    });

    it(`nativekit vault takes the token from ${NODE_TOKEN_ENV} when no flag gives one`, async () => {
      const run = await runCommand([], { [NODE_TOKEN_ENV]: token });
      try {
        expect((await createOn(run.url)).threshold).to.equal(2);
      } finally {
        expect(await run.close()).to.equal(0);
      }
    });

    it(`nativekit vault prefers --node-token to ${NODE_TOKEN_ENV}`, async () => {
      const run = await runCommand(["--node-token", token], { [NODE_TOKEN_ENV]: "not-a-token" });
      try {
        expect((await createOn(run.url)).threshold).to.equal(2);
      } finally {
        expect(await run.close()).to.equal(0);
      }
    });

    it("the vault mounted in the node calls the node with the token given to start", async () => {
      const mount = createNodeVaultMount(undefined);
      const server = http.createServer((req, res) => mount.prefixHandlers["/v1/multisig"]!(req, res));
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      try {
        await mount.start(node.url, token);
        expect((await createOn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)).threshold).to.equal(2);
      } finally {
        await mount.close();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });
});
