/**
 * Hostile input, JSON nesting (issue 26): a body of millions of `[` made `JSON.parse` build
 * millions of nested arrays, stalling every client for seconds. The node now measures the
 * nesting with a linear scan and refuses a body deeper than `--api-max-json-depth` (default 64)
 * before parsing it, over HTTP and WebSocket alike.
 */
import { expect } from "chai";
import fc from "fast-check";
import WebSocket from "ws";

import { PATHS } from "../../src/network/paths";
import { DEFAULT_MAX_JSON_DEPTH, handleJsonRpcBody } from "../../src/rpc/framing";
import { jsonNestingDepth } from "../../src/rpc/json-depth";
import { type CliNode, startedCliNode } from "../helpers/cli-node";
import { medianLatencyMs, whileHammered } from "../helpers/latency";

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
type Answer = { id: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } };

/** The nesting depth of a parsed value, by its definition: 0 for a scalar, one more per array or object. */
function trueDepth(value: JsonValue): number {
  if (value === null || typeof value !== "object") return 0;
  const children: JsonValue[] = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((deepest, child) => Math.max(deepest, trueDepth(child)), 0);
}

/** Strings made to confuse a scanner: brackets, braces, quotes and backslashes, escaped by JSON.stringify. */
const trickyString = fc.string({ unit: fc.constantFrom("[", "]", "{", "}", '"', "\\", "a", " ", "\n", "\u2028", "é") });
const { value: jsonValue } = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    trickyString,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(trickyString, tie("value"), { maxKeys: 4 }),
  ),
}));

/** `depth` levels of arrays around a request object. */
const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
/** 4 million `[` and as many `]`, 8 MB: valid JSON, which today's parser builds for seconds. */
const HOSTILE = nested(4_000_000);
/** The same as bytes, encoded once: the test's own encoding must not be what slows its measurements. */
const HOSTILE_BYTES = Buffer.from(HOSTILE);

