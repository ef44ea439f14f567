import { expect } from "chai";
import { EncodingError } from "../../src/encoding";

/**
 * Run `fn`, expect it to throw an EncodingError, and expect its message to contain every
 * fragment (strings) or match every pattern (RegExps). Returns the error for further checks.
 */
export function expectEncodingError(fn: () => unknown, ...fragments: (string | RegExp)[]): EncodingError {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, "expected an EncodingError to be thrown").to.be.instanceOf(EncodingError);
  const error = thrown as EncodingError;
  expect(error.name).to.equal("EncodingError");
  for (const fragment of fragments) {
    if (typeof fragment === "string") expect(error.message).to.include(fragment);
    else expect(error.message).to.match(fragment);
  }
  return error;
}

/** Hex string of `bytes` with the case of each letter chosen by `upper`. */
export function mixCase(hex: string, upper: boolean[]): string {
  let out = "0x";
  for (let i = 2; i < hex.length; i++) out += upper[i % upper.length] ? hex[i]!.toUpperCase() : hex[i]!;
  return out;
}
