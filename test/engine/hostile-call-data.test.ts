import { expect } from "chai";
import { createNativeProvider } from "../../src/engine/provider";
import { decodeNodeBytes } from "../../src/encoding/node-bytes";
import { RpcError } from "../../src/rpc/errors";
import { refusalOf } from "../helpers/refusal";

/** The identity precompile: it returns its input. */
const IDENTITY = "0x0000000000000000000000000000000000000004";
/** What one client sent: 4.9 MB of call data. */
const BIG = 4_900_000;

describe("hostile input: megabytes of call data are read, not a stack overflow", () => {
  it("an eth_call with 4.9 MB of data runs, and answers what the identity precompile returns", async () => {
    const provider = await createNativeProvider();
    // Zero bytes: 4 gas each, so the call's intrinsic gas fits in the node's cap.
    const data = "0x" + "00".repeat(BIG);
    const result = (await provider.request({ method: "eth_call", params: [{ to: IDENTITY, data, gas: "0x2faf080" }, "latest"] })) as string;
    expect(result.length).to.equal(data.length);
  });

  it("call data of an odd number of digits or with a non-hex character is still refused with -32602", async () => {
    const provider = await createNativeProvider();
    for (const data of ["0x" + "a".repeat(2 * BIG + 1), "0x" + "ab".repeat(BIG) + "zz"]) {
      const error = await refusalOf(provider.request({ method: "eth_call", params: [{ to: IDENTITY, data }, "latest"] }), RpcError);
      expect(error.code).to.equal(-32602);
    }
  });

  it("the node's hex byte encoding reads megabytes of hex", () => {
    expect(decodeNodeBytes("0x" + "00".repeat(BIG), "hexnc")).to.have.length(BIG);
  });
});
