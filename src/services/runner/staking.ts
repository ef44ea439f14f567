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
import { X509Certificate } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";

import { makeStakingCertificate, nodeIdOfCertificate } from "../../crypto/staking-certificate";

export const STAKING_KEY_BITS = 2048;

export interface StakingFiles {
  readonly certFile: string;
  readonly keyFile: string;
  /** `NodeID-…` of the certificate. */
  readonly nodeId: string;
}

export { nodeIdOfCertificate };

/** The staking files in `dir`, made on first use and read back afterwards (a restart keeps the ID). */
export async function ensureStakingFiles(dir: string): Promise<StakingFiles> {
  const certFile = path.join(dir, "staker.crt");
  const keyFile = path.join(dir, "staker.key");
  let certificatePem: string;
  try {
    certificatePem = await fs.readFile(certFile, "utf8");
  } catch {
    const made = await makeStakingCertificate(STAKING_KEY_BITS);
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    await fs.writeFile(keyFile, made.keyPem, { mode: 0o600 });
    await fs.writeFile(certFile, made.certificatePem, { mode: 0o644 });
    certificatePem = made.certificatePem;
  }
  return { certFile, keyFile, nodeId: nodeIdOfCertificate(new Uint8Array(new X509Certificate(certificatePem).raw)) };
}

