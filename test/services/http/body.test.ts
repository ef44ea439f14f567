import * as http from "node:http";
import type { AddressInfo } from "node:net";

import { expect } from "chai";

import { readBoundedBody } from "../../../src/services/http/body";

/** The services' bounded body reader, over a real loopback HTTP exchange. */
describe("services: reading a request body up to a limit", () => {
  let server: http.Server;
  let url: string;

  before(async () => {
    server = http.createServer((req, res) => {
      readBoundedBody(req, 16, (message) => new RangeError(message)).then(
        (text) => res.writeHead(200).end(`read:${text}`),
        (error: Error) => res.writeHead(413).end(`${error.name}:${error.message}`),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const post = async (body: string) => {
    const res = await fetch(url, { method: "POST", body });
    return { status: res.status, text: await res.text() };
  };

  it("returns a body within the limit whole, as UTF-8 text", async () => {
    expect(await post("héllo, wörld")).to.deep.equal({ status: 200, text: "read:héllo, wörld" });
    expect(await post("")).to.deep.equal({ status: 200, text: "read:" });
  });

  it("refuses a body over the limit with the caller's error, naming the limit", async () => {
    expect(await post("x".repeat(17))).to.deep.equal({ status: 413, text: "RangeError:request body too large: the limit is 16 bytes" });
  });
});
