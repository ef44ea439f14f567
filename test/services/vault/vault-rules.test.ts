/**
 * The vault's rules one by one, on the `Vault` itself: its storage an in-memory PGlite whose
 * tables are emptied before each test, the node a fake platform API whose answers each
 * test sets (an alias, a refusal, no answer, a transaction's status), the clock a number the
 * test moves. The HTTP suite (`rules.ts`) runs the same rules against a real node; these reach
 * the boundaries and the node's failures it cannot.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { expect } from "chai";
import { type MultisigAliasInfo, NodeApiError, type PlatformTxStatus } from "../../../src/clients";
import { encodeCb58 } from "../../../src/encoding";
import type { PUnsignedTx } from "../../../src/pchain";
import type { SqlDatabase } from "../../../src/services/sql/database";
import { openPgliteDatabase } from "../../../src/services/sql/pglite-database";
import { VaultError } from "../../../src/services/vault/errors";
import { type VaultEvent, VaultEvents } from "../../../src/services/vault/events";
import { migrateVault } from "../../../src/services/vault/schema";
import { VaultStore } from "../../../src/services/vault/store";
import { type CreateRequest, DEFAULT_EXPIRATION_SECONDS, DEFAULT_SIGNED_TIMESTAMP_WINDOW_SECONDS, ISSUE_CLAIM_STALE_SECONDS, type PlatformApi, Vault } from "../../../src/services/vault/vault";
import type { MultisigTxView } from "../../../src/services/vault/view";
import { refusalOf } from "../../helpers/refusal";
import { ALIAS, aliasSpend, hex, OUTPUT_OWNERS, OUTSIDER, OWNERS, pAddress, pgliteTemplate, signBytes, signedFromRecord, signText, unsignedBytes } from "./helpers";

const NOW = 1_800_000_000;
const DAY = 24 * 3600;
const nodeContext = { method: "platform.x", path: "/ext/bc/P", url: "http://127.0.0.1:9650/ext/bc/P" };
const nodeRefusal = (message: string) => new NodeApiError(nodeContext, { code: -32000, message });

/** The node as the vault sees it: each answer set by the test, each call recorded. */
class FakePlatform implements PlatformApi {
  alias: MultisigAliasInfo = { memo: "", locktime: 0n, threshold: 2, addresses: OWNERS.map((o) => o.address) };
  aliasFailure: Error | undefined;
  aliasAsked: string[] = [];
  issueFailure: Error | undefined;
  issued: { tx: unknown; encoding: unknown }[] = [];
  status: PlatformTxStatus = "Unknown";
  statusAsked: string[] = [];

  async getMultisigAlias(parameters: { address: string }): Promise<MultisigAliasInfo> {
    this.aliasAsked.push(parameters.address);
    if (this.aliasFailure !== undefined) throw this.aliasFailure;
    return this.alias;
  }
  async issueTx(parameters: { tx: unknown; encoding?: unknown }): Promise<string> {
    this.issued.push({ tx: parameters.tx, encoding: parameters.encoding });
    if (this.issueFailure !== undefined) throw this.issueFailure;
    return encodeCb58(sha256(parameters.tx as Uint8Array));
  }
  async getTxStatus(parameters: { txID: string }): Promise<PlatformTxStatus> {
    this.statusAsked.push(parameters.txID);
    return this.status;
  }
}

const refusal = (promise: Promise<unknown>): Promise<VaultError> => refusalOf(promise, VaultError);

