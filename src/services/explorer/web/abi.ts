/**
 * Contract-chain logs and calls of the contracts nativekit ships, decoded for people: the
 * wrapped native asset (an ERC-20 with Deposit and Withdrawal events, contracts/
 * IWrappedNativeAsset.sol) and the NativeAssets precompile call (`to ++ assetID ++ amount ++
 * callData`, src/encoding/precompile.ts). Anything else stays raw; a log whose topics or data
 * do not fit the event's shape is not decoded rather than decoded wrongly.
 */
import { keccak_256 } from "@noble/hashes/sha3.js";
import { NATIVE_ASSET_CALL_ADDRESS, assetIdToCb58, decodeNativeAssetCallInput, toChecksumAddress } from "../../../encoding";

export type AbiType = "address" | "uint256";

export interface DecodedValue {
  name: string;
  type: AbiType | "asset" | "bytes";
  /** Addresses checksummed, uint256 as decimal, an asset as its cb58 ID, bytes as 0x hex. */
  value: string;
}

export interface Decoded {
  /** The event or function, e.g. "Transfer" or "nativeAssetCall". */
  name: string;
  /** Where the ABI comes from, e.g. "WrappedNativeAsset (ERC-20)". */
  source: string;
  args: DecodedValue[];
  /** A call forwarded inside this one (nativeAssetCall's call data), decoded when known. */
  inner?: Decoded;
}

interface Parameter {
  name: string;
  type: AbiType;
  indexed?: boolean;
}

interface Signature {
  name: string;
  source: string;
  parameters: Parameter[];
}

const WRAPPER = "WrappedNativeAsset (ERC-20)";

const EVENTS: Signature[] = [
  { name: "Transfer", source: WRAPPER, parameters: [{ name: "from", type: "address", indexed: true }, { name: "to", type: "address", indexed: true }, { name: "value", type: "uint256" }] },
  { name: "Approval", source: WRAPPER, parameters: [{ name: "owner", type: "address", indexed: true }, { name: "spender", type: "address", indexed: true }, { name: "value", type: "uint256" }] },
  { name: "Deposit", source: WRAPPER, parameters: [{ name: "caller", type: "address" }, { name: "amount", type: "uint256" }] },
  { name: "Withdrawal", source: WRAPPER, parameters: [{ name: "caller", type: "address" }, { name: "value", type: "uint256" }] },
];

const FUNCTIONS: Signature[] = [
  { name: "deposit", source: WRAPPER, parameters: [] },
  { name: "withdraw", source: WRAPPER, parameters: [{ name: "value", type: "uint256" }] },
  { name: "transfer", source: WRAPPER, parameters: [{ name: "to", type: "address" }, { name: "value", type: "uint256" }] },
  { name: "approve", source: WRAPPER, parameters: [{ name: "spender", type: "address" }, { name: "value", type: "uint256" }] },
  { name: "transferFrom", source: WRAPPER, parameters: [{ name: "from", type: "address" }, { name: "to", type: "address" }, { name: "value", type: "uint256" }] },
];

function selectorHash(signature: Signature): string {
  const text = `${signature.name}(${signature.parameters.map((p) => p.type).join(",")})`;
  return Buffer.from(keccak_256(new TextEncoder().encode(text))).toString("hex");
}

const EVENTS_BY_TOPIC = new Map(EVENTS.map((e) => [`0x${selectorHash(e)}`, e]));
const FUNCTIONS_BY_SELECTOR = new Map(FUNCTIONS.map((f) => [`0x${selectorHash(f).slice(0, 8)}`, f]));

function word(hex: string, type: AbiType): string | undefined {
  if (!/^[0-9a-f]{64}$/.test(hex)) return undefined;
  if (type === "uint256") return BigInt(`0x${hex}`).toString();
  if (!hex.startsWith("0".repeat(24))) return undefined; // an address word is left-padded with zeros
  return toChecksumAddress(`0x${hex.slice(24)}`);
}

/** Splits 0x hex data into 32-byte words (lowercase hex), or undefined when it is not whole words. */
function words(data: string): string[] | undefined {
  const hex = data.toLowerCase().replace(/^0x/, "");
  if (hex.length % 64 !== 0 || !/^[0-9a-f]*$/.test(hex)) return undefined;
  return hex.match(/.{64}/g) ?? [];
}

export function decodeLog(log: { topics: readonly string[]; data: string }): Decoded | undefined {
  const event = log.topics[0] === undefined ? undefined : EVENTS_BY_TOPIC.get(log.topics[0].toLowerCase());
  if (event === undefined) return undefined;
  const indexed = event.parameters.filter((p) => p.indexed === true);
  const inData = event.parameters.filter((p) => p.indexed !== true);
  const dataWords = words(log.data);
  if (log.topics.length !== indexed.length + 1 || dataWords === undefined || dataWords.length !== inData.length) return undefined;
  const args: DecodedValue[] = [];
  let topic = 1;
  let dataWord = 0;
  for (const parameter of event.parameters) {
    const hex = parameter.indexed === true ? log.topics[topic++]!.toLowerCase().replace(/^0x/, "") : dataWords[dataWord++]!;
    const value = word(hex, parameter.type);
    if (value === undefined) return undefined;
    args.push({ name: parameter.name, type: parameter.type, value });
  }
  return { name: event.name, source: event.source, args };
}

/** The call a contract-chain transaction makes, when it is one of the known functions or the precompile. */
export function decodeCall(to: string | null | undefined, input: string): Decoded | undefined {
  if (to === null || to === undefined || to === "") return undefined;
  if (to.toLowerCase() === NATIVE_ASSET_CALL_ADDRESS) {
    try {
      const call = decodeNativeAssetCallInput(input as `0x${string}`);
      const inner = call.callData === "0x" ? undefined : decodeFunctionCall(call.callData);
      return {
        name: "nativeAssetCall",
        source: "NativeAssets precompile",
        args: [
          { name: "to", type: "address", value: call.to },
          { name: "assetID", type: "asset", value: assetIdToCb58(call.assetId) },
          { name: "amount", type: "uint256", value: call.amount.toString() },
          { name: "callData", type: "bytes", value: call.callData },
        ],
        ...(inner === undefined ? {} : { inner }),
      };
    } catch {
      return undefined;
    }
  }
  return decodeFunctionCall(input);
}

function decodeFunctionCall(input: string): Decoded | undefined {
  const selector = input.slice(0, 10).toLowerCase();
  const fn = FUNCTIONS_BY_SELECTOR.get(selector);
  if (fn === undefined) return undefined;
  const argumentWords = words(`0x${input.slice(10)}`);
  if (argumentWords === undefined || argumentWords.length !== fn.parameters.length) return undefined;
  const args: DecodedValue[] = [];
  for (const [i, parameter] of fn.parameters.entries()) {
    const value = word(argumentWords[i]!, parameter.type);
    if (value === undefined) return undefined;
    args.push({ name: parameter.name, type: parameter.type, value });
  }
  return { name: fn.name, source: fn.source, args };
}
