import { expect } from "chai";
import { createPrivateKey, X509Certificate } from "node:crypto";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { makeStakingCertificate, nodeIdOfCertificate } from "../../src/crypto/staking-certificate";
import { encodeCb58 } from "../../src/encoding";

describe("staking certificate", function () {
  this.timeout(30_000);

  it("is a self-signed certificate over the key it comes with, of the asked size, its DER as given", async () => {
    const made = await makeStakingCertificate(2048);
    const cert = new X509Certificate(made.certificatePem);
    expect(cert.verify(cert.publicKey)).to.equal(true);
    expect(cert.checkPrivateKey(createPrivateKey(made.keyPem))).to.equal(true);
    expect(cert.publicKey.asymmetricKeyDetails?.modulusLength).to.equal(2048);
    expect(Buffer.from(made.der).equals(cert.raw)).to.equal(true);
  });

  it("gives the node ID NodeID- + cb58(ripemd160(sha256(DER)))", async () => {
    const { der } = await makeStakingCertificate(2048);
    expect(nodeIdOfCertificate(der)).to.equal(`NodeID-${encodeCb58(ripemd160(sha256(der)))}`);
  });

  it("makes a new key and serial each time", async () => {
    const [a, b] = await Promise.all([makeStakingCertificate(2048), makeStakingCertificate(2048)]);
    expect(nodeIdOfCertificate(a.der)).to.not.equal(nodeIdOfCertificate(b.der));
    expect(new X509Certificate(a.certificatePem).serialNumber).to.not.equal(new X509Certificate(b.certificatePem).serialNumber);
  });
});
