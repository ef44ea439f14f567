import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

import { expect } from "chai";

import { SIGNATURE_MEMO_LIMIT, SignatureMemo, signatureMemoBytes } from "../../src/crypto/signature-memo";
import { signatureCacheFile, signatureCacheOff } from "../../src/hardhat/signature-cache";
import { stdoutOfFreshProcess } from "../helpers/fresh-process";

/** What a run (a fresh process, as a test run is) reports after sending one transaction with the memo kept under `cacheDirectory`. */
interface RunReport {
  hash: string;
  memo: { size: number; changed: boolean } | null;
}

function runOnce(cacheDirectory: string, env: NodeJS.ProcessEnv = {}): RunReport {
  const script = `
    const { keptSignatures } = require("./src/hardhat/signature-cache");
    const { createNativeProvider } = require("./src/engine");
    (async () => {
      const memo = keptSignatures(${JSON.stringify(cacheDirectory)});
      const provider = await createNativeProvider({ genesisTimestamp: 1700000000, signatureMemo: memo });
      const [from, to] = await provider.request({ method: "eth_accounts" });
      const hash = await provider.request({ method: "eth_sendTransaction", params: [{ from, to, value: "0x1" }] });
      process.stdout.write(JSON.stringify({ hash, memo: memo === undefined ? null : { size: memo.size, changed: memo.changed } }));
    })().catch((e) => { console.error(e); process.exit(1); });
  `;
  const out = stdoutOfFreshProcess(script, { NATIVEKIT_SIGNATURE_CACHE: undefined, ...env });
  return JSON.parse(out) as RunReport;
}

describe("hardhat plugin: the signatures kept across test runs (cache/nativekit/signatures.bin)", function () {
  this.timeout(120_000);
  let directory: string;
  let cacheDirectory: string;
  beforeEach(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), "nativekit-signature-cache-"));
    cacheDirectory = path.join(directory, "cache");
  });
  afterEach(() => fs.rmSync(directory, { recursive: true, force: true }));

  it("writes what a run signed when it ends; the next run signs nothing, gives the same hash and leaves the file as it was", () => {
    const file = signatureCacheFile(cacheDirectory);
    expect(file).to.equal(path.join(cacheDirectory, "nativekit", "signatures.bin"));
    const first = runOnce(cacheDirectory);
    expect(first.memo).to.deep.equal({ size: 1, changed: true });
    const written = fs.readFileSync(file);
    expect(SignatureMemo.fromBytes(written).size).to.equal(1);
    const next = runOnce(cacheDirectory);
    expect(next).to.deep.equal({ hash: first.hash, memo: { size: 1, changed: false } });
    expect(fs.readFileSync(file)).to.deep.equal(written);
    expect(fs.readdirSync(path.dirname(file)), "no partial file left").to.deep.equal(["signatures.bin"]);
  });

  it("does not use a damaged file: the run signs, answers the same, and its memo replaces the file", () => {
    const reference = runOnce(cacheDirectory).hash;
    const file = signatureCacheFile(cacheDirectory);
    const damaged = fs.readFileSync(file);
    damaged[damaged.length - 40] = damaged[damaged.length - 40]! ^ 0xff;
    fs.writeFileSync(file, damaged);
    const run = runOnce(cacheDirectory);
    expect(run).to.deep.equal({ hash: reference, memo: { size: 1, changed: true } });
    expect(SignatureMemo.fromBytes(fs.readFileSync(file)).size).to.equal(1);
  });

  it("does not read a file larger than a full memo, and replaces it", () => {
    runOnce(cacheDirectory);
    // A well-formed memo, holding the run's signature, but with one entry more than the bound allows.
    const file = signatureCacheFile(cacheDirectory);
    const oversized = SignatureMemo.fromBytes(fs.readFileSync(file), SIGNATURE_MEMO_LIMIT + 1);
    for (let i = 0; i < SIGNATURE_MEMO_LIMIT; i++) {
      const digest = new Uint8Array(32);
      digest.set([i >> 8, i & 0xff]);
      oversized.set(new Uint8Array(20), digest, { r: digest, s: digest, recovery: 0 });
    }
    const bytes = oversized.toBytes();
    expect(bytes.length).to.be.greaterThan(signatureMemoBytes(SIGNATURE_MEMO_LIMIT));
    fs.writeFileSync(file, bytes);
    const run = runOnce(cacheDirectory);
    expect(run.memo, "the run signed, as with no file").to.deep.equal({ size: 1, changed: true });
    expect(SignatureMemo.fromBytes(fs.readFileSync(file)).size).to.equal(1);
  });

  it("reads and writes nothing with NATIVEKIT_SIGNATURE_CACHE=0", () => {
    const run = runOnce(cacheDirectory, { NATIVEKIT_SIGNATURE_CACHE: "0" });
    expect(run.memo).to.equal(null);
    expect(fs.existsSync(cacheDirectory)).to.equal(false);
    expect(signatureCacheOff({ NATIVEKIT_SIGNATURE_CACHE: "off" })).to.equal(true);
    expect(signatureCacheOff({ NATIVEKIT_SIGNATURE_CACHE: "1" })).to.equal(false);
    expect(signatureCacheOff({})).to.equal(false);
  });

  it("answers as usual when the cache directory cannot be written", () => {
    // A file where the directory would be: the write at the end fails, quietly.
    fs.writeFileSync(cacheDirectory, "not a directory");
    const run = runOnce(cacheDirectory);
    expect(run.hash).to.match(/^0x[0-9a-f]{64}$/);
    expect(fs.readFileSync(cacheDirectory, "utf8")).to.equal("not a directory");
  });
});
