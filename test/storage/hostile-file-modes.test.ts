/**
 * Hostile local users against a node's data directory (issue 26, item 7): its files held the
 * auth password's hash (then the tokens' key), the staking keys and the keystore, and were
 * written 0644, so any user of the machine who could reach them could read them. The directory
 * is 0700, every folder in it 0700 and every file 0600: from the node command (its umask is
 * 077) and from any data directory opened again (what an earlier version left open is closed).
 */
import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { openDataDirectory } from "../../src/storage";
import { startedCliNode } from "../helpers/cli-node";

const LOCAL = { networkId: 12345, evmChainId: 43112 };

/** Every entry under `dir` (itself included) with its permission bits, by path relative to `dir`. */
function modes(dir: string): { folders: Record<string, string>; files: Record<string, string> } {
  const folders: Record<string, string> = {};
  const files: Record<string, string> = {};
  const walk = (folder: string) => {
    folders[path.relative(dir, folder) || "."] = (fs.statSync(folder).mode & 0o777).toString(8);
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) files[path.relative(dir, full)] = (fs.statSync(full).mode & 0o777).toString(8);
    }
  };
  walk(dir);
  return { folders, files };
}

/** The same keys, each with `mode`. */
const all = (entries: Record<string, string>, mode: string): Record<string, string> => Object.fromEntries(Object.keys(entries).map((name) => [name, mode]));

describe("hostile input: the files of a data directory are its owner's only", function () {
  this.timeout(180_000);
  const made: string[] = [];
  const fresh = (): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-modes-"));
    made.push(dir);
    return dir;
  };
  after(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it("after `nativekit node --db-dir` has written blocks, every file under the directory is 0600 and every folder 0700", async () => {
    const dir = fresh();
    const node = await startedCliNode(["--db-dir", dir]);
    try {
      for (let i = 0; i < 3; i++) await node.call("/ext/bc/C/rpc", "evm_mine", []);
      expect(Number(await node.call<string>("/ext/bc/C/rpc", "eth_blockNumber", []))).to.be.at.least(3);
      const running = modes(dir);
      expect(Object.keys(running.files)).to.include.members(["db/CURRENT", "staking/staker.key", "staking/staker.crt"]);
      expect(running.files, "files while the node runs").to.deep.equal(all(running.files, "600"));
      expect(running.folders, "folders while the node runs").to.deep.equal(all(running.folders, "700"));
    } finally {
      await node.stop();
    }
    const stopped = modes(dir);
    expect(stopped.files, "files once the node stopped").to.deep.equal(all(stopped.files, "600"));
    expect(stopped.folders, "folders once the node stopped").to.deep.equal(all(stopped.folders, "700"));
  });

  it("a data directory whose files were left readable (0644, folders 0755) is closed again when opened", async () => {
    const dir = fresh();
    const first = await openDataDirectory(dir, LOCAL);
    first.store.put("record", new Uint8Array(64).fill(7));
    await first.store.commit();
    await first.close();
    fs.mkdirSync(path.join(dir, "staking"));
    fs.writeFileSync(path.join(dir, "staking", "staker.key"), "key");
    const open = modes(dir);
    for (const name of Object.keys(open.files)) fs.chmodSync(path.join(dir, name), 0o644);
    for (const name of Object.keys(open.folders)) fs.chmodSync(path.join(dir, name), 0o755);

    const again = await openDataDirectory(dir, LOCAL);
    try {
      const reopened = modes(dir);
      expect(Object.keys(reopened.files)).to.include.members(["db/CURRENT", "staking/staker.key"]);
      expect(reopened.files).to.deep.equal(all(reopened.files, "600"));
      expect(reopened.folders).to.deep.equal(all(reopened.folders, "700"));
    } finally {
      await again.close();
    }
  });
});
