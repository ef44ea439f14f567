// The engine thread's entry from the TypeScript sources (the package runs the compiled one).
require("ts-node/register/transpile-only");
require("../../src/hardhat/hardhat3/engine-thread-worker.ts");
