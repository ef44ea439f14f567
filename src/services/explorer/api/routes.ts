/**
 * The API's endpoints: for each path, the parameters it accepts and how it answers, over the
 * reader. Paths are relative to the version prefix (`/v2`, or the legacy `/x`, where `chainID`
 * defaults to the exchange chain). Lists add `next` — a ready query string for the following
 * page (the same parameters with `cursor` set) — when more items exist.
 */
import type { ExplorerContext } from "../context";
import { type JsonText, jsonObjectText } from "../json-text";
import type { ExplorerReader, ListParams, Page } from "../reader";
import { chainRecord } from "../reader";
import { badParameter, notFound } from "./errors";
import {
  CBLOCKS_LIMIT_MAX,
  LIST_LIMIT_MAX,
  QueryParameters,
  parseAddress,
  parseCAddress,
  parseCHash,
  parseChainIds,
  parseCursor,
  parseId,
  parseIntervalSize,
  parseLimit,
  parseNumber,
  parseQueryPrefix,
  parseSort,
  parseSpent,
  parseWindow,
} from "./parameters";

export interface Request {
  /** Segments after the version prefix, decoded: [] for the root, ["transactions", "<id>"], … */
  segments: string[];
  query: URLSearchParams;
  /** Legacy `/x`: chainID defaults to the exchange chain. */
  legacy: boolean;
  now: number;
}

interface Endpoint {
  /** Parameter names accepted (others are refused). */
  accepts: readonly string[];
  /** With an ID segment (`/transactions/<id>`), or without (`/transactions`). */
  withId: boolean;
  answer(ctx: EndpointContext, params: QueryParameters, id: string | undefined): Promise<unknown>;
}

interface EndpointContext {
  reader: ExplorerReader;
  context: ExplorerContext;
  request: Request;
}

/** Search answers the best results first; a page of them is plenty by default. */
export const SEARCH_LIMIT_DEFAULT = 100;

const LIST = ["limit", "query", "startTime", "endTime", "cursor"] as const;

function chainIds(ctx: EndpointContext, params: QueryParameters): string[] {
  const given = parseChainIds(params.all("chainID"), ctx.context);
  return given.length === 0 && ctx.request.legacy ? [ctx.context.chains.X] : given;
}

function addresses(ctx: EndpointContext, params: QueryParameters): string[] {
  return params.all("address").map((a) => parseAddress(a, ctx.context));
}

function listParams(ctx: EndpointContext, params: QueryParameters): ListParams {
  return {
    ...parseWindow(params, ctx.request.now),
    limit: parseLimit(params.one("limit"), { min: 1, max: LIST_LIMIT_MAX, default: LIST_LIMIT_MAX }),
    query: parseQueryPrefix(params.one("query")),
    cursor: parseCursor(params.one("cursor")),
  };
}

/** The query string of the following page: the same parameters with its cursor. */
function nextQuery(ctx: EndpointContext, cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const next = new URLSearchParams(ctx.request.query);
  next.set("cursor", cursor);
  return next.toString();
}

/** A list answer: its items under `key`, the window, and `next` when more items exist. */
function listAnswer<T>(ctx: EndpointContext, key: string, window: ListParams, page: Page<T>): Record<string, unknown> {
  const answer: Record<string, unknown> = { startTime: new Date(window.startTime).toISOString(), endTime: new Date(window.endTime).toISOString(), [key]: page.items };
  const next = nextQuery(ctx, page.next);
  if (next !== undefined) answer.next = next;
  return answer;
}

/** The same answer as JSON text, its items given as JSON text (the records the database wrote). */
function listAnswerText(ctx: EndpointContext, key: string, window: ListParams, page: { items: JsonText; next?: string }): JsonText {
  return jsonObjectText([
    ["startTime", new Date(window.startTime).toISOString()],
    ["endTime", new Date(window.endTime).toISOString()],
    [key, page.items],
    ["next", nextQuery(ctx, page.next)],
  ]);
}

async function found<T>(value: Promise<T | undefined>, what: string): Promise<T> {
  const result = await value;
  if (result === undefined) throw notFound(`${what} is not known to this explorer`);
  return result;
}

