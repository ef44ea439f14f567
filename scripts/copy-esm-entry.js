// Part of `npm run build`: the Hardhat plugin's ES-module entry and its declarations are
// written by hand (tsc compiles this package to CommonJS), so they are copied beside the
// compiled CommonJS entry they share a directory with.
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
for (const file of ["index.mjs", "index.d.mts"]) {
  fs.copyFileSync(path.join(root, "src", "hardhat", file), path.join(root, "dist", "src", "hardhat", file));
}
