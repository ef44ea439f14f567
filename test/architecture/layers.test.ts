import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";

/**
 * The layers of ../shared/design/architecture.md, as the imports of src/ must follow them: each
 * folder and the folders it may import. Ground (encoding, crypto, network identifiers, the
 * durable key-value storage) and the protocol (rpc) at the bottom; the domain (engine, atomic memory, keystore, the
 * UTXO-chain core, then the chains that compose it: exchange, platform, the contract chain's atomic side); the node; the adapters (clients, flows, deploy,
 * Hardhat, the command line) on the public surfaces. No import runs up.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  encoding: [],
  crypto: ["encoding"],
  network: ["encoding"],
  storage: [],
  threads: [],
  rpc: [],
  atomic: ["encoding", "storage"],
  keystore: ["encoding", "crypto", "rpc", "storage"],
  engine: ["encoding", "crypto", "network", "rpc", "storage"],
  utxo: ["encoding", "crypto", "network", "rpc", "storage", "atomic", "keystore"],
  xchain: ["encoding", "crypto", "network", "rpc", "storage", "atomic", "keystore", "utxo"],
  pchain: ["encoding", "crypto", "network", "rpc", "storage", "atomic", "keystore", "utxo"],
  cchain: ["encoding", "crypto", "network", "rpc", "storage", "atomic", "keystore", "engine", "utxo"],
  node: ["encoding", "crypto", "network", "rpc", "storage", "threads", "atomic", "keystore", "engine", "utxo", "xchain", "cchain", "pchain"],
  clients: ["encoding", "network"],
  flows: ["encoding", "network", "clients"],
  deploy: ["encoding", "network"],
  hardhat: ["encoding", "crypto", "network", "rpc", "engine", "flows", "deploy", "cli"],
  services: ["encoding", "crypto", "network", "rpc", "clients", "threads"],
  cli: ["encoding", "network", "rpc", "node", "clients", "flows", "services"],
};

/**
 * The wire formats inside the domain: pure byte codecs (they import only ground and one another),
 * which a service may use to read the containers a node's index API hands out. The rest of those
 * domain folders stays out of a service's reach.
 */
const WIRE_FORMATS: Record<string, readonly string[]> = {
  services: ["utxo/codec", "pchain/codec"],
};
const WIRE_FORMAT_IMPORTS: readonly string[] = ["encoding", "crypto", "utxo/codec"];

const SRC = path.join(__dirname, "..", "..", "src");

/** The src/-relative path of an import, e.g. "utxo/codec/sign" for "../../utxo/codec/sign". */
function importedPath(file: string, specifier: string): string {
  return path.relative(SRC, path.resolve(path.dirname(file), specifier)).split(path.sep).join("/");
}

function isUnder(target: string, folder: string): boolean {
  return target === folder || target.startsWith(`${folder}/`);
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** The top folder of src/ a file belongs to ("" for src/index.ts). */
function folderOf(file: string): string {
  const relative = path.relative(SRC, file).split(path.sep);
  return relative.length === 1 ? "" : relative[0]!;
}

/** The src/ folders a file imports (static `from "…"` and dynamic `import("…")`), other than its own. */
function importedFolders(file: string): { folder: string; specifier: string }[] {
  const text = fs.readFileSync(file, "utf8");
  const found: { folder: string; specifier: string }[] = [];
  for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*)"(\.[^"]+)"/g)) {
    const target = path.resolve(path.dirname(file), match[1]!);
    if (!target.startsWith(SRC + path.sep)) continue;
    // "../encoding" names a folder (its index.ts), "../engine/chain" a file in one.
    const folder = path.relative(SRC, target).split(path.sep)[0]!;
    if (folder !== folderOf(file)) found.push({ folder, specifier: match[1]! });
  }
  return found;
}

describe("architecture: the layers of src/", () => {
  const files = sourceFiles(SRC);

  it("knows every folder of src/", () => {
    const folders = new Set(files.map(folderOf).filter((f) => f !== ""));
    expect([...folders].sort()).to.deep.equal(Object.keys(MAY_IMPORT).sort());
  });

  it("has no import that runs up a layer or sideways into a folder not below it", () => {
    const violations: string[] = [];
    for (const file of files) {
      const folder = folderOf(file);
      if (folder === "") continue; // the package entry re-exports every layer
      for (const { folder: target, specifier } of importedFolders(file)) {
        if (MAY_IMPORT[folder]!.includes(target)) continue;
        if ((WIRE_FORMATS[folder] ?? []).some((wire) => isUnder(importedPath(file, specifier), wire))) continue;
        violations.push(`${path.relative(SRC, file)} imports ${specifier} (${folder} -> ${target})`);
      }
    }
    expect(violations).to.deep.equal([]);
  });

  it("keeps the wire formats services may read free of the rest of the domain", () => {
    const violations: string[] = [];
    for (const wire of new Set(Object.values(WIRE_FORMATS).flat())) {
      for (const file of sourceFiles(path.join(SRC, wire))) {
        for (const match of fs.readFileSync(file, "utf8").matchAll(/(?:from\s+|import\s*\(\s*)"(\.[^"]+)"/g)) {
          const target = importedPath(file, match[1]!);
          if (isUnder(target, wire)) continue;
          if (!WIRE_FORMAT_IMPORTS.some((allowed) => isUnder(target, allowed))) violations.push(`${path.relative(SRC, file)} imports ${match[1]}`);
        }
      }
    }
    expect(violations).to.deep.equal([]);
  });

  it("keeps each chain to its own folder and the UTXO-chain core: no chain imports another chain's code", () => {
    // A chain's folder is all of it (api/, vm/, codec/, genesis, ...): what two chains share
    // lives in src/utxo, so nothing of one chain (its API, its state machine, its codec) is
    // reached from another; the node, which assembles them, is the one place that names them all.
    const chains = ["xchain", "pchain", "cchain"];
    const violations: string[] = [];
    for (const file of files) {
      const folder = folderOf(file);
      if (!chains.includes(folder)) continue;
      for (const { folder: target, specifier } of importedFolders(file)) {
        if (chains.includes(target)) violations.push(`${path.relative(SRC, file)} imports ${specifier} (${folder} -> ${target})`);
      }
    }
    expect(violations).to.deep.equal([]);
  });

  it("keeps source files to about 500 lines, one concept each", () => {
    const long = files.map((file) => ({ file: path.relative(SRC, file), lines: fs.readFileSync(file, "utf8").split("\n").length })).filter((f) => f.lines > 520);
    expect(long).to.deep.equal([]);
  });
});
