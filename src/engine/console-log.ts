import { format } from "node:util";

import { ethers } from "./lazy-ethers";

/** Address hardhat/console.sol sends its payloads to ("console.log" in ASCII). */
export const CONSOLE_LOG_ADDRESS_HEX = "000000000000000000636f6e736f6c652e6c6f67";

let selectors: Map<string, string[]> | undefined;

/**
 * Every `log(...)` overload console.sol can call: one argument of any of its types, or two to
 * four of uint256/string/bool/address; older console.sol builds spelled uint256/int256 as
 * uint/int, which changes the selector, so those spellings are included too.
 */
function selectorTable(): Map<string, string[]> {
  if (selectors !== undefined) return selectors;
  const { id } = ethers();
  const table = new Map<string, string[]>();
  const add = (types: string[]) => {
    const canonical = types.map((t) => (t === "uint" ? "uint256" : t === "int" ? "int256" : t));
    table.set(id(`log(${types.join(",")})`).slice(2, 10), canonical);
  };
  add([]);
  const single = ["int256", "uint256", "string", "bool", "address", "bytes", "int", "uint"];
  for (let n = 1; n <= 32; n++) single.push(`bytes${n}`);
  for (const t of single) add([t]);
  const many = ["uint256", "string", "bool", "address", "uint"];
  const combine = (prefix: string[], depth: number) => {
    if (prefix.length >= 2) add(prefix);
    if (prefix.length === depth) return;
    for (const t of many) combine([...prefix, t], depth);
  };
  combine([], 4);
  selectors = table;
  return table;
}

/** The line Hardhat's network would print for a console.log payload, or undefined if unknown. */
export function formatConsoleLog(payload: Uint8Array): string | undefined {
  if (payload.length < 4) return undefined;
  const selector = Buffer.from(payload.subarray(0, 4)).toString("hex");
  const types = selectorTable().get(selector);
  if (types === undefined) return undefined;
  try {
    const values = ethers().AbiCoder.defaultAbiCoder().decode(types, payload.subarray(4));
    // As Hardhat's network prints them: numbers in decimal (util.format would append "n" to
    // bigints), addresses in lowercase (ethers decodes them checksummed).
    const args = types.map((type, i) => {
      const v = values[i] as unknown;
      if (typeof v === "bigint") return v.toString();
      return type === "address" && typeof v === "string" ? v.toLowerCase() : v;
    });
    return format(...args);
  } catch {
    return undefined;
  }
}
