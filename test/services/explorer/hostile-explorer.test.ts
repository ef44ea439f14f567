/**
 * Hostile input against the explorer (issue 26): URLs whose percent-encoding is malformed, in a
 * path or a query string, for the pages and the JSON API (they were answered 503 "its database
 * did not answer", a 404, a 500 from the database, or read as something else); and an explorer
 * following a node started with --api-auth-required (item 9: it could not start, "HTTP 401").
 * Each test is one behaviour that failed before the fix.
 */
import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createNodeClient, createPlatformChainClient, NODE_TOKEN_ENV, type NodeClient } from "../../../src/clients";
import { runCli } from "../../../src/cli/cli";
import { LOCAL_TEST_KEY } from "../../../src/network/constants";
import { type HttpNode, startHttpNode } from "../../../src/node/http-server";
import { NodeChains } from "../../../src/node/node-chains";
import { EXPLORER_NODE_PATHS, type ExplorerServer, startExplorerServer } from "../../../src/services/explorer";
import { CREDENTIALS, type FundedNode, startFundedNode } from "./helpers";
import { waitFor } from "../../helpers/wait-for";
import { PRINTED_AUTH_REFUSAL } from "../../helpers/refusal";

const PASSWORD = "raccoon-velvet-42";

/** Malformed escapes: a UTF-8 sequence cut short, and a `%` not followed by two hex digits. */
const TRUNCATED = "%E0%A4%A";
const NOT_HEX = "%zz";


interface Answer {
  status: number;
  type: string;
  text: string;
}

async function get(url: string): Promise<Answer> {
  const response = await fetch(url, { redirect: "manual" });
  return { status: response.status, type: response.headers.get("content-type") ?? "", text: await response.text() };
}

/** A page refused as not understood: 400, HTML, saying the percent-encoding is malformed. */
function expectBadPage(answer: Answer, input: string): void {
  expect(answer.status, answer.text).to.equal(400);
  expect(answer.type).to.match(/^text\/html/);
  expect(answer.text).to.include("percent-encoding").and.include(input);
}

/** An API refusal: 400, `{code: 400, message}` saying the percent-encoding is malformed. */
function expectBadApiCall(answer: Answer, input: string): void {
  expect(answer.status, answer.text).to.equal(400);
  expect(answer.type).to.match(/^application\/json/);
  const body = JSON.parse(answer.text) as { code: number; message: string };
  expect(body.code).to.equal(400);
  expect(body.message).to.include("percent-encoding").and.include(input);
}

/** Runs a long-lived command in this process: its output so far, a way to stop it, its exit code. */
function startCommand(argv: string[], env: Record<string, string | undefined> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hostile-explorer-"));
  argv = [...argv, "--data-dir", dir];
  let out = "";
  let stop: (signal: "SIGINT" | "SIGTERM") => void = () => undefined;
  const exit = runCli(argv, { env, createNode: async () => Promise.reject(new Error("no node")), stdout: (t) => (out += t), stderr: (t) => (out += t), onSignal: (h) => ((stop = h), () => undefined) }).finally(() =>
    fs.rmSync(dir, { recursive: true, force: true }),
  );
  return { output: () => out, stop: () => stop("SIGTERM"), exit };
}