describe("hostile input: JSON nesting depth, refused before parsing", function () {
  this.timeout(120_000);

  describe("the scanner", () => {
    it("computes the true nesting depth of any JSON value, whatever its strings hold", () => {
      fc.assert(
        fc.property(jsonValue, fc.constantFrom(undefined, 2), (value, indent) => {
          expect(jsonNestingDepth(JSON.stringify(value, null, indent))).to.equal(trueDepth(value));
        }),
        { numRuns: 500 },
      );
    });

    it("stops as soon as the depth passes the limit it is given", () => {
      fc.assert(
        fc.property(jsonValue, fc.integer({ min: 0, max: 6 }), (value, limit) => {
          const depth = trueDepth(value);
          const scanned = jsonNestingDepth(JSON.stringify(value), limit);
          expect(scanned).to.equal(depth <= limit ? depth : limit + 1);
        }),
        { numRuns: 300 },
      );
      // A string's escaped quote does not end it: the brackets after it are inside the string.
      expect(jsonNestingDepth(String.raw`["\"[[[[", {"k\\": [1]}]`)).to.equal(3);
    });
  });

  describe("the framing", () => {
    const dispatch = async (method: string) => (method === "echo" ? "ok" : undefined);

    it("refuses a body deeper than the limit with -32600 naming the limit, and accepts one at the limit", async () => {
      const refused = JSON.parse((await handleJsonRpcBody(nested(DEFAULT_MAX_JSON_DEPTH + 1), dispatch))!) as Answer;
      expect(refused.id).to.equal(null);
      expect(refused.error!.code).to.equal(-32600);
      expect(refused.error!.message).to.contain(`more than ${DEFAULT_MAX_JSON_DEPTH} levels`);
      expect(refused.error!.data).to.deep.equal({ limit: DEFAULT_MAX_JSON_DEPTH });

      // At the limit the body is parsed: a batch holding a request whose params nest to depth 64.
      const atLimit = `[{"jsonrpc":"2.0","id":1,"method":"echo","params":${nested(DEFAULT_MAX_JSON_DEPTH - 2)}}]`;
      expect(jsonNestingDepth(atLimit)).to.equal(DEFAULT_MAX_JSON_DEPTH);
      const answered = JSON.parse((await handleJsonRpcBody(atLimit, dispatch))!) as Answer[];
      expect(answered).to.deep.equal([{ jsonrpc: "2.0", id: 1, result: "ok" }]);
    });

    it("refuses the 8 MB body of 4 million [ in milliseconds, not seconds", async () => {
      const started = performance.now();
      const refused = JSON.parse((await handleJsonRpcBody(HOSTILE, dispatch))!) as Answer;
      const elapsed = performance.now() - started;
      expect(refused.error!.code).to.equal(-32600);
      expect(elapsed).to.be.below(100);
    });
  });

  describe("nativekit node", () => {
    let node: CliNode;
    let wsUrl: string;

    before(async () => {
      node = await startedCliNode(["--silent"]);
      wsUrl = `${node.url.replace(/^http/, "ws")}${PATHS.contractWs}`;
    });
    after(async () => {
      await node?.stop();
    });

    const postRaw = async (body: string | Uint8Array): Promise<Answer> => {
      const response = await fetch(`${node.url}${PATHS.contractRpc}`, { method: "POST", headers: { "content-type": "application/json" }, body });
      return (await response.json()) as Answer;
    };
    const blockNumber = () => node.call(PATHS.contractRpc, "eth_blockNumber");

    it("answers eth_blockNumber fast when nobody is hostile (the baseline)", async () => {
      const median = await medianLatencyMs(blockNumber);
      console.log(`      eth_blockNumber median, quiet node: ${median.toFixed(1)} ms`);
      expect(median).to.be.below(50);
    });

    it("over HTTP refuses the 8 MB body of 4 million [ with -32600, and eth_blockNumber stays fast for everyone else", async () => {
      const answers: Answer[] = [];
      const median = await whileHammered(
        async () => answers.push(await postRaw(HOSTILE_BYTES)),
        () => medianLatencyMs(blockNumber),
        1,
      );
      console.log(`      eth_blockNumber median while a client sends the nested body over HTTP: ${median.toFixed(1)} ms`);
      expect(answers.length).to.be.above(0);
      for (const answer of answers) {
        expect(answer.error!.code).to.equal(-32600);
        expect(answer.error!.message).to.contain(`more than ${DEFAULT_MAX_JSON_DEPTH} levels of arrays and objects`);
      }
      expect(median).to.be.below(50);
    });

    it("over WebSocket refuses the same message, and eth_blockNumber stays fast for everyone else", async () => {
      // An all-zero mask spares this process masking 8 MB per message in JavaScript, which would
      // slow its own latency measurements; the node reads the frames as any client's.
      const socket = new WebSocket(wsUrl, { generateMask: (mask: Buffer) => mask.fill(0) });
      await new Promise<void>((resolve, reject) => {
        socket.once("open", () => resolve());
        socket.once("error", reject);
      });
      const answers: Answer[] = [];
      try {
        const sendHostile = () =>
          new Promise<void>((resolve, reject) => {
            socket.once("message", (data) => {
              answers.push(JSON.parse(String(data)) as Answer);
              resolve();
            });
            socket.send(HOSTILE_BYTES, (error) => (error === undefined || error === null ? undefined : reject(error)));
          });
        const median = await whileHammered(sendHostile, () => medianLatencyMs(blockNumber), 1);
        console.log(`      eth_blockNumber median while a client sends the nested message over WebSocket: ${median.toFixed(1)} ms`);
        expect(answers.length).to.be.above(0);
        for (const answer of answers) {
          expect(answer.error!.code).to.equal(-32600);
          expect(answer.error!.message).to.contain(`more than ${DEFAULT_MAX_JSON_DEPTH} levels`);
        }
        expect(median).to.be.below(50);
      } finally {
        socket.close();
      }
    });

    it("takes its limit from --api-max-json-depth", async () => {
      const strict = await startedCliNode(["--silent", "--api-max-json-depth", "3"]);
      try {
        const post = async (body: string) =>
          (await (await fetch(`${strict.url}${PATHS.contractRpc}`, { method: "POST", headers: { "content-type": "application/json" }, body })).json()) as Answer;
        // Depth 2 (a request object holding its params array) is answered; depth 5 is refused.
        const ok = await post('{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",false]}');
        expect(ok.error).to.equal(undefined);
        const refused = await post('{"jsonrpc":"2.0","id":1,"method":"eth_getLogs","params":[{"topics":[[]]}]}');
        expect(refused.error!.code).to.equal(-32600);
        expect(refused.error!.message).to.contain("more than 3 levels");
      } finally {
        await strict.stop();
      }
    });
  });
});
