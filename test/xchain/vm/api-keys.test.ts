import { expect } from "chai";
import { decodePrivateKey, encodePrivateKey } from "../../../src/encoding";
import { LOCAL_TEST_KEY } from "../../../src/network/constants";
import { shortIdFromPrivateKey } from "../../../src/utxo/codec";
import { EWOQ_ADDRESS, fixture, fundedUser, PASSWORD, rejection, testKey, xAddress } from "./helpers";

describe("xchain/vm API: keys of keystore users", () => {
  it("createAddress gives the user a new X- address that listAddresses then lists after the imported one", async () => {
    const { x, user } = await fundedUser();
    const { address } = (await x("xvm.createAddress", user)) as { address: string };
    expect(address).to.match(/^X-local1[02-9ac-hj-np-z]{38}$/);
    expect(await x("xvm.listAddresses", user)).to.deep.equal({ addresses: [EWOQ_ADDRESS, address] });
  });

  it("listAddresses of a user without keys is an empty list", async () => {
    const { x, ks } = fixture();
    await ks("keystore.createUser", { username: "empty", password: PASSWORD });
    expect(await x("xvm.listAddresses", { username: "empty", password: PASSWORD })).to.deep.equal({ addresses: [] });
  });

  it("importKey adds a PrivateKey- key and returns its address; importing it again changes nothing", async () => {
    const { x, user } = await fundedUser();
    const key = encodePrivateKey(testKey(9));
    const expected = xAddress(shortIdFromPrivateKey(testKey(9)));
    expect(await x("xvm.importKey", { ...user, privateKey: key })).to.deep.equal({ address: expected });
    expect(await x("xvm.importKey", { ...user, privateKey: key })).to.deep.equal({ address: expected });
    expect(await x("xvm.listAddresses", user)).to.deep.equal({ addresses: [EWOQ_ADDRESS, expected] });
  });

  it("exportKey returns the PrivateKey- string of an address the user controls", async () => {
    const { x, user } = await fundedUser();
    const { address } = (await x("xvm.createAddress", user)) as { address: string };
    const { privateKey } = (await x("xvm.exportKey", { ...user, address })) as { privateKey: string };
    expect(privateKey.startsWith("PrivateKey-")).to.equal(true);
    expect(xAddress(shortIdFromPrivateKey(decodePrivateKey(privateKey)))).to.equal(address);
    expect(await x("xvm.exportKey", { ...user, address: EWOQ_ADDRESS })).to.deep.equal({ privateKey: LOCAL_TEST_KEY });
  });

  it("exportKey of an address the user does not control is refused", async () => {
    const { x, user } = await fundedUser();
    const error = await rejection(x("xvm.exportKey", { ...user, address: xAddress(shortIdFromPrivateKey(testKey(4))) }));
    expect(error.code).to.equal(-32000);
    expect(error.message).to.include("problem retrieving private key: not found");
  });

  it("importKey without privateKey says argument 'privateKey' not given", async () => {
    const { x, user } = await fundedUser();
    const error = await rejection(x("xvm.importKey", user));
    expect(error).to.include({ code: -32602, message: "argument 'privateKey' not given" });
  });

  it("importKey of a malformed key is a parameter error that does not echo the key", async () => {
    const { x, user } = await fundedUser();
    const error = await rejection(x("xvm.importKey", { ...user, privateKey: "PrivateKey-notAKey" }));
    expect(error.code).to.equal(-32602);
    expect(error.message).to.match(/^invalid privateKey: /);
    expect(error.message).not.to.include("notAKey");
  });

  it("refuses a wrong password with the node's wording", async () => {
    const { x } = await fundedUser();
    const error = await rejection(x("xvm.listAddresses", { username: "alice", password: "Wr0ng-Password" }));
    expect(error).to.include({ code: -32000, message: 'problem retrieving user "alice": incorrect password: user "alice"' });
  });

  it("refuses a user that does not exist", async () => {
    const { x } = fixture();
    const error = await rejection(x("xvm.createAddress", { username: "bob", password: PASSWORD }));
    expect(error).to.include({ code: -32000, message: "problem retrieving user \"bob\": user doesn't exist: bob" });
  });

  it("keeps keys per chain: a key imported on the exchange chain is the user's there only", async () => {
    const { x, keystore, user, chain } = await fundedUser();
    const authed = await keystore.authenticate(user.username, user.password);
    expect(authed.keysFor(chain.chainId)).to.have.length(1);
    expect(authed.keysFor(new Uint8Array(32).fill(1))).to.deep.equal([]);
    expect(await x("xvm.listAddresses", user)).to.deep.equal({ addresses: [EWOQ_ADDRESS] });
  });
});