describe("hostile explorer input", function () {
  this.timeout(120_000);

  describe("malformed percent-encoding", () => {
    let node: FundedNode;
    let explorer: ExplorerServer;

    before(async () => {
      node = await startFundedNode();
      explorer = await startExplorerServer({ nodeUrl: node.url, port: 0, pollIntervalMs: 50 });
    });

    after(async () => {
      await explorer?.close();
      await node?.close();
    });

    it("a page path with a truncated UTF-8 escape answers a 400 page, not a 503", async () => {
      expectBadPage(await get(`${explorer.url}/tx/${TRUNCATED}`), TRUNCATED);
    });

    it("a page path with % not followed by two hex digits answers a 400 page", async () => {
      expectBadPage(await get(`${explorer.url}/address/${NOT_HEX}`), NOT_HEX);
    });

    it("a page path ending in a lone % answers a 400 page", async () => {
      expectBadPage(await get(`${explorer.url}/asset/abc%`), "abc%");
    });

    it("a search with a malformed query value answers a 400 page, not a search for the text as typed", async () => {
      expectBadPage(await get(`${explorer.url}/search?q=${NOT_HEX}`), NOT_HEX);
    });

    it("a page's cursor with a truncated UTF-8 escape answers a 400 page", async () => {
      expectBadPage(await get(`${explorer.url}/txs/X?cursor=${TRUNCATED}`), TRUNCATED);
    });

    it("an API path with a truncated UTF-8 escape answers 400, not 404", async () => {
      expectBadApiCall(await get(`${explorer.url}/v2/transactions/${TRUNCATED}`), TRUNCATED);
    });

    it("an API path with % not followed by two hex digits answers 400", async () => {
      expectBadApiCall(await get(`${explorer.url}/x/assets/${NOT_HEX}`), NOT_HEX);
    });

    it("an API query value with a malformed escape answers 400, not a search for the text as typed", async () => {
      expectBadApiCall(await get(`${explorer.url}/v2/transactions?query=${NOT_HEX}`), NOT_HEX);
    });

    it("an API query value with a truncated UTF-8 escape answers 400 naming the parameter", async () => {
      const answer = await get(`${explorer.url}/v2/search?query=${TRUNCATED}`);
      expectBadApiCall(answer, TRUNCATED);
      expect(answer.text).to.include("query");
    });

    it("an API query parameter name with a malformed escape answers 400 saying so, not 'unknown parameter'", async () => {
      const answer = await get(`${explorer.url}/v2/assets?${NOT_HEX}=1`);
      expectBadApiCall(answer, NOT_HEX);
      expect(answer.text).not.to.include("unknown parameter");
    });

    it("a NUL character (%00) in an API query is refused with 400, not a database error", async () => {
      const answer = await get(`${explorer.url}/v2/assets?query=%00`);
      expect(answer.status, answer.text).to.equal(400);
      expect((JSON.parse(answer.text) as { message: string }).message).to.include("NUL");
    });

    it("a NUL character (%00) in a search page's query is refused with a 400 page, not a 503", async () => {
      const answer = await get(`${explorer.url}/search?q=ab%00cd`);
      expect(answer.status, answer.text).to.equal(400);
      expect(answer.text).to.include("NUL");
    });

    it("the status with a malformed query answers 400", async () => {
      expectBadApiCall(await get(`${explorer.url}/status?since=${NOT_HEX}`), NOT_HEX);
    });

    it("well-formed escapes still work: an escaped search term is read as the text it encodes", async () => {
      const answer = await get(`${explorer.url}/v2/search?query=%41%56%41%58`);
      expect(answer.status, answer.text).to.equal(200);
    });
  });

  describe("an explorer following a node started with --api-auth-required", () => {
    let network: NodeChains;
    let http: HttpNode;
    let admin: NodeClient;

    /** A token of the node's auth API for `endpoints`. */
    const newToken = (endpoints: readonly string[]) => admin.auth.newToken(PASSWORD, endpoints);

    /** Sends some of the native asset on the exchange chain; answers the transaction's ID. */
    async function xSend(): Promise<string> {
      const to = await admin.xvm.createAddress({ credentials: CREDENTIALS });
      const { txID } = await admin.xvm.send({ credentials: CREDENTIALS, to, amount: 1_000_000n, assetID: "AVAX" });
      await admin.xvm.waitForTxStatus(txID);
      return txID;
    }

    async function explorerShows(url: string, txID: string): Promise<void> {
      await waitFor(async () => ((await fetch(`${url}/v2/transactions/${txID}`)).status === 200 ? true : null), `the explorer to show ${txID}`);
    }

    before(async () => {
      network = await NodeChains.create({ management: { indexEnabled: true, apiAuthRequired: true, apiAuthPassword: PASSWORD } });
      const { getRoutes, authorize } = network.management;
      http = await startHttpNode({ port: 0, routes: network.routes, getRoutes, authorize });
      admin = createNodeClient({ url: http.url });
      admin.setAuthToken(await newToken(["*"]));
      await admin.keystore.createUser(CREDENTIALS);
      await admin.xvm.importKey({ credentials: CREDENTIALS, privateKey: LOCAL_TEST_KEY });
      await createPlatformChainClient({ transport: admin.transport }).importKey({ credentials: CREDENTIALS, privateKey: LOCAL_TEST_KEY });
    });

    after(async () => {
      await http?.close();
      await network?.close();
    });

    it("nativekit explorer --node-token follows the node with a token limited to EXPLORER_NODE_PATHS", async () => {
      const run = startCommand(["explorer", "--node", http.url, "--port", "0", "--node-token", await newToken(EXPLORER_NODE_PATHS)]);
      try {
        const [, url] = await waitFor(() => /explorer listening on (http:\/\/\S+) /.exec(run.output()), `the explorer to listen:\n${run.output()}`);
        await explorerShows(url!, await xSend());
        expect(run.output()).not.to.match(PRINTED_AUTH_REFUSAL);
      } finally {
        run.stop();
        expect(await run.exit, run.output()).to.equal(0);
      }
    });

    it(`nativekit explorer reads the token from ${NODE_TOKEN_ENV} when --node-token is not given`, async () => {
      const run = startCommand(["explorer", "--node", http.url, "--port", "0"], { [NODE_TOKEN_ENV]: await newToken(EXPLORER_NODE_PATHS) });
      try {
        const [, url] = await waitFor(() => /explorer listening on (http:\/\/\S+) /.exec(run.output()), `the explorer to listen:\n${run.output()}`);
        await explorerShows(url!, await xSend());
      } finally {
        run.stop();
        expect(await run.exit, run.output()).to.equal(0);
      }
    });

    it(`--node-token wins over ${NODE_TOKEN_ENV}`, async () => {
      const run = startCommand(["explorer", "--node", http.url, "--port", "0", "--node-token", await newToken(EXPLORER_NODE_PATHS)], { [NODE_TOKEN_ENV]: "not-a-token" });
      try {
        await waitFor(() => /explorer listening on (http:\/\/\S+) /.exec(run.output()), `the explorer to listen:\n${run.output()}`);
      } finally {
        run.stop();
        expect(await run.exit, run.output()).to.equal(0);
      }
    });

    it("nativekit explorer refuses an empty --node-token as a usage error", async () => {
      const run = startCommand(["explorer", "--node", http.url, "--port", "0", "--node-token", ""]);
      expect(await run.exit, run.output()).to.equal(2);
      expect(run.output()).to.include("invalid --node-token").and.include("Usage: nativekit explorer");
    });

    it("nativekit explorer without a token exits 1 with a message naming --node-token", async () => {
      const run = startCommand(["explorer", "--node", http.url, "--port", "0"]);
      expect(await run.exit, run.output()).to.equal(1);
      expect(run.output()).to.include("error: the explorer could not start").and.include("--node-token").and.include(NODE_TOKEN_ENV);
    });

    it("nativekit explorer with a token the node refuses exits 1 saying the token was refused", async () => {
      const run = startCommand(["explorer", "--node", http.url, "--port", "0", "--node-token", await newToken(["/ext/info"])]);
      expect(await run.exit, run.output()).to.equal(1);
      expect(run.output()).to.include("refused").and.include("--node-token");
    });

    it("an explorer given a function as nodeToken asks it again once the node refuses the token, and keeps following", async () => {
      const tokens: string[] = [];
      const explorer = await startExplorerServer({
        nodeUrl: http.url,
        port: 0,
        pollIntervalMs: 50,
        nodeToken: async () => {
          tokens.push(await newToken(EXPLORER_NODE_PATHS));
          return tokens[tokens.length - 1]!;
        },
      });
      try {
        await explorerShows(explorer.url, await xSend());
        expect(tokens).to.have.length(1);
        await admin.auth.revokeToken(PASSWORD, tokens[0]!);
        await explorerShows(explorer.url, await xSend());
        const renewed = tokens.length;
        expect(renewed).to.be.greaterThan(1);
        // The new token is kept: ten more polls of each index ask for none.
        await new Promise((r) => setTimeout(r, 500));
        expect(tokens).to.have.length(renewed);
      } finally {
        await explorer.close();
      }
    });
  });
});
