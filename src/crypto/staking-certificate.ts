/**
 * A node's staking certificate: a self-signed X.509 v3 certificate with an RSA key, as the
 * reference node makes, and the node ID it gives: "NodeID-" + cb58(ripemd160(sha256(DER))).
 * Used by the node (its own identity, RSA-4096 as the reference's default) and by the network
 * runner (each node's identity made before the node starts, RSA-2048, which the reference node
 * also accepts and which is made several times faster).
 *
 * The key pair comes from `node:crypto`, which also signs; node-forge builds the certificate's
 * to-be-signed part (Node has no API to issue certificates; forge's own RSA signing, in
 * JavaScript, costs more than the key generation on a busy machine).
 */
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { generateKeyPair, randomBytes, sign } from "node:crypto";
import { promisify } from "node:util";
import type forgeModule from "node-forge";
import { encodeCb58 } from "../encoding";

/** node-forge's builder of a certificate's to-be-signed part, missing from its type declarations. */
interface ForgeTbs {
  getTBSCertificate(cert: forgeModule.pki.Certificate): forgeModule.asn1.Asn1;
}

export interface StakingCertificate {
  readonly der: Uint8Array;
  readonly certificatePem: string;
  /** PKCS#8 PEM. */
  readonly keyPem: string;
}

/** The node ID of a certificate: "NodeID-" + cb58(ripemd160(sha256(DER))). */
export function nodeIdOfCertificate(certificateDer: Uint8Array): string {
  return `NodeID-${encodeCb58(ripemd160(sha256(certificateDer)))}`;
}

/** A self-signed certificate with a new RSA key of `keyBits`, valid from 2000 for 100 years from now. */
export async function makeStakingCertificate(keyBits: 2048 | 4096): Promise<StakingCertificate> {
  const { privateKey, publicKey } = await promisify(generateKeyPair)("rsa", { modulusLength: keyBits, publicExponent: 65537 });
  // node-forge loads only when a certificate is made (most starts read one).
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
  const der = new Uint8Array(Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), "binary"));
  return { der, certificatePem: forge.pki.certificateToPem(cert), keyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString() };
}
