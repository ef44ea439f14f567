import { publicToAddress } from "@ethereumjs/util";
import { expect } from "chai";

import { publicKeyOf } from "../../src/crypto/secp256k1";

import {
  DEFAULT_HD_PATH,
  DEFAULT_MNEMONIC,
  DEFAULT_MNEMONIC_ADDRESSES,
  DEFAULT_MNEMONIC_KEYS,
  DEFAULT_MNEMONIC_PUBLIC_KEYS,
  computeMnemonicKeys,
  deriveMnemonicKeys,
  fundedAccounts,
  unlockedAccount,
} from "../../src/engine/accounts";

/** Another mnemonic (valid checksum), so derivation is exercised off the table. */
const OTHER_MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

describe("accounts", () => {
  it("the default mnemonic's written-out keys are the ones it derives", () => {
    expect(DEFAULT_MNEMONIC_KEYS).to.have.length(20);
    expect(computeMnemonicKeys(DEFAULT_MNEMONIC, 0, 20)).to.deep.equal([...DEFAULT_MNEMONIC_KEYS]);
  });

  it("the default keys' written-out public keys are the ones their keys multiply out to", () => {
    expect(DEFAULT_MNEMONIC_PUBLIC_KEYS).to.have.length(DEFAULT_MNEMONIC_KEYS.length);
    const computed = DEFAULT_MNEMONIC_KEYS.map((key) => Buffer.from(publicKeyOf(Buffer.from(key.slice(2), "hex"), false).subarray(1)).toString("hex"));
    expect([...DEFAULT_MNEMONIC_PUBLIC_KEYS]).to.deep.equal(computed);
  });

  it("the default keys' written-out addresses are the ones their public keys hash to", () => {
    expect(DEFAULT_MNEMONIC_ADDRESSES).to.have.length(DEFAULT_MNEMONIC_KEYS.length);
    const computed = DEFAULT_MNEMONIC_PUBLIC_KEYS.map((key) => Buffer.from(publicToAddress(Buffer.from(key, "hex"))).toString("hex"));
    expect([...DEFAULT_MNEMONIC_ADDRESSES]).to.deep.equal(computed);
  });

  it("the first default account is the well-known 0xf39f… key", () => {
    const [first] = fundedAccounts(undefined);
    expect(unlockedAccount(first!.privateKey).addressHex).to.equal("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266");
  });

  it("more default accounts than the table holds are derived past it", () => {
    const keys = deriveMnemonicKeys(DEFAULT_MNEMONIC, 23);
    expect(keys.slice(0, 20)).to.deep.equal([...DEFAULT_MNEMONIC_KEYS]);
    expect(keys.slice(20)).to.deep.equal(computeMnemonicKeys(DEFAULT_MNEMONIC, 20, 23));
    expect(new Set(keys).size).to.equal(23);
  });

  it("another mnemonic, or another path, is derived rather than read from the table", () => {
    const other = deriveMnemonicKeys(OTHER_MNEMONIC, 2);
    expect(other).to.deep.equal(computeMnemonicKeys(OTHER_MNEMONIC, 0, 2));
    expect(other[0]).to.not.equal(DEFAULT_MNEMONIC_KEYS[0]);
    const otherPath = deriveMnemonicKeys(DEFAULT_MNEMONIC, 2, "m/44'/60'/1'/0");
    expect(otherPath).to.deep.equal(computeMnemonicKeys(DEFAULT_MNEMONIC, 0, 2, "m/44'/60'/1'/0"));
    expect(otherPath[0]).to.not.equal(DEFAULT_MNEMONIC_KEYS[0]);
    expect(deriveMnemonicKeys(DEFAULT_MNEMONIC, 3, DEFAULT_HD_PATH)).to.deep.equal(DEFAULT_MNEMONIC_KEYS.slice(0, 3));
  });

  it("a key is unlocked the same in upper or lower case, and a bad key is refused every time", () => {
    const key = DEFAULT_MNEMONIC_KEYS[1]!;
    expect(unlockedAccount(key.toUpperCase().replace("0X", "0x"))).to.equal(unlockedAccount(key));
    expect(() => unlockedAccount("0x1234")).to.throw("a private key is 32 bytes, got 2");
    expect(() => unlockedAccount("0x1234")).to.throw("a private key is 32 bytes, got 2");
  });
});
