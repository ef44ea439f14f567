/**
 * A STAND-IN NODE for the explorer benchmark at scale: not a node, but an HTTP server answering
 * the few calls the explorer makes (info, the exchange chain's asset description and genesis
 * transaction, and the three index APIs) from an exchange-chain index generated here in seconds
 * instead of an hour of live transactions. Its containers are real signed exchange-chain base
 * transactions built with the project's codec (src/utxo/codec): each spends its sender's change
 * output and pays a recipient, so UTXOs chain and the signatures recover to their owners. The
 * platform and contract indexes are empty.
 *
 * The generated set: `accounts` keys, each funded by the genesis (a create-asset transaction of
 * the native asset); transaction i is sent by account i mod accounts; a third of the payments go
 * to one hot address (an exchange's, the case that made per-request sums slow), the rest to a
 * random account. One container every 100 ms of acceptance time from a fixed start.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sha256 } from "@noble/hashes/sha2.js";
import { encodeCb58, encodeNodeBytes } from "../src/encoding";
import { compareTransferableOutputs, encodeSignedTx, shortIdFromPrivateKey, signTx, type TransferableOutput, TypeId } from "../src/utxo/codec";

const NETWORK_ID = 12345;
const START_MS = Date.UTC(2026, 0, 1);
const STEP_MS = 100;
const FEE = 1_000_000n;
const FUNDING = 10n ** 15n;
const HOT_SHARE = 3;

export interface StandInChain {
  chainIds: { X: string; P: string; C: string };
  nativeAssetId: string;
  genesis: { id: string; bytes: Uint8Array };
  /** Signed bytes of each container of the X index, in order. */
  containers: Uint8Array[];
  containerIds: string[];
}

/** A deterministic pseudo-random sequence (the same data set every run). */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const idOf = (label: string): Uint8Array => sha256(new TextEncoder().encode(label));

function transferOutput(assetId: Uint8Array, amount: bigint, owner: Uint8Array): TransferableOutput {
  return { assetId, output: { typeId: TypeId.Secp256k1TransferOutput, amount, locktime: 0n, threshold: 1, addresses: [owner] } };
}

/** Generates `count` containers (signed base transactions) and the genesis they spend from. */
export function generateStandInChain(count: number, accounts = 1000, report: (line: string) => void = () => undefined): StandInChain {
  const blockchainId = idOf("stand-in X chain");
  const keys = Array.from({ length: accounts }, (_, i) => idOf(`stand-in key ${i}`));
  const owners = keys.map((k) => shortIdFromPrivateKey(k));
  const hot = shortIdFromPrivateKey(idOf("stand-in hot address"));
  const genesisBytes = encodeSignedTx({
    unsignedTx: {
      typeId: TypeId.CreateAssetTx,
      networkId: NETWORK_ID,
      blockchainId,
      outputs: [],
      inputs: [],
      memo: new Uint8Array(0),
      name: "Avalanche",
      symbol: "AVAX",
      denomination: 9,
      initialStates: [{ fxIndex: 0, outputs: owners.map((owner) => ({ typeId: TypeId.Secp256k1TransferOutput, amount: FUNDING, locktime: 0n, threshold: 1, addresses: [owner] })) }],
    },
    credentials: [],
  });
  const assetId = sha256(genesisBytes);
  // Each account's spendable output: the genesis output first, then its latest change.
  const change: { txId: Uint8Array; outputIndex: number; amount: bigint }[] = owners.map((_, i) => ({ txId: assetId, outputIndex: i, amount: FUNDING }));
  const random = seeded(7);
  const containers: Uint8Array[] = [];
  const containerIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const sender = i % accounts;
    const spent = change[sender]!;
    const recipient = random() * HOT_SHARE < 1 ? hot : owners[Math.floor(random() * accounts)]!;
    const amount = 1000n + BigInt(i % 100_000);
    const rest = spent.amount - amount - FEE;
    const outputs = [transferOutput(assetId, amount, recipient), transferOutput(assetId, rest, owners[sender]!)].sort(compareTransferableOutputs);
    const signed = signTx(
      {
        typeId: TypeId.BaseTx,
        networkId: NETWORK_ID,
        blockchainId,
        outputs,
        inputs: [{ txId: spent.txId, outputIndex: spent.outputIndex, assetId, input: { typeId: TypeId.Secp256k1TransferInput, amount: spent.amount, signatureIndices: [0] } }],
        memo: new Uint8Array(0),
      },
      [[keys[sender]!]],
    );
    change[sender] = { txId: signed.txId, outputIndex: outputs.findIndex((o) => o.output.amount === rest && o.output.addresses[0] === owners[sender]), amount: rest };
    containers.push(signed.bytes);
    containerIds.push(encodeCb58(signed.txId));
    if ((i + 1) % 100_000 === 0) report(`  ${i + 1} stand-in transactions generated`);
  }
  return {
    chainIds: { X: encodeCb58(blockchainId), P: encodeCb58(idOf("stand-in P chain")), C: encodeCb58(idOf("stand-in C chain")) },
    nativeAssetId: encodeCb58(assetId),
    genesis: { id: encodeCb58(assetId), bytes: genesisBytes },
    containers,
    containerIds,
  };
}

