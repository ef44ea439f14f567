import { expect } from "chai";
import { createKeystoreApi } from "../../src/keystore/api";
import { Keystore } from "../../src/keystore/keystore";

const PASSWORD = "Corr3ct-Horse-Battery";

async function rejection(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: number; message: string };
  }
  throw new Error("expected the call to fail, but it succeeded");
}

function service() {
  const keystore = new Keystore();
  return { keystore, ks: createKeystoreApi(keystore).dispatch };
}

describe("keystore API (/ext/keystore)", () => {
  it("createUser answers {success: true} and the user can then authenticate", async () => {
    const { ks, keystore } = service();
    expect(await ks("keystore.createUser", { username: "alice", password: PASSWORD })).to.deep.equal({ success: true });
    expect((await keystore.authenticate("alice", PASSWORD)).username).to.equal("alice");
  });

  it("listUsers answers {users: [...]} with every user", async () => {
    const { ks } = service();
    expect(await ks("keystore.listUsers", {})).to.deep.equal({ users: [] });
    await ks("keystore.createUser", { username: "bob", password: PASSWORD });
    await ks("keystore.createUser", { username: "alice", password: PASSWORD });
    expect(await ks("keystore.listUsers", undefined)).to.deep.equal({ users: ["alice", "bob"] });
  });

  it("createUser of an existing user is refused: user already exists", async () => {
    const { ks } = service();
    await ks("keystore.createUser", { username: "alice", password: PASSWORD });
    expect(await rejection(ks("keystore.createUser", { username: "alice", password: PASSWORD }))).to.include({ code: -32000, message: "user already exists: alice" });
  });

  it("createUser refuses a weak password", async () => {
    const { ks } = service();
    const error = await rejection(ks("keystore.createUser", { username: "alice", password: "short" }));
    expect(error.code).to.equal(-32000);
    expect(error.message).to.match(/^password is too weak/);
  });

  it("createUser refuses an empty username", async () => {
    const { ks } = service();
    expect(await rejection(ks("keystore.createUser", { password: PASSWORD }))).to.include({ code: -32000, message: "empty username" });
  });

  it("createUser refuses a username that is not a string, naming the parameter", async () => {
    const { ks } = service();
    const error = await rejection(ks("keystore.createUser", { username: 7, password: PASSWORD }));
    expect(error.code).to.equal(-32602);
    expect(error.message).to.include("username must be a string");
  });

  it("deleteUser with the right password removes the user", async () => {
    const { ks } = service();
    await ks("keystore.createUser", { username: "alice", password: PASSWORD });
    expect(await ks("keystore.deleteUser", { username: "alice", password: PASSWORD })).to.deep.equal({ success: true });
    expect(await ks("keystore.listUsers", {})).to.deep.equal({ users: [] });
  });

  it("deleteUser with a wrong password is refused and keeps the user", async () => {
    const { ks } = service();
    await ks("keystore.createUser", { username: "alice", password: PASSWORD });
    expect(await rejection(ks("keystore.deleteUser", { username: "alice", password: "Wr0ng-Password" }))).to.include({ code: -32000, message: 'incorrect password: user "alice"' });
    expect(await ks("keystore.listUsers", {})).to.deep.equal({ users: ["alice"] });
  });

  it("deleteUser of a user that does not exist says so", async () => {
    const { ks } = service();
    expect(await rejection(ks("keystore.deleteUser", { username: "bob", password: PASSWORD }))).to.include({ code: -32000, message: "user doesn't exist: bob" });
  });

  it("answers an unknown keystore method with -32601", async () => {
    const { ks } = service();
    expect((await rejection(ks("keystore.exportUser", {}))).code).to.equal(-32601);
    expect((await rejection(ks("keystore.toString", {}))).code).to.equal(-32601);
  });
});
