import { expect } from "chai";
import { Transaction, Wallet, getAddress, hexlify, toUtf8Bytes, verifyMessage } from "ethers";

import { rejection, startChain, type TestChain } from "../helpers/chain";

const PASSWORD = "correct horse battery staple";
const message = (text: string): string => hexlify(toUtf8Bytes(text));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("personal_ namespace: password-protected accounts with geth's keystore semantics", function () {
  this.timeout(60_000);
  let chain: TestChain;
  let funder: string;

  beforeEach(async () => {
    chain = await startChain();
    [funder] = (await chain.rpc("eth_accounts")) as string[];
  });

  /** A new password-protected account, its address in lowercase (as the other methods write it). */
  async function newAccount(password: string): Promise<string> {
    return ((await chain.rpc("personal_newAccount", [password])) as string).toLowerCase();
  }

  /** Sends `from` one coin from the first test account, so it can pay for gas. */
  async function fund(address: string): Promise<void> {
    await chain.rpc("eth_sendTransaction", [{ from: funder, to: address, value: "0xde0b6b3a7640000" }]);
  }

  describe("personal_newAccount and personal_listAccounts", () => {
    it("creates a locked account (its address checksummed, as geth answers) and lists it, in lowercase, oldest first", async () => {
      expect(await chain.rpc("personal_listAccounts")).to.deep.equal([]);
      const answered = (await chain.rpc("personal_newAccount", [PASSWORD])) as string;
      expect(answered).to.equal(getAddress(answered));
      const first = answered.toLowerCase();
      const second = await newAccount("another");
      expect(second).not.to.equal(first);
      expect(await chain.rpc("personal_listAccounts")).to.deep.equal([first, second]);
      // Locked: not among the accounts eth_sendTransaction signs for.
      expect(await chain.rpc("eth_accounts")).not.to.include(first);
    });

    it("refuses a password that is not a string", async () => {
      const error = await rejection(chain.rpc("personal_newAccount", [42]));
      expect(error.code).to.equal(-32602);
      expect(error.message).to.match(/password must be a string/);
    });
  });

  describe("personal_importRawKey", () => {
    it("imports a key (hex, with or without 0x) and answers its address", async () => {
      const wallet = Wallet.createRandom();
      const address = await chain.rpc("personal_importRawKey", [wallet.privateKey.slice(2), PASSWORD]);
      expect(address).to.equal(wallet.address.toLowerCase());
      const other = Wallet.createRandom();
      expect(await chain.rpc("personal_importRawKey", [other.privateKey, PASSWORD])).to.equal(other.address.toLowerCase());
      expect(await chain.rpc("personal_listAccounts")).to.deep.equal([wallet.address.toLowerCase(), other.address.toLowerCase()]);
    });

    it("refuses a key it already holds with geth's 'account already exists'", async () => {
      const wallet = Wallet.createRandom();
      await chain.rpc("personal_importRawKey", [wallet.privateKey, PASSWORD]);
      const error = await rejection(chain.rpc("personal_importRawKey", [wallet.privateKey, "other"]));
      expect(error.code).to.equal(-32000);
      expect(error.message).to.equal("account already exists");
    });

    it("refuses malformed and invalid keys without echoing them", async () => {
      const short = await rejection(chain.rpc("personal_importRawKey", ["0x1234", PASSWORD]));
      expect(short.code).to.equal(-32602);
      expect(short.message).to.match(/64 hex digits/).and.not.to.contain("1234");
      const zero = await rejection(chain.rpc("personal_importRawKey", ["00".repeat(32), PASSWORD]));
      expect(zero.message).to.equal("invalid private key");
    });
  });

  describe("personal_unlockAccount and personal_lockAccount", () => {
    it("unlocking with the password lets eth_sendTransaction sign for the account; locking stops it", async () => {
      const account = await newAccount(PASSWORD);
      await fund(account);
      const locked = await rejection(chain.rpc("eth_sendTransaction", [{ from: account, to: funder, value: "0x1" }]));
      expect(locked.code).to.equal(-32000);
      expect(locked.message).to.equal("authentication needed: password or unlock");

      expect(await chain.rpc("personal_unlockAccount", [account, PASSWORD, 0])).to.equal(true);
      expect(await chain.rpc("eth_accounts")).to.include(account);
      const hash = (await chain.rpc("eth_sendTransaction", [{ from: account, to: funder, value: "0x1" }])) as string;
      const receipt = (await chain.rpc("eth_getTransactionReceipt", [hash])) as { from: string; status: string };
      expect(receipt.from).to.equal(account);
      expect(receipt.status).to.equal("0x1");

      expect(await chain.rpc("personal_lockAccount", [account])).to.equal(true);
      expect(await chain.rpc("eth_accounts")).not.to.include(account);
      const again = await rejection(chain.rpc("eth_sendTransaction", [{ from: account, to: funder, value: "0x1" }]));
      expect(again.message).to.equal("authentication needed: password or unlock");
    });

    it("a wrong password is refused with geth's message and leaves the account locked", async () => {
      const account = await newAccount(PASSWORD);
      const error = await rejection(chain.rpc("personal_unlockAccount", [account, "wrong", 60]));
      expect(error.code).to.equal(-32000);
      expect(error.message).to.equal("could not decrypt key with given password");
      expect(await chain.rpc("eth_accounts")).not.to.include(account);
    });

    it("an address the store does not hold is an unknown account", async () => {
      const error = await rejection(chain.rpc("personal_unlockAccount", ["0x" + "ab".repeat(20), PASSWORD]));
      expect(error.message).to.equal("unknown account");
    });

    it("an unlock with a duration ends by itself when it runs out", async () => {
      const account = await newAccount(PASSWORD);
      await fund(account);
      await chain.rpc("personal_unlockAccount", [account, PASSWORD, 1]);
      expect(await chain.rpc("eth_accounts")).to.include(account);
      await sleep(1_300);
      expect(await chain.rpc("eth_accounts")).not.to.include(account);
      const error = await rejection(chain.rpc("eth_sendTransaction", [{ from: account, to: funder, value: "0x1" }]));
      expect(error.message).to.equal("authentication needed: password or unlock");
    });

    it("unlocking again with a duration sets the new time; an unlock until the node stops stays so", async () => {
      const timed = await newAccount(PASSWORD);
      await chain.rpc("personal_unlockAccount", [timed, PASSWORD, 1]);
      await chain.rpc("personal_unlockAccount", [timed, PASSWORD, 60]);
      const forever = await newAccount(PASSWORD);
      await chain.rpc("personal_unlockAccount", [forever, PASSWORD, 0]);
      await chain.rpc("personal_unlockAccount", [forever, PASSWORD, 1]);
      await sleep(1_300);
      const accounts = (await chain.rpc("eth_accounts")) as string[];
      expect(accounts).to.include(timed);
      expect(accounts).to.include(forever);
    });

    it("refuses a duration beyond geth's limit, and one that is not a whole number of seconds", async () => {
      const account = await newAccount(PASSWORD);
      const tooLong = await rejection(chain.rpc("personal_unlockAccount", [account, PASSWORD, 9_223_372_037]));
      expect(tooLong.message).to.equal("unlock duration too large");
      const fraction = await rejection(chain.rpc("personal_unlockAccount", [account, PASSWORD, 1.5]));
      expect(fraction.code).to.equal(-32602);
    });

    it("personal_lockAccount answers false for an address that is not a password-protected account", async () => {
      expect(await chain.rpc("personal_lockAccount", [funder])).to.equal(false);
      // The node's test accounts stay unlocked.
      expect(await chain.rpc("eth_accounts")).to.include(funder);
    });
  });

  describe("personal_sign and personal_ecRecover", () => {
    it("signs with the password (locked or not), and ecRecover gives the signer back", async () => {
      const wallet = Wallet.createRandom();
      const account = (await chain.rpc("personal_importRawKey", [wallet.privateKey, PASSWORD])) as string;
      const data = message("sign in to the dApp");
      const signature = (await chain.rpc("personal_sign", [data, account, PASSWORD])) as string;
      expect(signature).to.equal(await wallet.signMessage(toUtf8Bytes("sign in to the dApp")));
      expect(verifyMessage("sign in to the dApp", signature).toLowerCase()).to.equal(account);
      expect(await chain.rpc("personal_ecRecover", [data, signature])).to.equal(account);
    });

    it("refuses a wrong password", async () => {
      const account = await newAccount(PASSWORD);
      const error = await rejection(chain.rpc("personal_sign", [message("x"), account, "wrong"]));
      expect(error.code).to.equal(-32000);
      expect(error.message).to.equal("could not decrypt key with given password");
    });

    it("without a password signs only for an unlocked account", async () => {
      const account = await newAccount(PASSWORD);
      const locked = await rejection(chain.rpc("personal_sign", [message("x"), account]));
      expect(locked.message).to.equal("authentication needed: password or unlock");
      await chain.rpc("personal_unlockAccount", [account, PASSWORD, 0]);
      const signature = (await chain.rpc("personal_sign", [message("x"), account])) as string;
      expect(await chain.rpc("personal_ecRecover", [message("x"), signature])).to.equal(account);
    });

    it("still signs for the node's test accounts, which have no password", async () => {
      const signature = (await chain.rpc("personal_sign", [message("hello"), funder, ""])) as string;
      expect(await chain.rpc("personal_ecRecover", [message("hello"), signature])).to.equal(funder);
    });

    it("ecRecover refuses a signature that is not 65 bytes or whose v is not 27 or 28", async () => {
      const short = await rejection(chain.rpc("personal_ecRecover", [message("x"), "0x" + "11".repeat(64)]));
      expect(short.message).to.equal("signature must be 65 bytes long");
      const signature = (await chain.rpc("personal_sign", [message("x"), funder])) as string;
      const v01 = signature.slice(0, -2) + (signature.endsWith("1b") ? "00" : "01");
      const badV = await rejection(chain.rpc("personal_ecRecover", [message("x"), v01]));
      expect(badV.message).to.equal("invalid Ethereum signature (V is not 27 or 28)");
    });
  });

  describe("personal_sendTransaction", () => {
    it("sends with the key the password decrypts, without unlocking the account", async () => {
      const account = await newAccount(PASSWORD);
      await fund(account);
      const hash = (await chain.rpc("personal_sendTransaction", [{ from: account, to: funder, value: "0x2" }, PASSWORD])) as string;
      const tx = (await chain.rpc("eth_getTransactionByHash", [hash])) as { from: string; value: string };
      expect(tx.from).to.equal(account);
      expect(tx.value).to.equal("0x2");
      expect(await chain.rpc("eth_accounts")).not.to.include(account);
    });

    it("refuses a wrong password and an unknown sender", async () => {
      const account = await newAccount(PASSWORD);
      await fund(account);
      const wrong = await rejection(chain.rpc("personal_sendTransaction", [{ from: account, to: funder, value: "0x1" }, "wrong"]));
      expect(wrong.message).to.equal("could not decrypt key with given password");
      const unknown = await rejection(chain.rpc("personal_sendTransaction", [{ from: "0x" + "cd".repeat(20), to: funder }, PASSWORD]));
      expect(unknown.message).to.match(/^unknown account/);
      expect(await chain.rpc("eth_getTransactionCount", [account, "latest"])).to.equal("0x0");
    });
  });

  describe("personal_signTransaction", () => {
    it("signs a fully given transaction with the password's key and sends nothing", async () => {
      const wallet = Wallet.createRandom();
      const account = (await chain.rpc("personal_importRawKey", [wallet.privateKey, PASSWORD])) as string;
      const request = { from: account, to: funder, value: "0x5", gas: "0x5208", maxFeePerGas: "0x77359400", maxPriorityFeePerGas: "0x0", nonce: "0x0" };
      const signed = (await chain.rpc("personal_signTransaction", [request, PASSWORD])) as { raw: string; tx: { hash: string; from: string } };
      const decoded = Transaction.from(signed.raw);
      expect(decoded.from?.toLowerCase()).to.equal(account);
      expect(decoded.value).to.equal(5n);
      expect(signed.tx.hash).to.equal(decoded.hash);
      expect(signed.tx.from).to.equal(account);
      expect(await chain.rpc("eth_getTransactionByHash", [decoded.hash])).to.equal(null);
    });

    it("refuses a transaction missing what geth requires, and a wrong password", async () => {
      const account = await newAccount(PASSWORD);
      const full = { from: account, to: funder, gas: "0x5208", gasPrice: "0x77359400", nonce: "0x0" };
      const without = (field: keyof typeof full) => Object.fromEntries(Object.entries(full).filter(([k]) => k !== field));
      expect((await rejection(chain.rpc("personal_signTransaction", [without("gas"), PASSWORD]))).message).to.equal("gas not specified");
      expect((await rejection(chain.rpc("personal_signTransaction", [without("nonce"), PASSWORD]))).message).to.equal("nonce not specified");
      expect((await rejection(chain.rpc("personal_signTransaction", [without("gasPrice"), PASSWORD]))).message).to.equal("missing gasPrice or maxFeePerGas/maxPriorityFeePerGas");
      expect((await rejection(chain.rpc("personal_signTransaction", [without("from"), PASSWORD]))).message).to.equal("sender not specified");
      expect((await rejection(chain.rpc("personal_signTransaction", [full, "wrong"]))).message).to.equal("could not decrypt key with given password");
    });
  });

  it("each chain has its own store", async () => {
    await chain.rpc("personal_newAccount", [PASSWORD]);
    const other = await startChain();
    expect(await other.rpc("personal_listAccounts")).to.deep.equal([]);
  });
});
