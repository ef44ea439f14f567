import { expect } from "chai";
import { encodeCb58, encodeNodeBytes, decodeCb58 } from "../../src/encoding";
import { LOCAL_NETWORK } from "../../src/network/constants";
import { type CredentialPlan, type MultisigAliasTx, parsePlatformGenesisJson, PTypeId, type PUnsignedTx, signPTx } from "../../src/pchain";
import { compareShortIds, compareTransferableOutputs, type TransferableOutput, TypeId } from "../../src/utxo/codec";
import { addressOf, AVAX, EWOQ, EWOQ_KEY, FEE, P_CHAIN, pAddress, type PNode, startPNode, startWithUser, testKey, USER } from "./helpers";

const KEYS = [testKey(11), testKey(12), testKey(13)];
/** The three owners sorted by address, with their keys: slot i of the alias is SORTED[i]. */
const SORTED = KEYS.map((key) => ({ key, address: addressOf(key) })).sort((a, b) => compareShortIds(a.address, b.address));
const GENESIS_UTXO = { txId: new Uint8Array(32), outputIndex: 0, amount: 20_000_000n * 10n ** 9n };

function out(to: Uint8Array, amount: bigint): TransferableOutput {
  return { assetId: AVAX, output: { typeId: TypeId.Secp256k1TransferOutput, amount, locktime: 0n, threshold: 1, addresses: [to] } };
}

/** A BaseTx (the reference's type 34) spending one UTXO: `amount` to `to`, the rest less the fee back to `change`. */
function baseTx(utxo: { txId: Uint8Array; outputIndex: number; amount: bigint }, sigIndices: number[], to: Uint8Array, amount: bigint, change: Uint8Array): PUnsignedTx {
  const outputs = [out(to, amount)];
  if (utxo.amount - amount - FEE > 0n) outputs.push(out(change, utxo.amount - amount - FEE));
  outputs.sort(compareTransferableOutputs);
  return {
    typeId: PTypeId.BaseTx,
    networkId: LOCAL_NETWORK.networkId,
    blockchainId: P_CHAIN,
    outputs,
    inputs: [{ txId: utxo.txId, outputIndex: utxo.outputIndex, assetId: AVAX, input: { typeId: TypeId.Secp256k1TransferInput, amount: utxo.amount, signatureIndices: sigIndices } }],
    memo: new Uint8Array(0),
  };
}

async function issue(node: PNode, tx: PUnsignedTx, plans: CredentialPlan[]): Promise<string> {
  const { bytes } = signPTx(tx, plans);
  return (await node.call<{ txID: string }>("platform.issueTx", { tx: encodeNodeBytes(bytes, "hex"), encoding: "hex" })).txID;
}

async function issueFails(node: PNode, tx: PUnsignedTx, plans: CredentialPlan[]) {
  const { bytes } = signPTx(tx, plans);
  return node.fail("platform.issueTx", { tx: encodeNodeBytes(bytes, "hex") });
}

