#!/usr/bin/env node
"use strict";
// Runs the compiled CLI when the package has been built (npm install builds it), and the
// TypeScript sources otherwise, so the command works in a fresh checkout too.
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "..");
const compiled = path.join(root, "dist", "src", "node", "main.js");
if (fs.existsSync(compiled)) {
  require(compiled).main();
} else {
  require("ts-node").register({ transpileOnly: true, project: path.join(root, "tsconfig.json") });
  require(path.join(root, "src", "node", "main.ts")).main();
}
