/**
 * Each node's staking identity, made by the runner before the node starts: a self-signed X.509
 * certificate and its key (PEM), kept in `<node dir>/staking/staker.{crt,key}` and passed with
 * `--staking-tls-cert-file` / `--staking-tls-key-file`. The runner needs the node ID before the
 * node runs — the other nodes bootstrap from it with `--bootstrap-ids` — so it derives it the
 * way nodes do: "NodeID-" + cb58(ripemd160(sha256(DER of the certificate))). Once a node
 * answers, the runner checks the ID it reports against this one.
 *
 * The key is RSA-2048: the reference node accepts 2048- and 4096-bit RSA staking keys, and a
 * 2048-bit key is made several times faster, which is most of a network's start-up on a small
 * machine. The certificate is built with node-forge (Node has no API to issue certificates).
 */
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { generateKeyPair, randomBytes, sign, X509Certificate } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type forgeModule from "node-forge";

import { encodeCb58 } from "../../encoding";

export const STAKING_KEY_BITS = 2048;

/** node-forge's builder of a certificate's to-be-signed part, missing from its type declarations. */
interface ForgeTbs {
  getTBSCertificate(cert: forgeModule.pki.Certificate): forgeModule.asn1.Asn1;
}

export interface StakingFiles {
  readonly certFile: string;
  readonly keyFile: string;
  /** `NodeID-…` of the certificate. */
  readonly nodeId: string;
}

/** The node ID of a DER certificate. */
export function nodeIdOfCertificate(der: Uint8Array): string {
  return `NodeID-${encodeCb58(ripemd160(sha256(der)))}`;
}

/** The staking files in `dir`, made on first use and read back afterwards (a restart keeps the ID). */
export async function ensureStakingFiles(dir: string): Promise<StakingFiles> {
  const certFile = path.join(dir, "staker.crt");
  const keyFile = path.join(dir, "staker.key");
  let certificatePem: string;
  try {
    certificatePem = await fs.readFile(certFile, "utf8");
  } catch {
    const made = await makeCertificate();
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    await fs.writeFile(keyFile, made.keyPem, { mode: 0o600 });
    await fs.writeFile(certFile, made.certificatePem, { mode: 0o644 });
    certificatePem = made.certificatePem;
  }
  return { certFile, keyFile, nodeId: nodeIdOfCertificate(new Uint8Array(new X509Certificate(certificatePem).raw)) };
}

/**
 * node-forge builds the certificate's to-be-signed part; `node:crypto` signs it (forge's own RSA
 * signing, in JavaScript, costs more than the key generation on a busy machine).
 */
async function makeCertificate(): Promise<{ certificatePem: string; keyPem: string }> {
  const { privateKey, publicKey } = await promisify(generateKeyPair)("rsa", { modulusLength: STAKING_KEY_BITS, publicExponent: 65537 });
  const forge: typeof forgeModule = (await import("node-forge")).default;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString());
  const serial = randomBytes(16);
  serial[0]! &= 0x7f; // a positive serial number
  cert.serialNumber = serial.toString("hex");
  cert.validity.notBefore = new Date(Date.UTC(2000, 0, 1));
  cert.validity.notAfter = new Date(Date.now() + 100 * 365.25 * 24 * 3600 * 1000);
  cert.setSubject([]);
  cert.setIssuer([]);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
  ]);
  const algorithm = forge.pki.oids.sha256WithRSAEncryption!;
  cert.signatureOid = algorithm;
  cert.siginfo.algorithmOid = algorithm;
  const toBeSigned = Buffer.from(forge.asn1.toDer((forge.pki as unknown as ForgeTbs).getTBSCertificate(cert)).getBytes(), "binary");
  cert.signature = sign("sha256", toBeSigned, privateKey).toString("binary");
  return { certificatePem: forge.pki.certificateToPem(cert), keyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString() };
}
