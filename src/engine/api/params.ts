/**
 * Parsing of the eth_ methods' parameters into engine values. Every function throws the rpc
 * toolkit's `invalidParams` (-32602) with a message that names the parameter and what was
 * expected.
 */
import { bytesToUnprefixedHex, createAddressFromString, hexToBytes, type Address } from "@ethereumjs/util";
import { isHex, parseAssetId } from "../../encoding";
import { invalidParams as bad } from "../../rpc/errors";
import type { BlockSelector, LogFilter, TransactionRequest } from "../types";

export function quantity(value: unknown, name: string): bigint {
  if (typeof value !== "string" || !/^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/.test(value)) {
    throw bad(`${name} must be a hex quantity such as "0x1a" (no leading zeros), got ${JSON.stringify(value)}`);
  }
  return BigInt(value);
}

/** Lenient for fields dApps commonly send padded ("0x01"); still hex only. */
export function looseQuantity(value: unknown, name: string): bigint {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]+$/.test(value)) {
    throw bad(`${name} must be a hex quantity such as "0x1a", got ${JSON.stringify(value)}`);
  }
  return BigInt(value);
}

/** A storage slot number as the 32-byte key the state takes. */
export function slotBytes(slot: bigint): Uint8Array {
  return hexToBytes(("0x" + slot.toString(16).padStart(64, "0")) as `0x${string}`);
}

export function data(value: unknown, name: string, length?: number): Uint8Array {
  // Not a regular expression of repeated digit pairs: its backtracking overflows the stack on
  // megabytes of data (a 4.9 MB eth_call answered "Maximum call stack size exceeded").
  if (!isHex(value)) {
    throw bad(`${name} must be 0x-prefixed hex bytes with an even number of digits, got ${JSON.stringify(truncate(value))}`);
  }
  const bytes = hexToBytes(value as `0x${string}`);
  if (length !== undefined && bytes.length !== length) throw bad(`${name} must be ${length} bytes, got ${bytes.length}`);
  return bytes;
}

/** A boolean flag; absent (or null) reads as false. */
export function optionalBoolean(value: unknown, name: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean") throw bad(`${name} must be true or false, got ${JSON.stringify(truncate(value))}`);
  return value;
}

export function address(value: unknown, name: string): Address {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(value)) {
    throw bad(`${name} must be an address (0x followed by 40 hex digits), got ${JSON.stringify(truncate(value))}`);
  }
  return createAddressFromString(value);
}

export function hash(value: unknown, name: string): string {
  return bytesToHexLower(data(value, name, 32));
}

function bytesToHexLower(bytes: Uint8Array): string {
  return "0x" + bytesToUnprefixedHex(bytes);
}

const TAGS = new Set(["latest", "earliest", "pending", "safe", "finalized"]);

export function blockSelector(value: unknown, name = "block"): BlockSelector {
  if (value === undefined || value === null) return "latest";
  if (typeof value === "string") {
    if (TAGS.has(value)) return value as BlockSelector;
    if (/^0x[0-9a-fA-F]{64}$/.test(value)) return { hash: value.toLowerCase() };
    if (/^0x[0-9a-fA-F]+$/.test(value)) return BigInt(value);
  }
  if (typeof value === "object") {
    const o = value as Record<string, unknown>;
    if (o.blockHash !== undefined) return { hash: hash(o.blockHash, `${name}.blockHash`) };
    if (o.blockNumber !== undefined) return blockSelector(o.blockNumber, `${name}.blockNumber`);
  }
  throw bad(`${name} must be a block number, a block hash or one of latest, earliest, pending, safe, finalized; got ${JSON.stringify(value)}`);
}

/** A 32-byte asset ID given as cb58 or 0x hex, as 64 lowercase hex digits. */
export function parseAssetIdHex(value: unknown, name = "assetID"): string {
  if (typeof value !== "string") throw bad(`${name} must be a cb58 string or 0x-prefixed 32-byte hex, got ${JSON.stringify(value)}`);
  try {
    return bytesToUnprefixedHex(parseAssetId(value));
  } catch (error) {
    throw bad(`${name}: ${(error as Error).message}`);
  }
}