describe("vault rules, one by one (the Vault on PGlite, a fake node)", function () {
  this.timeout(120_000);
  let db: SqlDatabase;
  let store: VaultStore;
  let platform: FakePlatform;
  let events: VaultEvents;
  let seen: VaultEvent[];
  let now: number;
  let vault: Vault;

  const open = (options: { store?: VaultStore; now?: () => number; timestampWindowSeconds?: number } = {}) =>
    new Vault({ store: options.store ?? store, platform, events, now: "now" in options ? options.now : () => now, timestampWindowSeconds: options.timestampWindowSeconds });

  // One database for the file, emptied before each test: the same empty tables a fresh one has,
  // without starting PGlite 64 times (0.4 s each).
  before(async () => {
    db = await openPgliteDatabase(undefined, { template: await pgliteTemplate() });
    await migrateVault(db);
  });
  after(async () => db?.close());

  beforeEach(async () => {
    await db.query("TRUNCATE multisig_tx, multisig_tx_owners");
    store = new VaultStore(db);
    platform = new FakePlatform();
    events = new VaultEvents();
    seen = [];
    events.follow(ALIAS, (event) => seen.push(event));
    now = NOW;
    vault = open();
  });

  const request = (tx: PUnsignedTx = aliasSpend(), creator: { key: Uint8Array } = OWNERS[0]!, extra: Partial<CreateRequest> = {}): CreateRequest => ({
    alias: ALIAS,
    unsignedTx: hex(unsignedBytes(tx)),
    signature: signBytes(unsignedBytes(tx), creator.key),
    outputOwners: OUTPUT_OWNERS,
    ...extra,
  });
  /** A request for arbitrary unsigned bytes (the vault decodes them: most are refused). */
  const rawRequest = (bytes: Uint8Array, extra: Partial<CreateRequest> = {}): CreateRequest => ({
    alias: ALIAS,
    unsignedTx: hex(bytes),
    signature: signBytes(bytes, OWNERS[0]!.key),
    outputOwners: OUTPUT_OWNERS,
    ...extra,
  });
  const signTx = (record: MultisigTxView, tx: PUnsignedTx, owner: number) => vault.sign(record.id, signBytes(unsignedBytes(tx), OWNERS[owner]!.key));
  /** Created by owner 0 and signed by owner 1: ready to issue; answers the signed tx. */
  async function ready(tx: PUnsignedTx = aliasSpend()): Promise<{ record: MultisigTxView; signedTx: Uint8Array }> {
    const record = await signTx(await vault.create(request(tx)), tx, 1);
    return { record, signedTx: signedFromRecord(tx, record) };
  }
  const issue = (signedTx: Uint8Array, owner = 0) => vault.issue(hex(signedTx), signBytes(signedTx, OWNERS[owner]!.key));
  const cancel = (id: string, owner = 0, stamp = String(now)) => vault.cancel(id, stamp, signText(stamp, OWNERS[owner]!.key));
  const list = (owner = 0, stamp = String(now)) => vault.listPending(ALIAS, signText(ALIAS + stamp, OWNERS[owner]!.key), stamp);

  describe("creating", () => {
    it("records the request, the node's owners and threshold, the creator's signature in its slot, now as the time", async () => {
      const tx = aliasSpend();
      const bytes = unsignedBytes(tx);
      const record = await vault.create(request(tx, OWNERS[2]!, { metadata: "m", parentTransaction: "p" }));
      expect(record).to.deep.equal({
        id: Buffer.from(sha256(bytes)).toString("hex"),
        unsignedTx: hex(bytes),
        alias: ALIAS,
        threshold: 2,
        chainId: encodeCb58(bytes.subarray(10, 42)),
        transactionId: "",
        parentTransaction: "p",
        outputOwners: OUTPUT_OWNERS,
        metadata: "m",
        expiration: NOW + 14 * DAY,
        owners: OWNERS.map((o, i) => ({ address: o.address, signature: i === 2 ? signBytes(bytes, OWNERS[2]!.key) : "" })),
        timestamp: String(NOW),
      });
      expect(platform.aliasAsked).to.deep.equal([ALIAS]);
      expect(DEFAULT_EXPIRATION_SECONDS).to.equal(14 * DAY);
    });

    it("takes the threshold and owners the node answers now", async () => {
      platform.alias = { ...platform.alias, threshold: 3 };
      expect((await vault.create(request())).threshold).to.equal(3);
    });

    it("refuses the 42-byte header alone: it is not a transaction (400)", async () => {
      const error = await refusal(vault.create(rawRequest(unsignedBytes(aliasSpend()).subarray(0, 42))));
      expect(error.status).to.equal(400);
      expect(error.message).to.match(/^unsignedTx is not a platform transaction: /);
      expect(platform.aliasAsked).to.deep.equal([]);
    });

    it("refuses an unsigned tx shorter than the 42-byte header (400)", async () => {
      const error = await refusal(vault.create(rawRequest(new Uint8Array(41).fill(1))));
      expect(error.status).to.equal(400);
      expect(error.message).to.equal("unsignedTx is too short: 41 bytes, at least 42 expected");
    });

    it("takes absent or null metadata and parent transaction as empty", async () => {
      const record = await vault.create(request(aliasSpend(), OWNERS[0], { metadata: null, parentTransaction: undefined }));
      expect([record.metadata, record.parentTransaction]).to.deep.equal(["", ""]);
    });

    it("refuses metadata or a parent transaction that is not a string (400)", async () => {
      expect((await refusal(vault.create(request(aliasSpend(), OWNERS[0], { metadata: 5 })))).message).to.equal("metadata must be a string");
      const error = await refusal(vault.create(request(aliasSpend(), OWNERS[0], { parentTransaction: { id: "x" } })));
      expect(error.status).to.equal(400);
      expect(error.message).to.equal("parentTransaction must be a string");
    });

    it("refuses a missing outputOwners (400)", async () => {
      const error = await refusal(vault.create(request(aliasSpend(), OWNERS[0], { outputOwners: undefined })));
      expect(error.status).to.equal(400);
      expect(error.message).to.equal("outputOwners is required: a hex string");
    });

    it("expires 14 days from now when the expiration is absent or null", async () => {
      expect((await vault.create(request(aliasSpend({ memo: "a" }), OWNERS[0], { expiration: null }))).expiration).to.equal(NOW + 14 * DAY);
    });

    it("takes an expiration as a number or as a decimal string", async () => {
      expect((await vault.create(request(aliasSpend({ memo: "a" }), OWNERS[0], { expiration: NOW + 60 }))).expiration).to.equal(NOW + 60);
      now += 61;
      expect((await vault.create(request(aliasSpend({ memo: "b" }), OWNERS[0], { expiration: String(NOW + 200) }))).expiration).to.equal(NOW + 200);
    });

    it("refuses an expiration that is not a non-negative integer of seconds (400)", async () => {
      for (const expiration of ["x100", "100x", "1e12", "-5", " 100", 1.5, -1, Number.MAX_SAFE_INTEGER + 1, true, {}, [NOW + 60], [String(NOW + 60)]]) {
        const error = await refusal(vault.create(request(aliasSpend(), OWNERS[0], { expiration })));
        expect(error.status, String(expiration)).to.equal(400);
        expect(error.message, String(expiration)).to.equal("expiration must be a Unix timestamp in seconds (an integer)");
      }
    });

    it("refuses an expiration of now or 0 as passed; one second after now is taken", async () => {
      for (const expiration of [NOW, 0, "0"]) {
        const error = await refusal(vault.create(request(aliasSpend(), OWNERS[0], { expiration })));
        expect(error.status).to.equal(400);
        expect(error.message).to.equal(`expiration date has passed: ${Number(expiration)} is not after now (${NOW})`);
      }
      expect((await vault.create(request(aliasSpend(), OWNERS[0], { expiration: NOW + 1 }))).expiration).to.equal(NOW + 1);
    });

    it("refuses a missing alias, and one that is not a chain address with the parser's reason (400)", async () => {
      for (const alias of [undefined, "", 7]) {
        const error = await refusal(vault.create(request(aliasSpend(), OWNERS[0], { alias })));
        expect(error.status).to.equal(400);
        expect(error.message).to.equal('alias is required: the multisig alias with its chain prefix, e.g. "P-local1…"');
      }
      const error = await refusal(vault.create(request(aliasSpend(), OWNERS[0], { alias: "P-local1nope" })));
      expect(error.status).to.equal(400);
      expect(error.message).to.match(/^alias "P-local1nope" is not a chain address: .+/);
    });

    it("refuses a creator who is not among the node's owners (403), naming the signer and the alias", async () => {
      const error = await refusal(vault.create(request(aliasSpend(), OUTSIDER)));
      expect(error.status).to.equal(403);
      expect(error.message).to.equal(`address is not an owner for this alias: ${OUTSIDER.address} is not among the owners of ${ALIAS}`);
    });

    it("answers 404 with the node's message when the node says the alias is not a multisig alias", async () => {
      platform.aliasFailure = nodeRefusal("address is not a multisig alias");
      const error = await refusal(vault.create(request()));
      expect(error.status).to.equal(404);
      expect(error.message).to.equal(`alias ${ALIAS} is not a multisig alias on the node: address is not a multisig alias`);
    });

    it("answers 502 when the node does not answer getMultisigAlias", async () => {
      platform.aliasFailure = new Error("connect ECONNREFUSED 127.0.0.1:9650");
      const error = await refusal(vault.create(request()));
      expect(error.status).to.equal(502);
      expect(error.message).to.equal("the node did not answer platform.getMultisigAlias: connect ECONNREFUSED 127.0.0.1:9650");
    });

    it("refuses a second pending transaction of the alias on the chain (409), naming the pending one", async () => {
      const first = await vault.create(request(aliasSpend({ memo: "first" })));
      const error = await refusal(vault.create(request(aliasSpend({ memo: "second" }))));
      expect(error.status).to.equal(409);
      expect(error.message).to.equal(`there is already a pending tx for this alias on this chain (id ${first.id})`);
    });

    it("refuses to create again a transaction already issued (409), naming its ID", async () => {
      const tx = aliasSpend();
      const { signedTx } = await ready(tx);
      const { txID } = await issue(signedTx);
      const error = await refusal(vault.create(request(tx)));
      expect(error.status).to.equal(409);
      expect(error.message).to.equal(`this transaction was already issued as ${txID}`);
    });

    it("tells the alias's followers: created, with the record", async () => {
      const record = await vault.create(request());
      expect(seen).to.deep.equal([{ type: "created", transaction: record }]);
    });
  });

  describe("signed timestamps (list, events, cancel)", () => {
    it("accepts a timestamp exactly the window (300 s) away, before or after the vault's clock", async () => {
      expect(DEFAULT_SIGNED_TIMESTAMP_WINDOW_SECONDS).to.equal(300);
      expect(vault.timestampWindowSeconds).to.equal(300);
      for (const stamp of [NOW - 300, NOW + 300]) expect(await list(0, String(stamp))).to.deep.equal([]);
    });

    it("refuses a timestamp one second beyond the window, before or after (401), saying how far it is", async () => {
      for (const stamp of [NOW - 301, NOW + 301]) {
        const error = await refusal(list(0, String(stamp)));
        expect(error.status).to.equal(401);
        expect(error.message).to.equal(`timestamp ${stamp} is 301 s away from the vault's clock; sign a fresh one (within 300 s)`);
      }
    });

    it("uses the window it is given", async () => {
      vault = open({ timestampWindowSeconds: 10 });
      expect(await list(0, String(NOW - 10))).to.deep.equal([]);
      expect((await refusal(list(0, String(NOW - 11)))).message).to.match(/is 11 s away .*\(within 10 s\)$/);
    });

    it("refuses a timestamp that is not 1 to 15 decimal digits (400); 15 digits are read", async () => {
      for (const stamp of ["", "a1", "1a", "-5", "1.5", "1234567890123456"]) {
        const error = await refusal(list(0, stamp));
        expect(error.status, stamp).to.equal(400);
        expect(error.message).to.equal("timestamp is required: Unix seconds as a decimal string");
      }
      expect((await refusal(vault.listPending(ALIAS, signText(ALIAS + NOW, OWNERS[0]!.key), NOW))).status).to.equal(400);
      expect((await refusal(list(0, "123456789012345"))).status).to.equal(401);
    });

    it("lists the alias's pending transactions to an owner, as records", async () => {
      const record = await vault.create(request());
      expect(await list(2)).to.deep.equal([record]);
    });

    it("refuses the list to a signer who is not an owner (403)", async () => {
      const stamp = String(now);
      const error = await refusal(vault.listPending(ALIAS, signText(ALIAS + stamp, OUTSIDER.key), stamp));
      expect(error.status).to.equal(403);
      expect(error.message).to.equal(`address is not an owner for this alias: ${OUTSIDER.address} is not among the owners of ${ALIAS}`);
    });
  });

  describe("signing", () => {
    it("records an owner's signature in its slot and tells the followers: signed", async () => {
      const tx = aliasSpend();
      await vault.create(request(tx));
      const record = await signTx((await list())[0]!, tx, 2);
      expect(record.owners.map((o) => o.signature)).to.deep.equal([signBytes(unsignedBytes(tx), OWNERS[0]!.key), "", signBytes(unsignedBytes(tx), OWNERS[2]!.key)]);
      expect(seen.map((e) => e.type)).to.deep.equal(["created", "signed"]);
      expect(seen[1]!.transaction).to.deep.equal(record);
    });

    it("refuses a second signature by the same owner (409)", async () => {
      const tx = aliasSpend();
      const record = await vault.create(request(tx));
      const error = await refusal(signTx(record, tx, 0));
      expect(error.status).to.equal(409);
      expect(error.message).to.equal(`owner has already signed this alias transaction (${OWNERS[0]!.address})`);
    });

    it("refuses a signature by an address that is not among the transaction's owners (403)", async () => {
      const tx = aliasSpend();
      const record = await vault.create(request(tx));
      const error = await refusal(vault.sign(record.id, signBytes(unsignedBytes(tx), OUTSIDER.key)));
      expect(error.status).to.equal(403);
      expect(error.message).to.match(/^address is not an owner for this alias: /);
    });

    it("refuses a transaction that does not exist (404)", async () => {
      const error = await refusal(vault.sign("00".repeat(32), signBytes(new Uint8Array(1), OWNERS[1]!.key)));
      expect(error.status).to.equal(404);
      expect(error.message).to.equal(`multisig transaction does not exist (or is no longer pending): ${"00".repeat(32)}`);
    });

    it("takes a signature up to the second before expiry; at expiry the transaction is gone (404)", async () => {
      const tx = aliasSpend();
      const record = await vault.create(request(tx, OWNERS[0], { expiration: NOW + 100 }));
      now = NOW + 99;
      await signTx(record, tx, 1);
      now = NOW + 100;
      expect((await refusal(signTx(record, tx, 2))).status).to.equal(404);
    });

    it("refuses to sign a cancelled transaction (404)", async () => {
      const tx = aliasSpend();
      const record = await vault.create(request(tx));
      await cancel(record.id);
      expect((await refusal(signTx(record, tx, 1))).status).to.equal(404);
    });

    it("refuses to sign an issued transaction (404)", async () => {
      const tx = aliasSpend();
      const { record } = await ready(tx);
      await issue(signedFromRecord(tx, record));
      expect((await refusal(signTx(record, tx, 2))).status).to.equal(404);
    });

    it("answers 409 when the same owner's other request signed in between (a lost race)", async () => {
      const tx = aliasSpend();
      const record = await vault.create(request(tx));
      const signature = signBytes(unsignedBytes(tx), OWNERS[1]!.key);
      const racing = new (class extends VaultStore {
        override async addSignature(id: string, address: string, sig: string, at: number): Promise<boolean> {
          await super.addSignature(id, address, sig, at); // the other request wins
          return super.addSignature(id, address, sig, at);
        }
      })(db);
      const error = await refusal(open({ store: racing }).sign(record.id, signature));
      expect(error.status).to.equal(409);
      expect(error.message).to.equal(`owner has already signed this alias transaction (${OWNERS[1]!.address})`);
    });

    it("answers 404 when the transaction was cancelled and created again for other owners in between (a lost race)", async () => {
      const tx = aliasSpend();
      const record = await vault.create(request(tx));
      const signer = OWNERS[1]!;
      const racing = new (class extends VaultStore {
        override async addSignature(id: string, address: string, sig: string, at: number): Promise<boolean> {
          // Meanwhile: the creator cancels, the alias's owners change on the node, the same tx is created again.
          await vault.cancel(id, String(now), signText(String(now), OWNERS[0]!.key));
          platform.alias = { ...platform.alias, addresses: [OWNERS[0]!.address, OWNERS[2]!.address] };
          await vault.create(request(tx));
          return super.addSignature(id, address, sig, at);
        }
      })(db);
      const error = await refusal(open({ store: racing }).sign(record.id, signBytes(unsignedBytes(tx), signer.key)));
      expect(error.status).to.equal(404);
      expect(error.message).to.equal(`multisig transaction does not exist (or is no longer pending): ${record.id}`);
    });

    it("answers 404 when the transaction stopped being pending in between (a lost race)", async () => {
      const tx = aliasSpend();
      const record = await vault.create(request(tx));
      let calls = 0;
      // The first reading of the clock (the pending check) is before expiry, the next after it.
      const late = open({ now: () => (calls++ === 0 ? NOW : NOW + 15 * DAY) });
      const error = await refusal(late.sign(record.id, signBytes(unsignedBytes(tx), OWNERS[1]!.key)));
      expect(error.status).to.equal(404);
      expect(error.message).to.equal(`multisig transaction does not exist (or is no longer pending): ${record.id}`);
    });
  });

  describe("issuing", () => {
    it("sends the signed tx to the node as bytes with hex encoding once enough owners signed, and answers the node's ID", async () => {
      const { signedTx } = await ready();
      expect(await issue(signedTx, 2)).to.deep.equal({ txID: encodeCb58(sha256(signedTx)) });
      expect(platform.issued).to.have.length(1);
      expect(platform.issued[0]!.encoding).to.equal("hex");
      expect([...(platform.issued[0]!.tx as Uint8Array)]).to.deep.equal([...signedTx]);
    });

    it("records the ID, tells the followers: issued, and the transaction is no longer pending", async () => {
      const { record, signedTx } = await ready();
      const { txID } = await issue(signedTx);
      expect(seen.map((e) => e.type)).to.deep.equal(["created", "signed", "issued"]);
      expect(seen[2]!.transaction).to.deep.equal({ ...record, transactionId: txID });
      expect(await list()).to.deep.equal([]);
      expect((await store.get(record.id))!.transactionId).to.equal(txID);
    });

    it("issues with exactly the threshold's number of signatures", async () => {
      platform.alias = { ...platform.alias, threshold: 3 };
      const tx = aliasSpend();
      let record = await ready(tx).then((r) => r.record);
      expect((await refusal(issue(signedFromRecord(tx, record)))).message).to.match(/^2 of 3 signatures/);
      record = await signTx(record, tx, 2);
      expect((await issue(signedFromRecord(tx, record))).txID).to.be.a("string");
    });

    it("refuses below the threshold (409), saying how many signed, and sends nothing", async () => {
      const tx = aliasSpend();
      const record = await vault.create(request(tx));
      const error = await refusal(issue(signedFromRecord(tx, record)));
      expect(error.status).to.equal(409);
      expect(error.message).to.equal("1 of 2 signatures: the alias needs 2 of its 3 owners to sign in the vault before issuing; nothing was sent to the node");
      expect(platform.issued).to.deep.equal([]);
    });

    it("refuses a signedTx shorter than the 42-byte header (400)", async () => {
      const short = new Uint8Array(41).fill(1);
      const error = await refusal(vault.issue(hex(short), signBytes(short, OWNERS[0]!.key)));
      expect(error.status).to.equal(400);
      expect(error.message).to.equal("signedTx is too short: 41 bytes, at least 42 expected");
    });

    it("answers 404 for a signedTx that does not begin with a pending transaction", async () => {
      const { signedTx } = await ready();
      const other = signedFromRecord(aliasSpend({ memo: "other" }), { owners: OWNERS.map(() => ({ address: "", signature: "" })) });
      const error = await refusal(issue(other));
      expect(error.status).to.equal(404);
      expect(error.message).to.equal("multisig transaction does not exist: no pending transaction is the unsigned part of this signedTx");
      expect((await issue(signedTx)).txID).to.be.a("string");
    });

    it("refuses an issue signed by an address that is not an owner (403)", async () => {
      const { signedTx } = await ready();
      const error = await refusal(vault.issue(hex(signedTx), signBytes(signedTx, OUTSIDER.key)));
      expect(error.status).to.equal(403);
      expect(platform.issued).to.deep.equal([]);
    });

    it("answers 422 with the node's message when the node refuses it, and the transaction is pending again", async () => {
      const { record, signedTx } = await ready();
      platform.issueFailure = nodeRefusal("input 7 not found");
      const error = await refusal(issue(signedTx));
      expect(error.status).to.equal(422);
      expect(error.message).to.equal("the node refused the transaction: input 7 not found");
      expect((await store.get(record.id))!.issuing).to.equal(undefined);
      expect((await list()).map((r) => r.id)).to.deep.equal([record.id]);
    });

    it("answers 502 when the node does not answer, and leaves the transaction being issued", async () => {
      const { record, signedTx } = await ready();
      platform.issueFailure = new Error("socket hang up");
      const error = await refusal(issue(signedTx));
      expect(error.status).to.equal(502);
      expect(error.message).to.equal("the node did not answer: socket hang up");
      expect((await store.get(record.id))!.issuing).to.deep.include({ txId: encodeCb58(sha256(signedTx)), signedTx: Buffer.from(signedTx).toString("hex"), at: NOW });
      expect(seen.map((e) => e.type)).to.deep.equal(["created", "signed"]);
    });

    /** A ready transaction whose issue the node never answered: left "being issued". */
    async function unfinishedIssue(): Promise<{ record: MultisigTxView; signedTx: Uint8Array }> {
      const readied = await ready();
      platform.issueFailure = new Error("socket hang up");
      await refusal(issue(readied.signedTx));
      platform.issueFailure = undefined;
      return readied;
    }

    it("settles an unfinished issue with the node first: the node has it, so its ID is answered without sending again", async () => {
      const { record, signedTx } = await unfinishedIssue();
      platform.status = "Committed";
      const txID = encodeCb58(sha256(signedTx));
      expect(await issue(signedTx)).to.deep.equal({ txID });
      expect(platform.statusAsked).to.deep.equal([txID]);
      expect(platform.issued).to.have.length(1);
      expect((await store.get(record.id))!.transactionId).to.equal(txID);
    });

    it("settles an unfinished issue with the node first: the node does not have it, so it is sent again", async () => {
      const { record, signedTx } = await unfinishedIssue();
      platform.status = "Unknown";
      const { txID } = await issue(signedTx);
      expect(platform.issued).to.have.length(2);
      expect((await store.get(record.id))!.transactionId).to.equal(txID);
    });

    it("sends once when two requests issue together: the other is refused (409)", async () => {
      const { signedTx } = await ready();
      const results = await Promise.allSettled([issue(signedTx, 0), issue(signedTx, 1)]);
      expect(results.map((r) => r.status).sort()).to.deep.equal(["fulfilled", "rejected"]);
      const error = (results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason as VaultError;
      expect(error.status).to.equal(409);
      expect(error.message).to.equal("this transaction is being issued by another request, or is no longer pending");
      expect(platform.issued).to.have.length(1);
    });
  });

  describe("cancelling", () => {
    it("lets the creator cancel: no longer pending, the followers told with the time", async () => {
      const record = await vault.create(request());
      now += 5;
      await cancel(record.id);
      expect(await list()).to.deep.equal([]);
      expect((await store.get(record.id))!.cancelledAt).to.equal(NOW + 5);
      expect(seen.map((e) => e.type)).to.deep.equal(["created", "cancelled"]);
      expect(seen[1]!.transaction).to.deep.equal(record);
    });

    it("refuses a missing or empty id (400)", async () => {
      for (const id of [undefined, "", 5]) {
        const error = await refusal(vault.cancel(id, String(now), signText(String(now), OWNERS[0]!.key)));
        expect(error.status).to.equal(400);
        expect(error.message).to.equal("id is required: the pending transaction's id");
      }
    });

    it("refuses an owner who is not the creator (403), naming both", async () => {
      const record = await vault.create(request());
      const error = await refusal(cancel(record.id, 1));
      expect(error.status).to.equal(403);
      expect(error.message).to.equal(`only the creator (${OWNERS[0]!.address}) may cancel this transaction; signed by ${OWNERS[1]!.address}`);
    });

    it("refuses a signature over another timestamp than the one sent (403: another signer recovers)", async () => {
      const record = await vault.create(request());
      const error = await refusal(vault.cancel(record.id, String(now), signText(String(now - 1), OWNERS[0]!.key)));
      expect(error.status).to.equal(403);
      expect((await list()).map((r) => r.id)).to.deep.equal([record.id]);
    });

    it("answers 404 to a cancel of a transaction already cancelled", async () => {
      const record = await vault.create(request());
      await cancel(record.id);
      const error = await refusal(cancel(record.id));
      expect(error.status).to.equal(404);
      expect(error.message).to.equal(`multisig transaction does not exist (or is no longer pending): ${record.id}`);
    });

    it("answers 404 to a cancel of an issued transaction", async () => {
      const { record, signedTx } = await ready();
      await issue(signedTx);
      expect((await refusal(cancel(record.id))).status).to.equal(404);
    });

    it("lets the creator cancel up to the second before expiry; at expiry the transaction is gone (404)", async () => {
      const first = await vault.create(request(aliasSpend({ memo: "a" }), OWNERS[0], { expiration: NOW + 100 }));
      now = NOW + 100;
      expect((await refusal(cancel(first.id))).status).to.equal(404);
      const second = await vault.create(request(aliasSpend({ memo: "b" }), OWNERS[0], { expiration: NOW + 200 }));
      now = NOW + 199;
      await cancel(second.id);
      expect((await store.get(second.id))!.cancelledAt).to.equal(NOW + 199);
    });

    it("refuses to cancel a transaction being issued (409)", async () => {
      const { record, signedTx } = await ready();
      platform.issueFailure = new Error("socket hang up");
      await refusal(issue(signedTx));
      const error = await refusal(cancel(record.id));
      expect(error.status).to.equal(409);
      expect(error.message).to.equal("the transaction is being issued or is no longer pending");
      expect(seen.map((e) => e.type)).to.deep.equal(["created", "signed"]);
    });
  });

  describe("repair at start", () => {
    /**
     * A transaction of alias `n` (0: ALIAS, others: an alias the fake node gives the same owners;
     * one pending per alias) whose issue the node never answered.
     */
    async function leftIssuing(n: number, by: Vault = vault): Promise<string> {
      const tx = aliasSpend({ memo: `left ${n}` });
      const alias = n === 0 ? ALIAS : pAddress(new Uint8Array(20).fill(n));
      const record = await by.sign((await by.create(request(tx, OWNERS[0], { alias }))).id, signBytes(unsignedBytes(tx), OWNERS[1]!.key));
      const signedTx = signedFromRecord(tx, record);
      platform.issueFailure = new Error("crash");
      await refusal(by.issue(hex(signedTx), signBytes(signedTx, OWNERS[0]!.key)));
      platform.issueFailure = undefined;
      return record.id;
    }

    for (const [status, issued] of [["Committed", true], ["Processing", true], ["Aborted", false], ["Dropped", false], ["Unknown", false]] as const) {
      it(`settles an issue left unfinished as ${issued ? "issued" : "pending again"} when the node answers ${status}`, async () => {
        const id = await leftIssuing(0);
        platform.status = status;
        seen = [];
        expect(await vault.repairInterruptedIssues()).to.deep.equal(issued ? { issued: 1, reopened: 0 } : { issued: 0, reopened: 1 });
        const stored = (await store.get(id))!;
        expect(stored.issuing).to.equal(undefined);
        expect(stored.transactionId !== undefined).to.equal(issued);
        expect(seen.map((e) => e.type)).to.deep.equal(issued ? ["issued"] : []);
      });
    }

    it("counts each issue it settles", async () => {
      for (const n of [1, 2, 3]) await leftIssuing(n);
      const statuses: PlatformTxStatus[] = ["Committed", "Dropped", "Processing"];
      platform.getTxStatus = async () => statuses.shift()!;
      expect(await vault.repairInterruptedIssues()).to.deep.equal({ issued: 2, reopened: 1 });
      expect(await vault.repairInterruptedIssues()).to.deep.equal({ issued: 0, reopened: 0 });
    });

    it(`leaves alone an issue another vault left less than ${ISSUE_CLAIM_STALE_SECONDS} s ago (it may still be at the node), settles it after`, async () => {
      const id = await leftIssuing(0, open());
      platform.status = "Unknown";
      expect(await vault.repairInterruptedIssues()).to.deep.equal({ issued: 0, reopened: 0 });
      expect((await store.get(id))!.issuing).to.not.equal(undefined);
      now = NOW + ISSUE_CLAIM_STALE_SECONDS;
      expect(await vault.repairInterruptedIssues()).to.deep.equal({ issued: 0, reopened: 1 });
      expect((await store.get(id))!.issuing).to.equal(undefined);
    });
  });

  describe("the clock", () => {
    it("without a clock of its own, uses the system's in seconds", async () => {
      vault = open({ now: undefined });
      const before = Math.floor(Date.now() / 1000);
      const record = await vault.create(request(aliasSpend(), OWNERS[0], { expiration: before + 30 }));
      const after = Math.floor(Date.now() / 1000);
      expect(Number(record.timestamp)).to.be.within(before, after);
      expect(record.expiration).to.equal(before + 30);
    });
  });
});
