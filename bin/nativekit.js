#!/usr/bin/env node
"use strict";
// Runs the compiled CLI when the package has been built (npm install builds it) and the build is
// not older than the sources; otherwise runs the TypeScript sources, so a fresh checkout or an
// edited one never runs stale code.
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "..");
const compiled = path.join(root, "dist", "src", "cli", "main.js");
const sources = path.join(root, "src");

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const time = entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs;
    if (time > newest) newest = time;
  }
  return newest;
}

function buildIsCurrent() {
  if (!fs.existsSync(compiled)) return false;
  // A published package ships dist/ without src/: nothing to compare with.
  if (!fs.existsSync(sources)) return true;
  return fs.statSync(compiled).mtimeMs >= newestMtime(sources);
}

if (buildIsCurrent()) {
  require(compiled).main();
} else {
  require("ts-node").register({ transpileOnly: true, project: path.join(root, "tsconfig.json") });
  require(path.join(sources, "cli", "main.ts")).main();
}
