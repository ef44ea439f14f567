import { expect } from "chai";
import fc from "fast-check";

import { EncodingError, decodeNodeBytes, encodeNodeBytes, NODE_BYTE_ENCODINGS } from "../../src/encoding";
import { syncRefusalOf } from "../helpers/refusal";

const detailOf = (read: () => unknown): string => syncRefusalOf(read, EncodingError).detail;

describe("node bytes: byte values in the node APIs' encodings", () => {
  it("round-trips any bytes in every encoding (property)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.constantFrom(...NODE_BYTE_ENCODINGS), (bytes, encoding) => {
        expect(decodeNodeBytes(encodeNodeBytes(bytes, encoding), encoding)).to.deep.equal(bytes);
      }),
    );
  });

  it("writes hex with the 4-byte checksum of the reference node (last 4 bytes of the sha256)", () => {
    // sha256("") = e3b0c442...7852b855
    expect(encodeNodeBytes(new Uint8Array(0), "hex")).to.equal("0x7852b855");
    expect(encodeNodeBytes(new Uint8Array([1, 2]), "hexnc")).to.equal("0x0102");
  });

  it("reads the empty string as no bytes", () => {
    for (const encoding of NODE_BYTE_ENCODINGS) expect(decodeNodeBytes("", encoding)).to.deep.equal(new Uint8Array(0));
  });

  it("refuses hex without prefix, with odd digits, too short for the checksum, or with a wrong checksum", () => {
    expect(detailOf(() => decodeNodeBytes("0102", "hex"))).to.equal("missing 0x prefix to hex encoding");
    expect(detailOf(() => decodeNodeBytes("0x012", "hex"))).to.equal("not an even number of hex digits after 0x");
    expect(detailOf(() => decodeNodeBytes("0x0102", "hex"))).to.equal("input string is smaller than the checksum size");
    expect(detailOf(() => decodeNodeBytes("0x0102030405", "hexc"))).to.match(/^invalid input checksum/);
  });
});
