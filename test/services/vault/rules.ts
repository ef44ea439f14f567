/**
 * Every rule of the vault, over HTTP against a real in-process node, as one suite run on each
 * storage: `describeVaultRules("PGlite", …)` and `describeVaultRules("PostgreSQL server", …)`.
 */
import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createVaultClient, type VaultClient, VaultRequestError } from "../../../src/clients";
import { startVaultServer, type VaultServer, type VaultServiceOptions } from "../../../src/services/vault";
import type { PUnsignedTx } from "../../../src/pchain";
import { refusalOf } from "../../helpers/refusal";
import { ALIAS, aliasSpend, hex, nowSeconds, OUTPUT_OWNERS, OUTSIDER, OWNERS, RIVAL, signBytes, signedFromRecord, signText, startAliasNode, type TestNode, unsignedBytes } from "./helpers";

/** Where a vault keeps its data in one storage: options for a fresh vault, and for reopening the same data. */
export interface StorageUnderTest {
  /** Options of a vault on empty storage. */
  fresh(): Promise<Pick<VaultServiceOptions, "databaseUrl" | "dataDir" | "pgliteTemplate">>;
  close(): Promise<void>;
}

export const refusal = (promise: Promise<unknown>): Promise<VaultRequestError> => refusalOf(promise, VaultRequestError);