describe("pchain: multisig aliases", function () {
  this.timeout(30_000);
  let node: PNode;
  let alias: Uint8Array;
  let aliasText: string;
  /** The alias's funded UTXO (output 0 or 1 of the funding tx). */
  let aliasUtxo: { txId: Uint8Array; outputIndex: number; amount: bigint };
  /** The ewoq key's change from funding the alias. */
  let change: { txId: Uint8Array; outputIndex: number; amount: bigint };

  beforeEach(async () => {
    node = await startWithUser();
    const created = await node.call<{ txID: string; alias: string }>("platform.createMultisigAlias", { ...USER, addresses: KEYS.map((k) => pAddress(addressOf(k))), threshold: 2, memo: "team" });
    aliasText = created.alias;
    alias = node.network.platform.parseAddress(aliasText);
    const amount = 10n * 10n ** 9n;
    const tx = baseTx(GENESIS_UTXO, [0], alias, amount, EWOQ);
    const txID = await issue(node, tx, [{ keys: [EWOQ_KEY] }]);
    const index = tx.outputs.findIndex((o) => Buffer.compare(o.output.addresses[0]!, alias) === 0);
    aliasUtxo = { txId: decodeCb58(txID), outputIndex: index, amount };
    change = { txId: decodeCb58(txID), outputIndex: 1 - index, amount: GENESIS_UTXO.amount - amount - FEE };
  });
  afterEach(async () => node.close());

  it("createMultisigAlias answers the alias ripemd160(txID) and getMultisigAlias its owners", async () => {
    const reply = await node.call("platform.getMultisigAlias", { address: aliasText });
    expect(reply).to.deep.equal({ memo: "0x7465616d", locktime: "0", threshold: "2", addresses: SORTED.map((o) => pAddress(o.address)) });
  });

  it("spends an alias-owned output with 2 of 3 owners' signatures in a MultisigCredential", async () => {
    const bob = addressOf(testKey(2));
    const tx = baseTx(aliasUtxo, [0, 2], bob, 1_000n, alias);
    await issue(node, tx, [{ keys: [SORTED[0]!.key, SORTED[2]!.key], sigIdxs: [0, 2] }]);
    const balance = await node.call<{ balance: string }>("platform.getBalance", { addresses: [pAddress(bob)] });
    expect(balance.balance).to.equal("1000");
  });

  it("also accepts a plain credential whose input indices name the owner slots", async () => {
    const tx = baseTx(aliasUtxo, [1, 2], EWOQ, 1_000n, alias);
    await issue(node, tx, [{ keys: [SORTED[1]!.key, SORTED[2]!.key] }]);
  });

  it("refuses one signature when the threshold is 2", async () => {
    const tx = baseTx(aliasUtxo, [0], EWOQ, 1_000n, alias);
    const error = await issueFails(node, tx, [{ keys: [SORTED[0]!.key], sigIdxs: [0] }]);
    expect(error.code).to.equal(-32000);
    expect(error.data?.rule).to.equal("threshold-not-met");
    expect(error.message).to.match(/^unable to spend this UTXO/);
  });

  it("refuses signatures from keys that do not own the slots they claim", async () => {
    const tx = baseTx(aliasUtxo, [0, 1], EWOQ, 1_000n, alias);
    const wrongSlots = await issueFails(node, tx, [{ keys: [SORTED[1]!.key, SORTED[0]!.key], sigIdxs: [0, 1] }]);
    expect(wrongSlots.data?.rule).to.equal("threshold-not-met");
    const stranger = await issueFails(node, tx, [{ keys: [SORTED[0]!.key, testKey(99)], sigIdxs: [0, 1] }]);
    expect(stranger.data?.rule).to.equal("threshold-not-met");
    const mismatch = await issueFails(node, tx, [{ keys: [SORTED[0]!.key], sigIdxs: [0, 1] }]);
    expect(mismatch.data?.rule).to.equal("signers-mismatch");
  });

  it("updates the alias with the current owners' authorisation; the nonce counts updates", async () => {
    const owners = [SORTED[0]!.address, SORTED[1]!.address];
    const update: MultisigAliasTx = {
      ...(baseTx(change, [0], EWOQ, 1n, EWOQ) as Omit<MultisigAliasTx, "typeId" | "alias" | "auth">),
      typeId: PTypeId.MultisigAliasTx,
      alias: { id: alias, memo: new TextEncoder().encode("smaller"), owners: { locktime: 0n, threshold: 1, addresses: owners } },
      auth: { signatureIndices: [1, 2] },
    };
    const tooFew = await issueFails(node, { ...update, auth: { signatureIndices: [1] } }, [{ keys: [EWOQ_KEY] }, { keys: [SORTED[1]!.key] }]);
    expect(tooFew.data?.rule).to.equal("alias-auth-failed");
    expect(tooFew.message).to.match(/^alias credential isn't matching/);
    await issue(node, update, [{ keys: [EWOQ_KEY] }, { keys: [SORTED[1]!.key, SORTED[2]!.key] }]);
    const reply = await node.call<{ threshold: string; addresses: string[] }>("platform.getMultisigAlias", { address: aliasText });
    expect(reply).to.deep.include({ threshold: "1", addresses: owners.map(pAddress) });
    expect(node.network.platform.getAlias(alias)!.nonce).to.equal(1n);
  });

  it("refuses an update of an alias that does not exist, and getMultisigAlias of a plain address", async () => {
    const stranger = addressOf(testKey(77));
    const update: MultisigAliasTx = {
      ...(baseTx(change, [0], EWOQ, 1n, EWOQ) as Omit<MultisigAliasTx, "typeId" | "alias" | "auth">),
      typeId: PTypeId.MultisigAliasTx,
      alias: { id: stranger, memo: new Uint8Array(0), owners: { locktime: 0n, threshold: 1, addresses: [EWOQ] } },
      auth: { signatureIndices: [0] },
    };
    const error = await issueFails(node, update, [{ keys: [EWOQ_KEY] }, { keys: [EWOQ_KEY] }]);
    expect(error.data?.rule).to.equal("alias-not-found");
    const notAlias = await node.fail("platform.getMultisigAlias", { address: pAddress(stranger) });
    expect(notAlias.code).to.equal(-32000);
    expect(notAlias.message).to.match(/not found/);
    expect((await node.fail("platform.getMultisigAlias", { address: "P-local1nope" })).code).to.equal(-32602);
  });

  it("createMultisigAlias with `alias` updates an alias the user's keys control", async () => {
    const mine = await node.call<{ alias: string }>("platform.createMultisigAlias", { ...USER, addresses: [pAddress(EWOQ), pAddress(SORTED[0]!.address)], threshold: 1 });
    const updated = await node.call<{ alias: string }>("platform.createMultisigAlias", { ...USER, alias: mine.alias, addresses: [pAddress(EWOQ)], threshold: 1, memo: "solo" });
    expect(updated.alias).to.equal(mine.alias);
    expect(await node.call("platform.getMultisigAlias", { address: mine.alias })).to.deep.equal({ memo: "0x736f6c6f", locktime: "0", threshold: "1", addresses: [pAddress(EWOQ)] });
    const refused = await node.fail("platform.createMultisigAlias", { ...USER, alias: aliasText, addresses: [pAddress(EWOQ)], threshold: 1 });
    expect(refused.data?.problem).to.equal("bad-alias");
    const badThreshold = await node.fail("platform.createMultisigAlias", { ...USER, addresses: [pAddress(EWOQ)], threshold: 2 });
    expect(badThreshold.code).to.equal(-32602);
  });

  it("the keystore wallet spends alias funds when the user holds the threshold of keys", async () => {
    for (const { key } of SORTED.slice(0, 2)) await node.call("platform.importKey", { ...USER, privateKey: `PrivateKey-${encodeCb58(key)}` });
    const bob = addressOf(testKey(3));
    await node.call("platform.exportAVAX", { ...USER, from: [aliasText, pAddress(SORTED[0]!.address)], to: `X-local${pAddress(bob).slice(7)}`, amount: "5000000000" });
    const left = await node.call<{ balance: string }>("platform.getBalance", { addresses: [aliasText] });
    expect(left.balance).to.equal("0");
  });
});

describe("pchain: multisig aliases declared at genesis", function () {
  this.timeout(30_000);
  const owners = [addressOf(testKey(21)), addressOf(testKey(22))].map(pAddress);

  it("parsePlatformGenesisJson reads initialMultisigAddresses (top level or under camino) and the alias is served", async () => {
    const options = parsePlatformGenesisJson({ camino: { initialMultisigAddresses: [{ addresses: owners, threshold: 2, memo: "genesis" }] } }, LOCAL_NETWORK);
    const node = await startPNode({ platformGenesis: options });
    try {
      const [declared] = node.network.platform.aliasesOwnedBy(addressOf(testKey(21)));
      const reply = await node.call("platform.getMultisigAlias", { address: pAddress(declared!.alias.id) });
      expect(reply).to.deep.include({ threshold: "2", locktime: "0" });
      const again = parsePlatformGenesisJson({ initialMultisigAddresses: [{ alias: pAddress(declared!.alias.id), addresses: owners, threshold: 2, memo: "genesis" }] }, LOCAL_NETWORK);
      expect(again.initialMultisigAddresses).to.have.length(1);
    } finally {
      await node.close();
    }
  });

  it("parsePlatformGenesisJson names what is wrong", () => {
    const bad = (json: unknown): string => {
      try {
        parsePlatformGenesisJson(json, LOCAL_NETWORK);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error("expected a GenesisError");
    };
    expect(bad([])).to.match(/expected a JSON object/);
    expect(bad({ initialMultisigAddresses: {} })).to.match(/initialMultisigAddresses: expected an array/);
    expect(bad({ initialMultisigAddresses: [{ addresses: ["X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"], threshold: 1 }] })).to.match(/initialMultisigAddresses\[0\]\.addresses\[0\]/);
    expect(bad({ initialMultisigAddresses: [{ addresses: owners, threshold: 3 }] })).to.match(/threshold must be an integer from 1 to the number of addresses \(2\)/);
    expect(bad({ initialMultisigAddresses: [{ addresses: [owners[0], owners[0]], threshold: 1 }] })).to.match(/listed twice/);
    expect(bad({ initialMultisigAddresses: [{ alias: owners[0], addresses: owners, threshold: 1 }] })).to.match(/expected P-local1/);
  });
});
