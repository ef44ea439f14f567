/** The web3_ namespace: the client's name and Keccak-256. */
import { keccak_256 } from "@noble/hashes/sha3.js";
import { RpcApi, type RpcApiOptions } from "../../rpc/api";
import type { LockHeld } from "../engine-lock";
import { hex } from "./format";
import * as p from "./params";

// Starts with "HardhatNetwork" on purpose: Hardhat's network helpers accept only development
// networks that say so (as they accept anvil), and the engine answers every method they call.
export const CLIENT_VERSION = "HardhatNetwork/nativekit/0.1.0";

/** `headReads`: the options of the reads that may answer beside a running operation (serve.ts). */
export function web3Api(options: RpcApiOptions<LockHeld>, headReads: RpcApiOptions<LockHeld | undefined>): RpcApi<LockHeld> {
  return RpcApi.scoped(options)
    .include(RpcApi.scoped(headReads).positionalMethods(undefined, { web3_clientVersion: [0, clientVersion] }))
    .positionalMethods(undefined, { web3_sha3: [1, sha3] });
}

function clientVersion(): string {
  return CLIENT_VERSION;
}

/** [data]: its Keccak-256 hash. */
function sha3(_context: undefined, [data]: unknown[]): string {
  return hex(keccak_256(p.data(data, "data")));
}