export function describeVaultRules(name: string, makeStorage: () => Promise<StorageUnderTest>): void {
  describe(`vault rules on ${name}`, function () {
    this.timeout(120_000);
    let node: TestNode;
    let storage: StorageUnderTest;
    let server: VaultServer;
    let vault: VaultClient;
    let shift = 0;
    const clock = () => nowSeconds() + shift;

    before(async () => {
      node = await startAliasNode({ withRival: true });
      storage = await makeStorage();
    });
    after(async () => {
      await node?.close();
      await storage?.close();
    });
    beforeEach(async () => {
      shift = 0;
      server = await startVaultServer({ nodeUrl: node.url, now: clock, ...(await storage.fresh()) });
      vault = createVaultClient({ url: server.url });
    });
    afterEach(async () => server?.close());

    const create = (tx: PUnsignedTx = aliasSpend(), creator: { key: Uint8Array } = OWNERS[0]!, extra: Record<string, unknown> = {}) =>
      vault.create({ alias: ALIAS, unsignedTx: hex(unsignedBytes(tx)), signature: signBytes(unsignedBytes(tx), creator.key), outputOwners: OUTPUT_OWNERS, ...extra });
    const listAuth = (key: Uint8Array, timestamp = String(clock())) => ({ timestamp, signature: signText(ALIAS + timestamp, key) });

    it("creates a pending transaction: owners and threshold from the node, the creator's signature kept, the rest empty", async () => {
      const tx = aliasSpend();
      const record = await create(tx, OWNERS[1]!, { metadata: "node signature here", parentTransaction: "0xabcd" });
      expect(record.alias).to.equal(ALIAS);
      expect(record.threshold).to.equal(2);
      expect(record.transactionId).to.equal("");
      expect(record.metadata).to.equal("node signature here");
      expect(record.parentTransaction).to.equal("0xabcd");
      expect(record.unsignedTx).to.equal(hex(unsignedBytes(tx)));
      expect(record.owners.map((o) => o.address)).to.deep.equal(OWNERS.map((o) => o.address));
      expect(record.owners.map((o) => o.signature !== "")).to.deep.equal([false, true, false]);
      expect(record.chainId).to.equal("11111111111111111111111111111111LpoYY");
      expect(record.expiration).to.be.closeTo(clock() + 14 * 24 * 3600, 5);
    });

    it("refuses a creator who is not an owner (403), a bad signature (401), bad hex and missing fields (400)", async () => {
      expect((await refusal(create(aliasSpend(), OUTSIDER))).status).to.equal(403);
      const bytes = unsignedBytes(aliasSpend());
      const base = { alias: ALIAS, unsignedTx: hex(bytes), signature: signBytes(bytes, OWNERS[0]!.key), outputOwners: OUTPUT_OWNERS };
      expect((await refusal(vault.create({ ...base, signature: "0x1234" }))).status).to.equal(401);
      expect((await refusal(vault.create({ ...base, signature: "" }))).message).to.match(/signature is empty/);
      const bad = await refusal(vault.create({ ...base, unsignedTx: "0xzz" }));
      expect(bad.status).to.equal(400);
      expect(bad.code).to.equal("bad_request");
      expect((await refusal(vault.create({ ...base, outputOwners: "" }))).status).to.equal(400);
      expect((await refusal(vault.create({ ...base, alias: "P-local1notanalias" }))).status).to.equal(400);
    });

    it("refuses a high-s signature (only the low-s encoding is valid)", async () => {
      const bytes = unsignedBytes(aliasSpend());
      const low = Buffer.from(signBytes(bytes, OWNERS[0]!.key).slice(2), "hex");
      const n = BigInt("0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
      const high = n - BigInt(`0x${low.subarray(32, 64).toString("hex")}`);
      low.set(Buffer.from(high.toString(16).padStart(64, "0"), "hex"), 32);
      low[64] = 1 - low[64]!;
      const error = await refusal(vault.create({ alias: ALIAS, unsignedTx: hex(bytes), signature: hex(low), outputOwners: OUTPUT_OWNERS }));
      expect(error.status).to.equal(401);
      expect(error.message).to.match(/high s/);
    });

    it("refuses an expiration in the past and hides expired transactions", async () => {
      expect((await refusal(create(aliasSpend(), OWNERS[0], { expiration: clock() - 1 }))).message).to.match(/expiration date has passed/);
      const record = await create(aliasSpend(), OWNERS[0], { expiration: clock() + 60 });
      shift = 61;
      expect(await vault.listPending(ALIAS, listAuth(OWNERS[0]!.key))).to.deep.equal([]);
      expect((await refusal(vault.sign(record.id, { signature: signBytes(unsignedBytes(aliasSpend()), OWNERS[1]!.key) }))).status).to.equal(404);
      // Expired, it no longer blocks a new one for the alias.
      await create(aliasSpend({ memo: "again" }));
    });

    it("refuses unsignedTx bytes that are not one whole platform transaction (400): the 42-byte header alone", async () => {
      const header = unsignedBytes(aliasSpend()).subarray(0, 42);
      const error = await refusal(vault.create({ alias: ALIAS, unsignedTx: hex(header), signature: signBytes(header, OWNERS[0]!.key), outputOwners: OUTPUT_OWNERS }));
      expect(error.status).to.equal(400);
      expect(error.message).to.match(/unsignedTx is not a platform transaction: /);
    });

    it("refuses to store under another alias a transaction pending for one (409), and keeps the first", async () => {
      const tx = aliasSpend();
      const record = await create(tx);
      const bytes = unsignedBytes(tx);
      const error = await refusal(vault.create({ alias: RIVAL.alias, unsignedTx: hex(bytes), signature: signBytes(bytes, RIVAL.key), outputOwners: OUTPUT_OWNERS }));
      expect(error.status).to.equal(409);
      expect(error.message).to.match(/already pending in the vault for another alias/);
      expect((await vault.listPending(ALIAS, listAuth(OWNERS[1]!.key))).map((r) => r.id)).to.deep.equal([record.id]);
    });

    it("keeps one pending transaction per alias and chain (409)", async () => {
      await create(aliasSpend({ memo: "first" }));
      const error = await refusal(create(aliasSpend({ memo: "second" })));
      expect(error.status).to.equal(409);
      expect(error.message).to.match(/already a pending tx/);
    });

    it("lists pending transactions to an owner with a fresh signed timestamp only", async () => {
      const record = await create();
      expect((await vault.listPending(ALIAS, listAuth(OWNERS[2]!.key))).map((r) => r.id)).to.deep.equal([record.id]);
      expect((await refusal(vault.listPending(ALIAS, listAuth(OUTSIDER.key)))).status).to.equal(403);
      const stale = await refusal(vault.listPending(ALIAS, listAuth(OWNERS[0]!.key, String(clock() - 301))));
      expect(stale.status).to.equal(401);
      expect(stale.message).to.match(/within 300 s/);
      const other = listAuth(OWNERS[0]!.key);
      expect((await refusal(vault.listPending(ALIAS, { ...other, timestamp: String(Number(other.timestamp) + 1) }))).status).to.equal(403);
    });

    it("adds an owner's signature; refuses a second one by the same owner (409) and a non-owner's (403)", async () => {
      const tx = aliasSpend();
      const record = await create(tx);
      const signed = await vault.sign(record.id, { signature: signBytes(unsignedBytes(tx), OWNERS[1]!.key) });
      expect(signed.owners.map((o) => o.signature !== "")).to.deep.equal([true, true, false]);
      expect((await refusal(vault.sign(record.id, { signature: signBytes(unsignedBytes(tx), OWNERS[1]!.key) }))).status).to.equal(409);
      expect((await refusal(vault.sign(record.id, { signature: signBytes(unsignedBytes(tx), OUTSIDER.key) }))).status).to.equal(403);
      expect((await refusal(vault.sign("00".repeat(32), { signature: signBytes(unsignedBytes(tx), OWNERS[1]!.key) }))).status).to.equal(404);
    });

    it("counts two owners signing at the same moment", async () => {
      const tx = aliasSpend();
      const record = await create(tx);
      await Promise.all([1, 2].map((i) => vault.sign(record.id, { signature: signBytes(unsignedBytes(tx), OWNERS[i]!.key) })));
      const [listed] = await vault.listPending(ALIAS, listAuth(OWNERS[0]!.key));
      expect(listed!.owners.every((o) => o.signature !== "")).to.equal(true);
    });

    it("refuses to issue before the threshold, sending nothing (409 '1 of 2 signatures')", async () => {
      const tx = aliasSpend();
      const record = await create(tx);
      const signedTx = signedFromRecord(tx, record);
      const error = await refusal(vault.issue({ signedTx: hex(signedTx), signature: signBytes(signedTx, OWNERS[0]!.key) }));
      expect(error.status).to.equal(409);
      expect(error.message).to.match(/: 1 of 2 signatures/);
      expect(error.message).to.match(/nothing was sent/);
    });

    it("keeps the transaction pending and answers the node's error when the node refuses it", async () => {
      const tx = aliasSpend({ utxoIndex: 7 }); // an output that does not exist
      let record = await create(tx);
      record = await vault.sign(record.id, { signature: signBytes(unsignedBytes(tx), OWNERS[1]!.key) });
      const signedTx = signedFromRecord(tx, record);
      const error = await refusal(vault.issue({ signedTx: hex(signedTx), signature: signBytes(signedTx, OWNERS[1]!.key) }));
      expect(error.status).to.equal(422);
      expect(error.message).to.match(/the node refused the transaction: /);
      const [still] = await vault.listPending(ALIAS, listAuth(OWNERS[0]!.key));
      expect(still!.id).to.equal(record.id);
      expect(still!.transactionId).to.equal("");
    });

    it("refuses an issue by a non-owner (403) and of a transaction it does not hold (404)", async () => {
      const tx = aliasSpend();
      const record = await create(tx);
      const signedTx = signedFromRecord(tx, record);
      expect((await refusal(vault.issue({ signedTx: hex(signedTx), signature: signBytes(signedTx, OUTSIDER.key) }))).status).to.equal(403);
      const other = signedFromRecord(aliasSpend({ memo: "unknown" }), record);
      expect((await refusal(vault.issue({ signedTx: hex(other), signature: signBytes(other, OWNERS[0]!.key) }))).status).to.equal(404);
    });

    it("lets the creator cancel with a fresh signed timestamp, and nobody else", async () => {
      const record = await create();
      const stamp = String(clock());
      expect((await refusal(vault.cancel({ id: record.id, timestamp: stamp, signature: signText(stamp, OWNERS[1]!.key) }))).status).to.equal(403);
      expect((await refusal(vault.cancel({ id: record.id, timestamp: String(clock() - 1000), signature: signText(String(clock() - 1000), OWNERS[0]!.key) }))).status).to.equal(401);
      await vault.cancel({ id: record.id, timestamp: stamp, signature: signText(stamp, OWNERS[0]!.key) });
      expect(await vault.listPending(ALIAS, listAuth(OWNERS[0]!.key))).to.deep.equal([]);
      expect((await refusal(vault.cancel({ id: record.id, timestamp: stamp, signature: signText(stamp, OWNERS[0]!.key) }))).status).to.equal(404);
    });

    it("answers unknown routes with 404 in the same JSON shape", async () => {
      const response = await fetch(`${server.url}/v1/multisig/a/b/c`);
      expect(response.status).to.equal(404);
      expect(Object.keys((await response.json()) as object).sort()).to.deep.equal(["error", "message"]);
    });

    it("keeps pending transactions and signatures across a restart of the vault", async () => {
      await server.close();
      const options = await storage.fresh();
      const dir = options.databaseUrl === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), "vault-restart-")) : undefined;
      const keep = { ...options, ...(dir === undefined ? {} : { dataDir: dir }) };
      try {
        server = await startVaultServer({ nodeUrl: node.url, now: clock, ...keep });
        vault = createVaultClient({ url: server.url });
        const tx = aliasSpend();
        const record = await create(tx);
        await vault.sign(record.id, { signature: signBytes(unsignedBytes(tx), OWNERS[2]!.key) });
        await server.close();
        server = await startVaultServer({ nodeUrl: node.url, now: clock, ...keep });
        vault = createVaultClient({ url: server.url });
        const [kept] = await vault.listPending(ALIAS, listAuth(OWNERS[1]!.key));
        expect(kept!.id).to.equal(record.id);
        expect(kept!.owners.map((o) => o.signature !== "")).to.deep.equal([true, false, true]);
      } finally {
        await server.close();
        server = await startVaultServer({ nodeUrl: node.url, now: clock, ...(await storage.fresh()) });
        if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
