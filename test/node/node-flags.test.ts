import { expect } from "chai";

import { NODE_USAGE, parseNodeArgs } from "../../src/cli/node-flags";

const optionsOf = (args: string[]) => {
  const parsed = parseNodeArgs(args);
  if (parsed === "help" || "error" in parsed) throw new Error(`expected options, got ${JSON.stringify(parsed)}`);
  return parsed;
};
const errorOf = (args: string[]) => {
  const parsed = parseNodeArgs(args);
  if (parsed === "help" || !("error" in parsed)) throw new Error(`expected an error, got ${JSON.stringify(parsed)}`);
  return parsed.error;
};

describe("nativekit node flags", () => {
  it("passes no option when no flag is given", () => {
    expect(optionsOf([]).options).to.deep.equal({});
  });

  it("reads a boolean flag as --flag, --flag=true and --flag=false", () => {
    expect(optionsOf(["--index-enabled"]).options).to.deep.equal({ indexEnabled: true });
    expect(optionsOf(["--index-enabled=true"]).options).to.deep.equal({ indexEnabled: true });
    expect(optionsOf(["--index-enabled=false"]).options).to.deep.equal({ indexEnabled: false });
  });

  it("refuses a boolean flag with another value", () => {
    expect(errorOf(["--api-ipcs-enabled=yes"])).to.equal('invalid --api-ipcs-enabled="yes": expected true or false');
  });

  it("passes every flag on under its option name", () => {
    const { options, port } = optionsOf([
      "--api-auth-required", "--api-auth-password-file", "/run/pw", "--db-dir", "/data/db", "--staking-dir=/data/staking",
      "--staking-tls-cert-file", "/s/c.crt", "--staking-tls-key-file", "/s/c.key", "--index-enabled", "--index-allow-incomplete",
      "--api-ipcs-enabled", "--ipcs-path", "/run/ipcs", "--chainevm-admin-api-enabled", "--public-ip", "10.0.0.5", "--http-port", "9652",
      "--staking-port", "9653", "--network-id", "1337", "--bootstrap-ips", "127.0.0.1:9651,127.0.0.1:9655",
      "--bootstrap-ids", "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg,NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ",
    ]);
    expect(port).to.equal(9652);
    expect(options).to.deep.equal({
      apiAuthRequired: true, apiAuthPasswordFile: "/run/pw", dbDir: "/data/db", stakingDir: "/data/staking",
      stakingTlsCertFile: "/s/c.crt", stakingTlsKeyFile: "/s/c.key", indexEnabled: true, indexAllowIncomplete: true,
      apiIpcsEnabled: true, ipcsPath: "/run/ipcs", chainEvmAdminApiEnabled: true, publicIp: "10.0.0.5", stakingPort: 9653,
      networkId: 1337, bootstrapIps: ["127.0.0.1:9651", "127.0.0.1:9655"],
      bootstrapIds: ["NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg", "NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ"],
    });
  });

  it("reads --rpc-gas-cap as a positive integer, and refuses 0", () => {
    expect(optionsOf(["--rpc-gas-cap", "1000000"]).options).to.deep.equal({ rpcGasCap: 1_000_000 });
    expect(errorOf(["--rpc-gas-cap", "0"])).to.match(/--rpc-gas-cap/);
  });

  it("reads --log-level by the contract chain's level names (short forms too) and refuses another", () => {
    expect(optionsOf(["--log-level", "debug"]).options).to.deep.equal({ logLevel: "debug" });
    expect(optionsOf(["--log-level=EROR"]).options).to.deep.equal({ logLevel: "error" });
    expect(errorOf(["--log-level", "verbose"])).to.equal('invalid --log-level "verbose": expected trace, debug, info, warn, error, crit');
    expect(optionsOf(["--log-dir", "/var/log/n1"]).options).to.deep.equal({ logDir: "/var/log/n1" });
  });

  it("refuses --api-auth-required without --api-auth-password-file", () => {
    expect(errorOf(["--api-auth-required"])).to.equal("--api-auth-required needs --api-auth-password-file <path>");
  });

  it("refuses a certificate without its key", () => {
    expect(errorOf(["--staking-tls-cert-file", "/s/c.crt"])).to.include("must be given together");
  });

  it("refuses a bad public IP, staking port, network ID and bootstrap lists, naming the flag", () => {
    expect(errorOf(["--public-ip", "localhost"])).to.match(/^invalid --public-ip "localhost"/);
    expect(errorOf(["--staking-port", "70000"])).to.match(/^invalid --staking-port "70000"/);
    expect(errorOf(["--network-id", "0"])).to.match(/^invalid --network-id "0"/);
    expect(errorOf(["--bootstrap-ips", "127.0.0.1"])).to.match(/^invalid --bootstrap-ips/);
    expect(errorOf(["--bootstrap-ids", "node1"])).to.match(/^invalid --bootstrap-ids/);
  });

  it("refuses bootstrap IDs and IPs of different counts", () => {
    expect(errorOf(["--bootstrap-ips", "127.0.0.1:9651"])).to.include("--bootstrap-ids names 0 node(s) but --bootstrap-ips 1");
  });

  it("lists every flag with its default in --help", () => {
    for (const flag of ["--api-auth-required[=true|false]", "--api-auth-password-file <path>", "--db-dir", "--index-enabled", "--index-allow-incomplete", "--api-ipcs-enabled", "--ipcs-path", "--chainevm-admin-api-enabled", "--staking-tls-cert-file", "--staking-tls-key-file", "--public-ip", "--http-port", "--staking-port", "--network-id", "--bootstrap-ips", "--bootstrap-ids", "--staking-dir", "--fork-url", "--fork-block-number", "--fork-header", "--fork-cache-dir", "--fork-precompiles", "--fork-requests-per-second", "--genesis-file", "--vault[=true|false]", "--explorer[=true|false]", "--log-level", "--log-dir", "--rpc-gas-cap"]) {
      expect(NODE_USAGE, flag).to.include(flag);
    }
    expect(NODE_USAGE).to.include("(default /tmp)");
    // Every flag's line says its default.
    expect(NODE_USAGE.match(/\(default /g)).to.have.length(NODE_USAGE.match(/^ {2}--(?!help)/gm)!.length);
  });
});