/** RFC 3339 in UTC with nanoseconds, as the node formats an acceptance time. */
const timestampOf = (index: number): string => new Date(START_MS + index * STEP_MS).toISOString().replace(/\.(\d{3})Z$/, ".$1000000Z");

class RpcError extends Error {}

/** An answer already in JSON. */
class PreSerialised {
  constructor(readonly json: string) {}
}

export interface StandInNode {
  url: string;
  /** How many containers the X index serves (the first `n` of the chain): raised to serve more. */
  served: number;
  close(): Promise<void>;
}

/** Serves `chain` (its first `served` containers) over HTTP on a free port of 127.0.0.1. */
export async function startStandInNode(chain: StandInChain, served: number): Promise<StandInNode> {
  // Each container's JSON is made once, before any is asked for: the stand-in shares the
  // explorer's process, and a page of them is then a join of strings, not an encoding of each.
  const containerJson = chain.containers.map((bytes, i) =>
    JSON.stringify({ id: chain.containerIds[i], bytes: encodeNodeBytes(bytes, "hex"), timestamp: timestampOf(i), encoding: "hex", index: String(i) }),
  );
  const node: StandInNode = { url: "", served, close: async () => undefined };
  const answer = (path: string, method: string, params: Record<string, unknown>): unknown => {
    if (path === "/ext/info" && method === "info.getNetworkID") return { networkID: String(NETWORK_ID) };
    if (path === "/ext/info" && method === "info.getBlockchainID") return { blockchainID: chain.chainIds[params.alias as "X" | "P" | "C"] };
    if (path === "/ext/bc/X" && /^[ax]vm\.getAssetDescription$/.test(method)) return { assetID: chain.nativeAssetId, name: "Avalanche", symbol: "AVAX", denomination: "9" };
    if (path === "/ext/bc/X" && /^[ax]vm\.getTx$/.test(method)) {
      if (params.txID !== chain.genesis.id) throw new RpcError("couldn't get transaction: not found");
      return { tx: encodeNodeBytes(chain.genesis.bytes, "hex"), encoding: "hex" };
    }
    if (path.startsWith("/ext/index/")) {
      const count = path === "/ext/index/X/tx" ? node.served : 0;
      if (method === "index.getLastAccepted") {
        if (count === 0) throw new RpcError("no containers have been accepted");
        return new PreSerialised(containerJson[count - 1]!);
      }
      if (method === "index.getContainerRange") {
        const start = Number(params.startIndex);
        const end = Math.min(count, start + Number(params.numToFetch));
        if (start >= count) throw new RpcError(`start index ${start} is after the last accepted index`);
        return new PreSerialised(`{"containers":[${containerJson.slice(start, end).join(",")}]}`);
      }
    }
    throw new RpcError(`the stand-in node does not serve ${method} at ${path}`);
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: unknown; method: string; params?: Record<string, unknown> };
      let text: string;
      try {
        const result = answer(req.url ?? "", request.method, request.params ?? {});
        const resultJson = result instanceof PreSerialised ? result.json : JSON.stringify(result);
        text = `{"jsonrpc":"2.0","id":${JSON.stringify(request.id)},"result":${resultJson}}`;
      } catch (error) {
        text = JSON.stringify({ jsonrpc: "2.0", id: request.id, error: { code: -32000, message: (error as Error).message } });
      }
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  node.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  node.close = () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return node;
}
