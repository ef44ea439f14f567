/**
 * The address a contract creation gives its contract (the yellow paper's CREATE and EIP-1014's
 * CREATE2), hashed with the engine's WebAssembly Keccak. ethereumjs' own `generateAddress`
 * hashes with a pure-JS Keccak that a fresh process runs slowly (a few milliseconds until V8
 * has compiled it), and the first deployment of every test run paid that.
 */
import { RLP } from "@ethereumjs/rlp";
import { Address, bigIntToUnpaddedBytes, concatBytes } from "@ethereumjs/util";
import { keccak256 } from "./keccak";

const CREATE2_PREFIX = Uint8Array.of(0xff);

/** CREATE: the last 20 bytes of keccak256(rlp([sender, nonce])). */
export function createdContractAddress(sender: Uint8Array, nonce: bigint): Address {
  return new Address(keccak256(RLP.encode([sender, bigIntToUnpaddedBytes(nonce)])).subarray(12));
}

/** CREATE2: the last 20 bytes of keccak256(0xff ++ sender ++ salt ++ keccak256(initCode)). */
export function create2ContractAddress(sender: Uint8Array, salt: Uint8Array, initCode: Uint8Array): Address {
  return new Address(keccak256(concatBytes(CREATE2_PREFIX, sender, salt, keccak256(initCode))).subarray(12));
}