export function transactionRequest(value: unknown, name = "transaction"): TransactionRequest {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw bad(`${name} must be an object`);
  const o = value as Record<string, unknown>;
  const request: TransactionRequest = {};
  if (o.from !== undefined && o.from !== null) request.from = address(o.from, `${name}.from`);
  if (o.to !== undefined && o.to !== null) request.to = address(o.to, `${name}.to`);
  if (o.gas !== undefined && o.gas !== null) request.gas = looseQuantity(o.gas, `${name}.gas`);
  if (o.gasLimit !== undefined && o.gasLimit !== null && request.gas === undefined) request.gas = looseQuantity(o.gasLimit, `${name}.gasLimit`);
  if (o.gasPrice !== undefined && o.gasPrice !== null) request.gasPrice = looseQuantity(o.gasPrice, `${name}.gasPrice`);
  if (o.maxFeePerGas !== undefined && o.maxFeePerGas !== null) request.maxFeePerGas = looseQuantity(o.maxFeePerGas, `${name}.maxFeePerGas`);
  if (o.maxPriorityFeePerGas !== undefined && o.maxPriorityFeePerGas !== null) {
    request.maxPriorityFeePerGas = looseQuantity(o.maxPriorityFeePerGas, `${name}.maxPriorityFeePerGas`);
  }
  if (request.gasPrice !== undefined && (request.maxFeePerGas !== undefined || request.maxPriorityFeePerGas !== undefined)) {
    throw bad(`${name} cannot have both gasPrice and maxFeePerGas/maxPriorityFeePerGas`);
  }
  if (request.maxFeePerGas !== undefined && request.maxPriorityFeePerGas !== undefined && request.maxFeePerGas < request.maxPriorityFeePerGas) {
    throw bad(
      `${name}.maxFeePerGas (${request.maxFeePerGas}) is below ${name}.maxPriorityFeePerGas (${request.maxPriorityFeePerGas}); the fee cap must be at least the tip`,
    );
  }
  if (o.value !== undefined && o.value !== null) request.value = looseQuantity(o.value, `${name}.value`);
  const input = o.input ?? o.data;
  if (o.input !== undefined && o.data !== undefined && o.input !== o.data) throw bad(`${name} has both input and data, and they differ`);
  if (input !== undefined && input !== null) request.data = data(input, `${name}.input`);
  if (o.nonce !== undefined && o.nonce !== null) request.nonce = looseQuantity(o.nonce, `${name}.nonce`);
  if (o.type !== undefined && o.type !== null) {
    const type = Number(looseQuantity(o.type, `${name}.type`));
    if (type > 2) throw bad(`${name}.type ${type} is not supported: use 0 (legacy), 1 (access list) or 2 (EIP-1559)`);
    request.type = type;
  }
  if (o.accessList !== undefined && o.accessList !== null) {
    if (!Array.isArray(o.accessList)) throw bad(`${name}.accessList must be an array`);
    request.accessList = o.accessList.map((entry, i) => {
      const e = entry as Record<string, unknown>;
      const storageKeys = Array.isArray(e?.storageKeys) ? e.storageKeys : [];
      return {
        address: address(e?.address, `${name}.accessList[${i}].address`).toString(),
        storageKeys: storageKeys.map((k, j) => bytesToHexLower(data(k, `${name}.accessList[${i}].storageKeys[${j}]`, 32))),
      };
    });
  }
  return request;
}

export function logFilter(value: unknown, head: bigint, resolveHash: (hash: string) => bigint): LogFilter {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw bad("the filter must be an object");
  const o = value as Record<string, unknown>;
  let fromBlock: bigint;
  let toBlock: bigint;
  const toNumber = (v: unknown, n: string): bigint => {
    const selector = blockSelector(v ?? "latest", n);
    if (typeof selector === "bigint") return selector;
    if (typeof selector === "object") return resolveHash(selector.hash);
    return selector === "earliest" ? 0n : head;
  };
  if (o.blockHash !== undefined && o.blockHash !== null) {
    if (o.fromBlock !== undefined || o.toBlock !== undefined) throw bad("a filter with blockHash cannot also have fromBlock or toBlock");
    fromBlock = toBlock = resolveHash(hash(o.blockHash, "filter.blockHash"));
  } else {
    fromBlock = toNumber(o.fromBlock, "filter.fromBlock");
    toBlock = toNumber(o.toBlock, "filter.toBlock");
    if (fromBlock > toBlock) throw bad(`filter.fromBlock ${fromBlock} is after filter.toBlock ${toBlock}`);
  }
  const addresses: Uint8Array[] = [];
  if (o.address !== undefined && o.address !== null) {
    const list = Array.isArray(o.address) ? o.address : [o.address];
    list.forEach((a, i) => addresses.push(address(a, `filter.address[${i}]`).bytes));
  }
  const topics: (Uint8Array[] | undefined)[] = [];
  if (o.topics !== undefined && o.topics !== null) {
    if (!Array.isArray(o.topics)) throw bad("filter.topics must be an array");
    if (o.topics.length > 4) throw bad(`filter.topics has ${o.topics.length} positions; a log has at most 4`);
    o.topics.forEach((t, i) => {
      if (t === null || t === undefined) topics.push(undefined);
      else if (Array.isArray(t)) topics.push(t.map((x, j) => data(x, `filter.topics[${i}][${j}]`, 32)));
      else topics.push([data(t, `filter.topics[${i}]`, 32)]);
    });
  }
  return { fromBlock, toBlock, addresses, topics };
}

/** eth_feeHistory's third parameter: absent, or increasing numbers from 0 to 100 (geth's rule). */
export function rewardPercentiles(value: unknown): number[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw bad("rewardPercentiles must be an array of numbers");
  value.forEach((pc, i) => {
    if (typeof pc !== "number" || !Number.isFinite(pc) || pc < 0 || pc > 100) {
      throw bad(`rewardPercentiles[${i}] must be a number from 0 to 100, got ${JSON.stringify(pc)}`);
    }
    if (i > 0 && pc < (value[i - 1] as number)) {
      throw bad(`rewardPercentiles must be in increasing order: ${value[i - 1]} is followed by ${pc}`);
    }
  });
  return value as number[];
}

function truncate(value: unknown): unknown {
  return typeof value === "string" && value.length > 80 ? value.slice(0, 77) + "..." : value;
}
