/**
 * Gas statistics (Hardhat 3's `--gas-stats`) of a nativekit chain: each measured execution the
 * engine reports becomes the measurement Hardhat's own network would give for it, with the
 * project's contracts and functions named as EDR names them. A deployment is named by its
 * creation code, a call by the code that ran at its address and its selector; through proxies,
 * by the implementation's code, with the chain of contracts the call went through. What the
 * build does not know (code deployed from elsewhere, a selector without a function, a call to a
 * precompile or an account without code) is not measured, as on Hardhat's network.
 */
import type { ExecutionReport } from "../../engine/execution-recorder";
import type { CodeKind, IdentifiedContract } from "../solidity/contract-identifier";
import type { GasMeasurement } from "./types";

/** What naming code needs of the contract identifier (src/hardhat/solidity/contract-identifier.ts). */
export interface CodeNamer {
  identify(code: Uint8Array, kind: CodeKind): IdentifiedContract | undefined;
}

/** EDR's name for a contract it does not recognise. */
const UNRECOGNIZED_CONTRACT = "<UnrecognizedContract>";

export function gasMeasurementOf(report: ExecutionReport, contracts: CodeNamer): GasMeasurement | undefined {
  const gas = Number(report.gasUsed);
  if (report.kind === "create") {
    const contract = contracts.identify(report.input, "creation");
    return contract === undefined ? undefined : { type: "deployment", contractFqn: contract.compilerFqn, gas, runtimeSize: report.runtimeSize };
  }
  const chain = report.proxyChain;
  // Through proxies the function is the implementation's (the last code), the gas the whole call's.
  const implementation = contracts.identify(chain.length === 0 ? report.code : chain[chain.length - 1]!, "runtime");
  const functionSig = implementation?.functionSignature(report.input.subarray(0, 4));
  if (implementation === undefined || functionSig === undefined) return undefined;
  // A proxy the build does not know still forwards: EDR names it so in the chain.
  const proxyChain = chain.map((code, i) => (i === chain.length - 1 ? implementation.compilerFqn : (contracts.identify(code, "runtime")?.compilerFqn ?? UNRECOGNIZED_CONTRACT)));
  return { type: "function", contractFqn: implementation.compilerFqn, functionSig, gas, proxyChain };
}
