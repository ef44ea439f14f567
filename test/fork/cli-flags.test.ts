import { expect } from "chai";
import { parseNodeArgs } from "../../src/cli/node-flags";

const parse = (args: string[]) => parseNodeArgs(args) as { options: Record<string, unknown> } & { error?: string };

describe("fork: the flags of nativekit node", () => {
  it("takes --fork-url, --fork-block-number and repeated --fork-header", () => {
    const { options } = parse(["--fork-url", "https://rpc.example/ext/bc/C/rpc", "--fork-block-number", "1234", "--fork-header", "x-api-key:secret", "--fork-header", "x-team: a:b"]);
    expect(options).to.deep.equal({
      forkUrl: "https://rpc.example/ext/bc/C/rpc",
      forkBlockNumber: 1234,
      forkHeaders: ["x-api-key:secret", "x-team: a:b"],
    });
  });

  it("takes --fork-precompiles active or deprecated only", () => {
    expect(parse(["--fork-url", "http://127.0.0.1:1/", "--fork-precompiles", "deprecated"]).options.forkPrecompiles).to.equal("deprecated");
    expect(parse(["--fork-url", "http://127.0.0.1:1/", "--fork-precompiles", "maybe"]).error).to.match(/expected active or deprecated/);
  });

  it("refuses a --fork-url that is not http(s) and --fork-* options without --fork-url", () => {
    expect(parse(["--fork-url", "ftp://x"]).error).to.match(/invalid --fork-url/);
    expect(parse(["--fork-block-number", "5"]).error).to.equal("the --fork-* options need --fork-url <url>");
  });
});
