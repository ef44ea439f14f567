import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPlatformChainClient, createTransport, createVaultClient, type VaultEventType } from "../../../src/clients";
import { startVaultServer, type VaultServer } from "../../../src/services/vault";
import { encodeCb58 } from "../../../src/encoding";
import { sha256 } from "@noble/hashes/sha2.js";
import { ALIAS, aliasSpend, hex, nowSeconds, OUTPUT_OWNERS, OWNERS, signBytes, signedFromRecord, signText, startAliasNode, type TestNode, unsignedBytes } from "./helpers";

describe("vault end to end: a 2-of-3 alias declared at genesis, a real node over HTTP", function () {
  this.timeout(120_000);
  let node: TestNode;
  let server: VaultServer;
  beforeEach(async () => {
    node = await startAliasNode();
    server = await startVaultServer({ nodeUrl: node.url });
  });
  afterEach(async () => {
    await server?.close();
    await node?.close();
  });

  it("create, sign twice, issue: the node accepts it, the vault records the ID, the wallet is notified", async () => {
    const vault = createVaultClient({ url: server.url });
    const platform = createPlatformChainClient({ transport: createTransport({ url: node.url }) });
    const stamp = String(nowSeconds());
    const seen: VaultEventType[] = [];
    const stream = await vault.follow(ALIAS, { timestamp: stamp, signature: signText(ALIAS + stamp, OWNERS[2]!.key) }, (type) => seen.push(type));
    try {
      const tx = aliasSpend();
      const unsigned = unsignedBytes(tx);
      const created = await vault.create({ alias: ALIAS, unsignedTx: hex(unsigned), signature: signBytes(unsigned, OWNERS[0]!.key), outputOwners: OUTPUT_OWNERS });
      const signed = await vault.sign(created.id, { signature: signBytes(unsigned, OWNERS[1]!.key) });
      const signedTx = signedFromRecord(tx, signed);
      const { txID } = await vault.issue({ signedTx: hex(signedTx), signature: signBytes(signedTx, OWNERS[1]!.key) });
      expect(txID).to.equal(encodeCb58(sha256(signedTx)));
      expect(await platform.getTxStatus({ txID })).to.equal("Committed");
      const list = await vault.listPending(ALIAS, { timestamp: stamp, signature: signText(ALIAS + stamp, OWNERS[0]!.key) });
      expect(list).to.deep.equal([]);
      for (let i = 0; i < 50 && seen.length < 3; i++) await new Promise((r) => setTimeout(r, 20));
      expect(seen).to.deep.equal(["created", "signed", "issued"]);
    } finally {
      stream.close();
    }
  });

  it("refuses the event stream to a non-owner", async () => {
    const vault = createVaultClient({ url: server.url });
    const stamp = String(nowSeconds());
    const outsider = new Uint8Array(32).fill(5);
    const error = await vault.follow(ALIAS, { timestamp: stamp, signature: signText(ALIAS + stamp, outsider) }, () => undefined).catch((e: Error & { status?: number }) => e);
    expect((error as { status?: number }).status).to.equal(403);
  });

  it("repairs at start an issue the node accepted but the vault never recorded (a crash in between)", async () => {
    await server.close();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vault-crash-"));
    try {
      server = await startVaultServer({ nodeUrl: node.url, dataDir });
      const vault = createVaultClient({ url: server.url });
      const tx = aliasSpend({ slots: [0, 2] });
      const unsigned = unsignedBytes(tx);
      const created = await vault.create({ alias: ALIAS, unsignedTx: hex(unsigned), signature: signBytes(unsigned, OWNERS[0]!.key), outputOwners: OUTPUT_OWNERS });
      const signed = await vault.sign(created.id, { signature: signBytes(unsigned, OWNERS[2]!.key) });
      const signedTx = signedFromRecord(tx, signed);
      // What the vault writes before sending, then the node accepting it, then the crash: no record.
      const txId = encodeCb58(sha256(signedTx));
      await server.service.database.query("UPDATE multisig_tx SET issuing_tx_id = $2, issuing_signed_tx = $3 WHERE id = $1", [created.id, txId, Buffer.from(signedTx).toString("hex")]);
      const platform = createPlatformChainClient({ transport: createTransport({ url: node.url }) });
      expect(await platform.issueTx({ tx: signedTx, encoding: "hex" })).to.equal(txId);
      await server.close();
      // The next start settles it with the node.
      server = await startVaultServer({ nodeUrl: node.url, dataDir });
      expect(server.service.repaired).to.deep.equal({ issued: 1, reopened: 0 });
      const rows = await server.service.database.query("SELECT transaction_id FROM multisig_tx WHERE id = $1", [created.id]);
      expect(rows[0]!.transaction_id).to.equal(txId);
    } finally {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("reopens at start an issue the node never got", async () => {
    await server.close();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vault-crash-"));
    try {
      server = await startVaultServer({ nodeUrl: node.url, dataDir });
      const vault = createVaultClient({ url: server.url });
      const tx = aliasSpend();
      const unsigned = unsignedBytes(tx);
      const created = await vault.create({ alias: ALIAS, unsignedTx: hex(unsigned), signature: signBytes(unsigned, OWNERS[0]!.key), outputOwners: OUTPUT_OWNERS });
      await server.service.database.query("UPDATE multisig_tx SET issuing_tx_id = $2, issuing_signed_tx = '00' WHERE id = $1", [created.id, encodeCb58(new Uint8Array(32).fill(3))]);
      await server.close();
      server = await startVaultServer({ nodeUrl: node.url, dataDir });
      expect(server.service.repaired).to.deep.equal({ issued: 0, reopened: 1 });
      const stamp = String(nowSeconds());
      const list = await createVaultClient({ url: server.url }).listPending(ALIAS, { timestamp: stamp, signature: signText(ALIAS + stamp, OWNERS[1]!.key) });
      expect(list.map((r) => r.id)).to.deep.equal([created.id]);
    } finally {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
