/**
 * The node's staking identity: its TLS certificate (whose hash is the node ID) and its BLS key
 * (whose proof of possession `info.getNodeID` shows), generated once and kept, as the reference
 * node keeps them in its staking directory:
 *
 * - `<dir>/staker.crt`, `<dir>/staker.key`: the TLS certificate and its key (PEM); or the files
 *   given with `--staking-tls-cert-file` / `--staking-tls-key-file`;
 * - `<dir>/signer.key`: the 32-byte BLS secret key.
 *
 * Without a directory the identity is made once per process and lives in memory only.
 *
 * Node ID = "NodeID-" + cb58(ripemd160(sha256(DER of the certificate))). The proof of possession
 * is a BLS signature (G2, 96 bytes) of the compressed public key (G1, 48 bytes) under the
 * proof-of-possession cipher suite, both written as 0x-hex.
 *
 * The certificate is a self-signed X.509 v3 certificate with an RSA-4096 key, as the reference
 * node makes (`crypto/staking-certificate.ts`: node:crypto keys and signature, node-forge for the
 * certificate's structure; its alternative, @peculiar/x509, needs a global polyfill).
 * Certificates read from files are parsed with `node:crypto`'s `X509Certificate` (any key type).
 */
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { X509Certificate, createPrivateKey } from "node:crypto";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { makeStakingCertificate, nodeIdOfCertificate, type StakingCertificate } from "../crypto/staking-certificate";

import { bytesToHex } from "../encoding";

/** The file names the reference node uses in its staking directory. */
export const STAKING_FILES = { certificate: "staker.crt", key: "staker.key", signer: "signer.key" } as const;

/** The cipher suite of BLS proofs of possession (IETF BLS draft, G2 signatures). */
const POP_DST = "BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_";

export class StakingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StakingError";
  }
}

export interface StakingOptions {
  /** Directory holding (or receiving) `staker.crt`, `staker.key` and `signer.key`. */
  dir?: string;
  /** PEM certificate to use instead of the directory's (with `keyFile`). */
  certFile?: string;
  /** PEM private key of `certFile`. */
  keyFile?: string;
}

export interface StakingIdentity {
  /** `NodeID-` + cb58 of the certificate's hash. */
  readonly nodeID: string;
  /** DER bytes of the TLS certificate. */
  readonly certificate: Uint8Array;
  /** The certificate and its private key (PEM): the peer link's TLS identity. */
  readonly tls: { readonly certificatePem: string; readonly keyPem: string };
  /** BLS public key (48 bytes, 0x-hex) and its proof of possession (96 bytes, 0x-hex). */
  readonly pop: { readonly publicKey: string; readonly proofOfPossession: string };
}

/** The node ID of a certificate: "NodeID-" + cb58(ripemd160(sha256(DER))). */
export const nodeIdOf = nodeIdOfCertificate;

/** The proof of possession of a BLS secret key. */
export function proofOfPossession(secretKey: Uint8Array): StakingIdentity["pop"] {
  const signer = bls12_381.longSignatures;
  const publicKey = signer.getPublicKey(secretKey).toBytes(true);
  const signature = signer.sign(signer.hash(publicKey, POP_DST), secretKey);
  return { publicKey: bytesToHex(publicKey), proofOfPossession: bytesToHex(signer.Signature.toBytes(signature)) };
}

let ephemeralSigner: Uint8Array | undefined;

/** The staking identity `options` name, generating and storing what is missing. */
export async function loadStakingIdentity(options: StakingOptions = {}): Promise<StakingIdentity> {
  const { der, certificatePem, keyPem } = await loadCertificate(options);
  const signer = options.dir === undefined ? (ephemeralSigner ??= bls12_381.utils.randomSecretKey()) : await loadSigner(options.dir);
  return { nodeID: nodeIdOf(der), certificate: der, tls: { certificatePem, keyPem }, pop: proofOfPossession(signer) };
}

interface LoadedCertificate {
  der: Uint8Array;
  certificatePem: string;
  keyPem: string;
}

let ephemeralCertificate: Promise<LoadedCertificate> | undefined;

async function loadCertificate(options: StakingOptions): Promise<LoadedCertificate> {
  const { dir, certFile, keyFile } = options;
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new StakingError("--staking-tls-cert-file and --staking-tls-key-file must be given together");
  }
  if (certFile !== undefined && keyFile !== undefined) return readCertificate(certFile, keyFile);
  if (dir === undefined) return (ephemeralCertificate ??= generateCertificate());
  const certPath = path.join(dir, STAKING_FILES.certificate);
  const keyPath = path.join(dir, STAKING_FILES.key);
  const [hasCert, hasKey] = await Promise.all([exists(certPath), exists(keyPath)]);
  if (hasCert && hasKey) return readCertificate(certPath, keyPath);
  if (hasCert !== hasKey) {
    throw new StakingError(`the staking directory ${dir} holds ${hasCert ? STAKING_FILES.certificate : STAKING_FILES.key} without ${hasCert ? STAKING_FILES.key : STAKING_FILES.certificate}`);
  }
  const generated = await generateCertificate();
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await fs.writeFile(keyPath, generated.keyPem, { mode: 0o600 });
  await fs.writeFile(certPath, generated.certificatePem, { mode: 0o644 });
  return generated;
}

async function readCertificate(certPath: string, keyPath: string): Promise<LoadedCertificate> {
  const [certPem, keyPem] = await Promise.all([readText(certPath, "staking certificate"), readText(keyPath, "staking key")]);
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certPem);
  } catch (error) {
    throw new StakingError(`${certPath} is not a PEM certificate: ${messageOf(error)}`);
  }
  let key;
  try {
    key = createPrivateKey(keyPem);
  } catch (error) {
    throw new StakingError(`${keyPath} is not a PEM private key: ${messageOf(error)}`);
  }
  if (!certificate.checkPrivateKey(key)) throw new StakingError(`the key in ${keyPath} is not the key of the certificate in ${certPath}`);
  return { der: new Uint8Array(certificate.raw), certificatePem: certPem, keyPem };
}

async function loadSigner(dir: string): Promise<Uint8Array> {
  const signerPath = path.join(dir, STAKING_FILES.signer);
  if (await exists(signerPath)) {
    const key = new Uint8Array(await fs.readFile(signerPath));
    if (key.length !== 32) throw new StakingError(`${signerPath} must hold a 32-byte BLS secret key, it holds ${key.length} bytes`);
    return key;
  }
  const key = bls12_381.utils.randomSecretKey();
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await fs.writeFile(signerPath, key, { mode: 0o600 });
  return key;
}

/** A self-signed RSA-4096 certificate (the reference node's default) and its key. */
function generateCertificate(): Promise<StakingCertificate> {
  return makeStakingCertificate(4096);
}

async function readText(file: string, what: string): Promise<string> {
  try {
    return await fs.readFile(file, "utf8");
  } catch (error) {
    throw new StakingError(`cannot read the ${what} ${file}: ${messageOf(error)}`);
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
