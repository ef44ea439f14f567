/**
 * Signing with the node's unlocked keys: eth_sign (EIP-191 messages) and eth_signTypedData(_v4)
 * (EIP-712), as wallets sign. personal_sign, which also takes a password, is in `personal.ts`.
 */
import type { Wallet } from "ethers";

import { RpcApi, type RpcApiOptions } from "../../rpc/api";
import { invalidParams, serverError } from "../../rpc/errors";
import type { Engine } from "../engine";
import { ethers } from "../lazy-ethers";
import * as p from "./params";

type TypeFields = Record<string, { name: string; type: string }[]>;

export function signingApi(engine: Engine, options: RpcApiOptions): RpcApi {
  const wallet = (address: string): Wallet => {
    const account = engine.unlocked.get(address.toLowerCase());
    if (account === undefined) throw serverError(`unknown account ${address}: the node holds no key for it`);
    return new (ethers().Wallet)(account.privateKeyHex);
  };
  const signMessage = (a: unknown, m: unknown): string => signText(wallet(p.address(a, "address").toString()).privateKey, p.data(m, "message"));
  const signTypedData = (a: unknown, d: unknown): string => {
    const signer = wallet(p.address(a, "address").toString());
    return ethers().Signature.from(signer.signingKey.sign(typedDataDigest(d))).serialized;
  };
  return new RpcApi(options)
    .positional("eth_sign", 2, ([a, m]) => signMessage(a, m))
    .positional("eth_signTypedData_v4", 2, ([a, d]) => signTypedData(a, d))
    .positional("eth_signTypedData", 2, ([a, d]) => signTypedData(a, d));
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
