import { expect } from "chai";

import { decodeNodeBytes, encodeNodeBytes } from "../../src/clients";
import * as ground from "../../src/encoding";

function refusal(read: () => unknown): ground.EncodingError {
  try {
    read();
  } catch (error) {
    expect(error).to.be.instanceOf(ground.EncodingError);
    return error as ground.EncodingError;
  }
  throw new Error("expected the text to be refused");
}

describe("clients/bytes: the node's byte encodings as the clients use them", () => {
  const bytes = new Uint8Array([0, 1, 2, 0xfe, 0xff]);

  it("writes cb58 and hex exactly as the ground floor does, and reads them back", () => {
    for (const encoding of ["cb58", "hex"] as const) {
      const text = encodeNodeBytes(bytes, encoding);
      expect(text).to.equal(ground.encodeNodeBytes(bytes, encoding));
      expect(decodeNodeBytes(text, encoding)).to.deep.equal(bytes);
    }
  });

  it("refuses the encodings the chain APIs do not take, and values that are not bytes", () => {
    expect(() => encodeNodeBytes(bytes, "hexnc" as "hex")).to.throw(TypeError, 'encodeNodeBytes: encoding must be "cb58" or "hex", got "hexnc"');
    expect(() => decodeNodeBytes("0x", "hexnc" as "hex")).to.throw(TypeError, 'decodeNodeBytes: encoding must be "cb58" or "hex", got "hexnc"');
    expect(() => encodeNodeBytes([1, 2] as unknown as Uint8Array, "hex")).to.throw(TypeError, "encodeNodeBytes: expected a Uint8Array");
  });

  it("reports bad hex as the clients' 'invalid hex bytes' with the node's wording as detail", () => {
    const error = refusal(() => decodeNodeBytes("0x010203040506", "hex"));
    expect(error.message).to.match(/^invalid hex bytes "0x010203040506": invalid input checksum/);
    expect(error.detail).to.match(/^invalid input checksum/);
    expect(refusal(() => decodeNodeBytes("0x0102", "hex")).detail).to.equal("input string is smaller than the checksum size");
  });

  it("refuses the empty string, which the node never writes for bytes", () => {
    expect(refusal(() => decodeNodeBytes("", "hex")).message).to.equal('invalid hex bytes "": empty (the node writes no bytes as 0x7852b855)');
    expect(refusal(() => decodeNodeBytes("", "cb58")).message).to.match(/^invalid cb58 string ""/);
  });
});
