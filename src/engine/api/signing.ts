/**
 * Signing with the node's unlocked keys: eth_sign (EIP-191 messages) and eth_signTypedData(_v4)
 * (EIP-712), as wallets sign. personal_sign, which also takes a password, is in `personal.ts`.
 */
import type { Wallet } from "ethers";

import { RpcApi, type RpcApiOptions } from "../../rpc/api";
import { invalidParams, serverError } from "../../rpc/errors";
import type { Engine } from "../engine";
import type { LockHeld } from "../engine-lock";
import { ethers } from "../lazy-ethers";
import * as p from "./params";
import type { EngineContext } from "./serve";

type TypeFields = Record<string, { name: string; type: string }[]>;

export function signingApi(engine: Engine, options: RpcApiOptions<LockHeld>): RpcApi<LockHeld> {
  return RpcApi.scoped(options).positionalMethods({ engine }, {
    "eth_sign": [2, sign],
    "eth_signTypedData_v4": [2, signTypedData],
    "eth_signTypedData": [2, signTypedData],
  });
}

/** [address, message]: the EIP-191 signature of the message with the node's key for the address. */
function sign({ engine }: EngineContext, [address, message]: unknown[]): string {
  return signText(walletOf(engine, p.address(address, "address").toString()).privateKey, p.data(message, "message"));
}

/** [address, typedData]: the EIP-712 signature of the typed data (an object or its JSON text) with the node's key for the address. */
function signTypedData({ engine }: EngineContext, [address, typedData]: unknown[]): string {
  const signer = walletOf(engine, p.address(address, "address").toString());
  return ethers().Signature.from(signer.signingKey.sign(typedDataDigest(typedData))).serialized;
}

/** The node's key for `address`, as an ethers wallet; -32000 when it holds none. */
function walletOf(engine: Engine, address: string): Wallet {
  const account = engine.unlocked.get(address.toLowerCase());
  if (account === undefined) throw serverError(`unknown account ${address}: the node holds no key for it`);
  return new (ethers().Wallet)(account.privateKeyHex);
}

/** An EIP-191 signature of `message` ("\x19Ethereum Signed Message:\n" + length + message), 65 bytes with v 27 or 28, as geth signs text. */
export function signText(privateKeyHex: string, message: Uint8Array): string {
  return new (ethers().SigningKey)(privateKeyHex).sign(ethers().hashMessage(message)).serialized;
}

/** The EIP-712 digest of typed data given as an object or its JSON text. */
function typedDataDigest(raw: unknown): string {
  let typed: unknown = raw;
  if (typeof raw === "string") {
    try {
      typed = JSON.parse(raw);
    } catch {
      throw invalidParams("typedData must be an object or its JSON text; the string given is not valid JSON");
    }
  }
  const shape = typed as {
    domain?: Record<string, unknown>;
    types?: TypeFields;
    primaryType?: unknown;
    message?: Record<string, unknown>;
  };
  if (typeof shape !== "object" || shape === null || typeof shape.types !== "object" || shape.types === null || typeof shape.message !== "object") {
    throw invalidParams("typedData must be an object with domain, types, primaryType and message");
  }
  const { EIP712Domain: _domain, ...allTypes } = shape.types;
  // Like eth_signTypedData_v4 in wallets: sign for the named primaryType and ignore types it
  // does not reach (ethers' encoder rejects unreachable types as ambiguous).
  const types = typeof shape.primaryType === "string" ? reachableTypes(allTypes, shape.primaryType) : allTypes;
  try {
    return ethers().TypedDataEncoder.hash(shape.domain ?? {}, types, shape.message);
  } catch (error) {
    throw invalidParams(`typedData cannot be encoded: ${(error as Error).message.split(" (")[0]}`);
  }
}

/** The struct types `primary` uses, directly or through other structs (arrays included). */
function reachableTypes(types: TypeFields, primary: string): TypeFields {
  if (types[primary] === undefined) {
    throw invalidParams(`typedData.primaryType ${JSON.stringify(primary)} is not defined in typedData.types`);
  }
  const out: TypeFields = {};
  const visit = (name: string): void => {
    const fields = types[name];
    if (fields === undefined || out[name] !== undefined) return;
    out[name] = fields;
    if (!Array.isArray(fields)) return;
    for (const field of fields) visit(String(field?.type ?? "").replace(/(\[\d*\])+$/, ""));
  };
  visit(primary);
  return out;
}
