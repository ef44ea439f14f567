import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DATA_FORMAT_VERSION, DataDirectoryError, LevelBackend, durableStore, openDataDirectory } from "../../src/storage";
import { rejection } from "../helpers/chain";

const LOCAL = { networkId: 1337, evmChainId: 43112 };

describe("storage: the node's data directory", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-data-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("is created when absent, marked with this build's format and the network", async () => {
    const target = path.join(dir, "new", "nested");
    const data = await openDataDirectory(target, LOCAL);
    try {
      expect(data.fresh).to.equal(true);
      expect(data.manifest.format).to.equal(DATA_FORMAT_VERSION);
      expect(data.manifest.networkId).to.equal(1337);
    } finally {
      await data.close();
    }
  });

  it("keeps what was committed across a reopen, and is no longer fresh", async () => {
    const first = await openDataDirectory(dir, LOCAL);
    first.store.namespace("c/").put("head", Uint8Array.of(7));
    await first.store.commit();
    await first.close();
    const second = await openDataDirectory(dir, LOCAL);
    try {
      expect(second.fresh).to.equal(false);
      expect(await second.store.namespace("c/").get("head")).to.deep.equal(Uint8Array.of(7));
    } finally {
      await second.close();
    }
  });

  it("refuses a directory written for another network, naming both networks and what to do", async () => {
    await (await openDataDirectory(dir, LOCAL)).close();
    const error = await rejection(openDataDirectory(dir, { ...LOCAL, networkId: 12345 }));
    expect(error).to.be.instanceOf(DataDirectoryError);
    expect(error.message).to.include("network 1337").and.include("network 12345").and.include("--network-id 1337");
  });

  it("refuses a directory whose contract chain has another EVM chain ID", async () => {
    await (await openDataDirectory(dir, LOCAL)).close();
    const error = await rejection(openDataDirectory(dir, { ...LOCAL, evmChainId: 31337 }));
    expect(error).to.be.instanceOf(DataDirectoryError);
    expect(error.message).to.include("EVM chain ID 43112").and.include("chain ID 31337").and.include("--chain-id 43112");
  });

  it("refuses a directory written in another format version", async () => {
    const backend = await LevelBackend.open(path.join(dir, "db"));
    const store = durableStore(backend);
    store.put("manifest", new TextEncoder().encode(JSON.stringify({ format: DATA_FORMAT_VERSION + 1, networkId: 1337, evmChainId: 43112 })));
    await store.commit();
    await backend.close();
    const error = await rejection(openDataDirectory(dir, LOCAL));
    expect(error).to.be.instanceOf(DataDirectoryError);
    expect(error.message).to.include(`format ${DATA_FORMAT_VERSION + 1}`).and.include("never converted in place");
  });

  it("refuses a database whose manifest was not written by nativekit", async () => {
    const backend = await LevelBackend.open(path.join(dir, "db"));
    const store = durableStore(backend);
    store.put("manifest", new TextEncoder().encode("not json"));
    await store.commit();
    await backend.close();
    expect((await rejection(openDataDirectory(dir, LOCAL))).message).to.include("not written by nativekit");
  });

  it("cannot be opened twice at once, and says so", async () => {
    const data = await openDataDirectory(dir, LOCAL);
    try {
      expect((await rejection(openDataDirectory(dir, LOCAL))).message).to.include("cannot open the database");
    } finally {
      await data.close();
    }
  });

  it("lists every key under a prefix, also those whose next character is beyond U+FFFF", async () => {
    const data = await openDataDirectory(dir, LOCAL);
    try {
      const users = data.store.namespace("u/");
      users.put("\u{1F600}", Uint8Array.of(1));
      users.put("\uffff", Uint8Array.of(2));
      data.store.put("v", Uint8Array.of(3));
      await data.store.commit();
      const keys: string[] = [];
      for await (const [key] of users.entries()) keys.push(key);
      expect(keys).to.deep.equal(["\uffff", "\u{1F600}"]);
    } finally {
      await data.close();
    }
  });
});
