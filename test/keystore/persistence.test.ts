import { expect } from "chai";
import { Keystore, KeystoreError } from "../../src/keystore/keystore";
import { DamagedRecordError } from "../../src/storage/record-codec";
import { STORE_KINDS, type TestStore } from "../helpers/stores";
import { refusal } from "../helpers/refusal";

const PASSWORD = "Corr3ct-Horse-Battery";
const CHAIN_A = new Uint8Array(32).fill(1);
const CHAIN_B = new Uint8Array(32).fill(2);
const key = (n: number): Uint8Array => new Uint8Array(32).fill(n);

for (const kind of STORE_KINDS) {
  describe(`keystore: persistence (${kind.name})`, () => {
    let t: TestStore;
    beforeEach(async () => (t = await kind.create()));
    afterEach(() => t.close());

    const reopened = async (): Promise<Keystore> => Keystore.open((await t.reopen()).namespace("keystore/"));

    it("keeps users, their passwords and their keys per chain in import order across a restart", async () => {
      const keystore = await Keystore.open(t.store.namespace("keystore/"));
      await keystore.createUser("alice", PASSWORD);
      await keystore.createUser("bob ☃ 🦀/x", PASSWORD + "!");
      const alice = await keystore.authenticate("alice", PASSWORD);
      await alice.addKey(CHAIN_A, key(3));
      await alice.addKey(CHAIN_A, key(1));
      await alice.addKey(CHAIN_B, key(2));
      await alice.addKey(CHAIN_A, key(3)); // already held: nothing changes

      const again = await reopened();
      expect(again.listUsers()).to.deep.equal(keystore.listUsers());
      const alice2 = await again.authenticate("alice", PASSWORD);
      expect(alice2.keysFor(CHAIN_A)).to.deep.equal([key(3), key(1)]);
      expect(alice2.keysFor(CHAIN_B)).to.deep.equal([key(2)]);
      expect((await again.authenticate("bob ☃ 🦀/x", PASSWORD + "!")).keysFor(CHAIN_A)).to.deep.equal([]);
      expect((await refusal(again.authenticate("alice", "wrong-password-1"))).message).to.equal("incorrect password");
    });

    it("forgets a deleted user across a restart", async () => {
      const keystore = await Keystore.open(t.store.namespace("keystore/"));
      await keystore.createUser("alice", PASSWORD);
      await keystore.createUser("carol", PASSWORD);
      await keystore.deleteUser("alice", PASSWORD);
      expect((await reopened()).listUsers()).to.deep.equal(["carol"]);
    });

    it("takes back a change the store could not write, and the store keeps the previous state", async () => {
      const keystore = await Keystore.open(t.store.namespace("keystore/"));
      await keystore.createUser("alice", PASSWORD);
      const alice = await keystore.authenticate("alice", PASSWORD);
      await alice.addKey(CHAIN_A, key(1));

      t.failNextWrite();
      const error = await refusal(alice.addKey(CHAIN_A, key(2)));
      expect(error).to.be.instanceOf(KeystoreError);
      expect(error.message).to.contain("could not save user alice").and.contain("no space left");
      expect(alice.keysFor(CHAIN_A)).to.deep.equal([key(1)]);
      t.failNextWrite();
      await refusal(keystore.createUser("dave", PASSWORD));
      expect(keystore.listUsers()).to.deep.equal(["alice"]);

      const again = await reopened();
      expect(again.listUsers()).to.deep.equal(["alice"]);
      expect((await again.authenticate("alice", PASSWORD)).keysFor(CHAIN_A)).to.deep.equal([key(1)]);
    });

    it("refuses a damaged user record, naming its key", async () => {
      const keystore = await Keystore.open(t.store.namespace("keystore/"));
      await keystore.createUser("alice", PASSWORD);
      t.store.namespace("keystore/").put("user/616c696365", new TextEncoder().encode('{"salt":"00"}'));
      await t.store.commit();
      const error = await refusal(reopened());
      expect(error).to.be.instanceOf(DamagedRecordError);
      expect(error.message).to.equal('the stored record "user/616c696365" is damaged: field keys must be a list of objects');
    });
  });
}

describe("keystore: without a store", () => {
  it("works in memory as before", async () => {
    const keystore = new Keystore();
    await keystore.createUser("alice", PASSWORD);
    await (await keystore.authenticate("alice", PASSWORD)).addKey(CHAIN_A, key(1));
    expect((await keystore.authenticate("alice", PASSWORD)).keysFor(CHAIN_A)).to.deep.equal([key(1)]);
  });
});