export const ENDPOINTS: Record<string, Endpoint> = {
  "": {
    accepts: [],
    withId: false,
    answer: async (ctx) => {
      if (!ctx.request.legacy) return ctx.reader.overview();
      const { chainID, chainAlias, vm, nativeAssetID, avaxAssetID, networkID } = chainRecord(ctx.context, "X");
      return { networkID, vm, chainAlias, chainID, nativeAssetID, avaxAssetID };
    },
  },
  search: {
    accepts: ["query", "limit"],
    withId: false,
    answer: (ctx, params) => ctx.reader.search(parseQueryPrefix(params.one("query"), true)!, parseLimit(params.one("limit"), { min: 1, max: LIST_LIMIT_MAX, default: SEARCH_LIMIT_DEFAULT })),
  },
  aggregates: {
    accepts: ["chainID", "assetID", "intervalSize", "startTime", "endTime"],
    withId: false,
    answer: (ctx, params) => {
      const assetId = params.one("assetID");
      return ctx.reader.aggregates({
        ...parseWindow(params, ctx.request.now),
        chainIds: chainIds(ctx, params),
        assetId: assetId === undefined ? undefined : parseId(assetId, "assetID"),
        intervalSize: parseIntervalSize(params.one("intervalSize")),
      });
    },
  },
  txfeeAggregates: {
    accepts: ["chainID", "intervalSize", "startTime", "endTime"],
    withId: false,
    answer: (ctx, params) =>
      ctx.reader.txfeeAggregates({ ...parseWindow(params, ctx.request.now), chainIds: chainIds(ctx, params), intervalSize: parseIntervalSize(params.one("intervalSize")) }),
  },
  addressChains: {
    accepts: ["address"],
    withId: false,
    answer: async (ctx, params) => {
      const asked = addresses(ctx, params);
      if (asked.length === 0) throw badParameter("address is required: /addressChains takes one or more address parameters");
      return { addressChains: await ctx.reader.addressChains(asked) };
    },
  },
  transactions: {
    accepts: ["chainID", "assetID", "address", "sort", ...LIST],
    withId: false,
    answer: async (ctx, params) => {
      const list = listParams(ctx, params);
      const assetId = params.one("assetID");
      const page = await ctx.reader.transactionsText({
        ...list,
        chainIds: chainIds(ctx, params),
        addresses: addresses(ctx, params),
        assetId: assetId === undefined ? undefined : parseId(assetId, "assetID"),
        sort: parseSort(params.one("sort")),
      });
      return listAnswerText(ctx, "transactions", list, page);
    },
  },
  "transactions/": {
    accepts: [],
    withId: true,
    answer: (ctx, _params, id) => found(ctx.reader.transaction(parseId(id!, "the transaction ID")), `transaction ${id}`),
  },
  addresses: {
    accepts: ["chainID", "address", ...LIST],
    withId: false,
    answer: async (ctx, params) => {
      const list = listParams(ctx, params);
      const page = await ctx.reader.addressesText({ ...list, chainIds: chainIds(ctx, params), addresses: addresses(ctx, params) });
      return listAnswerText(ctx, "addresses", list, page);
    },
  },
  "addresses/": {
    accepts: ["chainID"],
    withId: true,
    answer: (ctx, params, id) => {
      const address = parseAddress(id!, ctx.context, "the address");
      return found(ctx.reader.address(address, chainIds(ctx, params)), `address ${id}`);
    },
  },
  assets: {
    accepts: ["chainID", ...LIST],
    withId: false,
    answer: async (ctx, params) => {
      const list = listParams(ctx, params);
      return listAnswer(ctx, "assets", list, await ctx.reader.assets({ ...list, chainIds: chainIds(ctx, params) }));
    },
  },
  "assets/": {
    accepts: [],
    withId: true,
    answer: (ctx, _params, id) => found(ctx.reader.asset(parseId(id!, "the asset ID")), `asset ${id}`),
  },
  outputs: {
    accepts: ["chainID", "address", "spent", ...LIST],
    withId: false,
    answer: async (ctx, params) => {
      const list = listParams(ctx, params);
      const page = await ctx.reader.outputs({ ...list, chainIds: chainIds(ctx, params), addresses: addresses(ctx, params), spent: parseSpent(params.one("spent")) });
      return listAnswer(ctx, "outputs", list, page);
    },
  },
  "outputs/": {
    accepts: [],
    withId: true,
    answer: (ctx, _params, id) => found(ctx.reader.output(parseId(id!, "the output ID")), `output ${id}`),
  },
  ctxdata: {
    accepts: [],
    withId: false,
    answer: (ctx) => found(ctx.reader.cBlock("latest"), "the latest contract-chain block (none indexed yet)"),
  },
  "ctxdata/": {
    accepts: [],
    withId: true,
    answer: (ctx, _params, id) => {
      const height = id === "latest" ? "latest" : parseNumber(id, "the block height")!;
      return found(ctx.reader.cBlock(height), `contract-chain block ${id}`);
    },
  },
  cblocks: {
    accepts: ["limit", "blockStart", "blockEnd", "transactionId", "address"],
    withId: false,
    answer: (ctx, params) => {
      const limits = params.all("limit");
      if (limits.length > 2) throw badParameter(`limit is given ${limits.length} times; /cblocks takes at most two (blocks, then transactions)`);
      const range = { min: 0, max: CBLOCKS_LIMIT_MAX, default: 0 };
      return ctx.reader.cBlocks({
        blockLimit: parseLimit(limits[0], { ...range, name: "limit (the first, of blocks)" }),
        transactionLimit: parseLimit(limits[1], { ...range, name: "limit (the second, of transactions)" }),
        blockStart: parseNumber(params.one("blockStart"), "blockStart"),
        blockEnd: parseNumber(params.one("blockEnd"), "blockEnd"),
        transactionId: parseNumber(params.one("transactionId"), "transactionId"),
        addresses: params.all("address").map((a) => parseCAddress(a, "address")),
      });
    },
  },
  ctransactions: {
    accepts: ["toAddress", "fromAddress", "address", "hash", "blockStart", "blockEnd", ...LIST],
    withId: false,
    answer: async (ctx, params) => {
      const list = listParams(ctx, params);
      const optional = <T>(name: string, parse: (text: string, name: string) => T): T | undefined => {
        const text = params.one(name);
        return text === undefined ? undefined : parse(text, name);
      };
      const page = await ctx.reader.cTransactions({
        ...list,
        toAddress: optional("toAddress", parseCAddress),
        fromAddress: optional("fromAddress", parseCAddress),
        address: optional("address", parseCAddress),
        hash: optional("hash", parseCHash),
        blockStart: parseNumber(params.one("blockStart"), "blockStart"),
        blockEnd: parseNumber(params.one("blockEnd"), "blockEnd"),
      });
      // The reference's capital T, kept.
      return listAnswer(ctx, "Transactions", list, page);
    },
  },
};
