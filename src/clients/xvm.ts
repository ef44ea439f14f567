/**
 * Client of the exchange chain API (`xvm.*` at `/ext/bc/X`; `avm.*` on real nodes, see
 * {@link Naming}).
 *
 * ```ts
 * const xvm = createExchangeChainClient({ transport: createTransport({ url: "http://127.0.0.1:9650" }) });
 * const { txID } = await xvm.send({ credentials, assetID: "AVAX", amount: 1_000n, to: "X-local1…" });
 * await xvm.waitForTxStatus(txID);
 * ```
 *
 * Conventions:
 * - parameters and result fields keep the API's names (`assetID`, `txID`, `changeAddr`);
 * - amounts are `bigint`, sent as decimal strings; counts (limit, pageSize, denomination,
 *   threshold, networkID) are numbers; every uint64 in a result is parsed into a `bigint`
 *   whether the node writes it as a string or a number;
 * - an optional parameter left `undefined` is not sent;
 * - a method whose result has one field returns that field's value (`createAddress` returns the
 *   address, `issueTx` the txID); the others return an object.
 *
 * This file holds the implementation; the parameter and result types and the
 * {@link ExchangeChainClient} interface are in `./xvm-types` (and exported from here too).
 */
import { BYTE_ENCODINGS, type ByteEncoding } from "./bytes";
import { Args, invoke, Reader, waitForStatus } from "./internal";
import { compact, type JsonObject, type JsonValue, parseJsonLossless } from "./json";
import { DEFAULT_EXCHANGE_CHAIN, namingScheme } from "./naming";
import type { RequestOptions, TxIDChangeAddr, UTXOPage } from "./types";
import { getUTXOPage, iterateUTXOPages, type UTXOQuery } from "./utxos";
import {
  type AddressTxsPage,
  type AssetIDChangeAddr,
  type ExchangeChainClient,
  type ExchangeChainClientOptions,
  type GetAddressTxsParameters,
  type GetTxParameters,
  type GetTxResult,
  type GetTxStatusParameters,
  type GetUTXOsParameters,
  XVM_TX_STATUSES,
  type XvmTxStatus,
} from "./xvm-types";

export * from "./xvm-types";

/** Creates an exchange-chain client over `transport`. */
export function createExchangeChainClient(options: ExchangeChainClientOptions): ExchangeChainClient {
  const { transport } = options;
  if (typeof transport !== "object" || transport === null || typeof transport.call !== "function") {
    throw new TypeError("createExchangeChainClient: transport must be a Transport (see createTransport)");
  }
  const scheme = namingScheme(options.naming);
  const path = scheme.exchangeChainPath(options.chain ?? DEFAULT_EXCHANGE_CHAIN);
  const staticPath = scheme.exchangeStaticPath;
  const name = scheme.exchangeMethod;

  function call<T>(
    method: string,
    build: (args: Args) => JsonObject,
    read: (r: Reader) => T,
    options?: RequestOptions,
    at: string = path,
  ): Promise<T> {
    const full = name(method);
    // Arguments are checked inside the promise, so a bad argument rejects like a node error.
    return Promise.resolve().then(() => invoke(transport, at, full, build(new Args(full)), read, options));
  }

  const txIDChangeAddr = (r: Reader): TxIDChangeAddr => ({
    txID: r.get("txID").string(),
    changeAddr: r.get("changeAddr").string(),
  });
  const assetIDChangeAddr = (r: Reader): AssetIDChangeAddr => ({
    assetID: r.get("assetID").string(),
    changeAddr: r.get("changeAddr").string(),
  });
  const minterSets = (args: Args, value: unknown, field: string): JsonValue => {
    if (!Array.isArray(value)) return args.type(field, "an array of { minters, threshold }", value);
    return (value as unknown[]).map((set, i) => {
      args.object(set, `${field}[${i}]`);
      const { minters, threshold } = set as { minters?: unknown; threshold?: unknown };
      return {
        minters: args.stringArray(minters, `${field}[${i}].minters`),
        threshold: args.integer(threshold, `${field}[${i}].threshold`, 0, 0xffff_ffff),
      };
    });
  };
  const holders = (args: Args, value: unknown, field: string): JsonValue => {
    if (!Array.isArray(value)) return args.type(field, "an array of { address, amount }", value);
    return (value as unknown[]).map((holder, i) => {
      args.object(holder, `${field}[${i}]`);
      const { address, amount } = holder as { address?: unknown; amount?: unknown };
      return {
        amount: args.uint64(amount, `${field}[${i}].amount`),
        address: args.string(address, `${field}[${i}].address`),
      };
    });
  };
  const denomination = (args: Args, value: unknown) => args.optionalInteger(value, "denomination", 0, 255);
  const txStatus = (r: Reader): XvmTxStatus => r.get("status").oneOf(XVM_TX_STATUSES);

  function getUTXOs(parameters: GetUTXOsParameters, requestOptions?: RequestOptions): Promise<UTXOPage> {
    return Promise.resolve().then(() =>
      getUTXOPage(transport, path, name("getUTXOs"), parameters as UTXOQuery, false, requestOptions),
    );
  }

  function getAddressTxs(parameters: GetAddressTxsParameters, requestOptions?: RequestOptions): Promise<AddressTxsPage> {
    return call(
      "getAddressTxs",
      (args) =>
        compact({
          address: args.string(args.object(parameters).address, "address"),
          cursor: args.optionalUint64(parameters.cursor, "cursor"),
          assetID: args.string(parameters.assetID, "assetID"),
          pageSize: args.optionalInteger(parameters.pageSize, "pageSize", 1, Number.MAX_SAFE_INTEGER),
        }),
      (r) => ({ txIDs: r.get("txIDs").stringArray(), cursor: r.get("cursor").uint64() }),
      requestOptions,
    );
  }

  function getTxStatus(parameters: GetTxStatusParameters, requestOptions?: RequestOptions): Promise<XvmTxStatus> {
    return call(
      "getTxStatus",
      (args) => ({ txID: args.string(args.object(parameters).txID, "txID") }),
      txStatus,
      requestOptions,
    );
  }

  function getTx(
    parameters: GetTxParameters,
    requestOptions?: RequestOptions,
  ): Promise<GetTxResult<ByteEncoding> | GetTxResult<"json">> {
    return call(
      "getTx",
      (args) =>
        compact({
          txID: args.string(args.object(parameters).txID, "txID"),
          encoding: args.encoding(parameters.encoding, "encoding", ["cb58", "hex", "json"] as const),
        }),
      (r): GetTxResult<ByteEncoding> | GetTxResult<"json"> => {
        const requested = parameters.encoding;
        const encoding = r.maybe("encoding")?.encoding(["cb58", "hex", "json"] as const, requested ?? "cb58") ??
          requested ?? "cb58";
        if (encoding === "json") {
          const tx = r.get("tx");
          // Some nodes send the JSON form as a string holding the object.
          if (typeof tx.value === "string") {
            let parsed: JsonValue;
            try {
              parsed = parseJsonLossless(tx.value);
            } catch {
              return tx.fail("a transaction object (encoding json)");
            }
            return { tx: new Reader(tx.context, parsed, tx.where).object(), encoding };
          }
          return { tx: tx.object(), encoding };
        }
        return { tx: r.get("tx").string(), encoding };
      },
      requestOptions,
    );
  }

  return {
    naming: scheme.naming,
    path,
    staticPath,

    createAddress: (parameters, requestOptions) =>
      call("createAddress", (args) => args.credentials(args.object(parameters).credentials), (r) => r.get("address").string(), requestOptions),

    createFixedCapAsset: (parameters, requestOptions) =>
      call(
        "createFixedCapAsset",
        (args) =>
          compact({
            name: args.string(args.object(parameters).name, "name"),
            symbol: args.string(parameters.symbol, "symbol"),
            denomination: denomination(args, parameters.denomination),
            initialHolders: holders(args, parameters.initialHolders, "initialHolders"),
            ...args.spend(parameters),
            ...args.credentials(parameters.credentials),
          }),
        assetIDChangeAddr,
        requestOptions,
      ),

    createVariableCapAsset: (parameters, requestOptions) =>
      call(
        "createVariableCapAsset",
        (args) =>
          compact({
            name: args.string(args.object(parameters).name, "name"),
            symbol: args.string(parameters.symbol, "symbol"),
            denomination: denomination(args, parameters.denomination),
            minterSets: minterSets(args, parameters.minterSets, "minterSets"),
            ...args.spend(parameters),
            ...args.credentials(parameters.credentials),
          }),
        assetIDChangeAddr,
        requestOptions,
      ),

    createNFTAsset: (parameters, requestOptions) =>
      call(
        "createNFTAsset",
        (args) =>
          compact({
            name: args.string(args.object(parameters).name, "name"),
            symbol: args.string(parameters.symbol, "symbol"),
            minterSets: minterSets(args, parameters.minterSets, "minterSets"),
            ...args.spend(parameters),
            ...args.credentials(parameters.credentials),
          }),
        assetIDChangeAddr,
        requestOptions,
      ),

    mint: (parameters, requestOptions) =>
      call(
        "mint",
        (args) =>
          compact({
            amount: args.uint64(args.object(parameters).amount, "amount"),
            assetID: args.string(parameters.assetID, "assetID"),
            to: args.string(parameters.to, "to"),
            ...args.spend(parameters),
            ...args.credentials(parameters.credentials),
          }),
        txIDChangeAddr,
        requestOptions,
      ),

    mintNFT: (parameters, requestOptions) =>
      call(
        "mintNFT",
        (args) => {
          args.object(parameters);
          const payload = args.bytes(
            parameters.payload,
            "payload",
            args.encoding(parameters.encoding, "encoding", BYTE_ENCODINGS),
          );
          return compact({
            assetID: args.string(parameters.assetID, "assetID"),
            payload: payload.text,
            to: args.string(parameters.to, "to"),
            encoding: payload.encoding,
            ...args.spend(parameters),
            ...args.credentials(parameters.credentials),
          });
        },
        txIDChangeAddr,
        requestOptions,
      ),

    send: (parameters, requestOptions) =>
      call(
        "send",
        (args) =>
          compact({
            amount: args.uint64(args.object(parameters).amount, "amount"),
            assetID: args.string(parameters.assetID, "assetID"),
            to: args.string(parameters.to, "to"),
            memo: args.optionalString(parameters.memo, "memo"),
            ...args.spend(parameters),
            ...args.credentials(parameters.credentials),
          }),
        txIDChangeAddr,
        requestOptions,
      ),

    sendMultiple: (parameters, requestOptions) =>
      call(
        "sendMultiple",
        (args) => {
          const outputs = args.object(parameters).outputs;
          if (!Array.isArray(outputs)) args.type("outputs", "an array of { assetID, amount, to }", outputs);
          return compact({
            outputs: outputs.map((output, i) => {
              args.object(output, `outputs[${i}]`);
              return {
                assetID: args.string(output.assetID, `outputs[${i}].assetID`),
                amount: args.uint64(output.amount, `outputs[${i}].amount`),
                to: args.string(output.to, `outputs[${i}].to`),
              };
            }),
            memo: args.optionalString(parameters.memo, "memo"),
            ...args.spend(parameters),
            ...args.credentials(parameters.credentials),
          });
        },
        txIDChangeAddr,
        requestOptions,
      ),

    export: (parameters, requestOptions) =>
      call(
        "export",
        (args) =>
          compact({
            to: args.string(args.object(parameters).to, "to"),
            amount: args.uint64(parameters.amount, "amount"),
            assetID: args.string(parameters.assetID, "assetID"),
            ...args.spend(parameters),
            ...args.credentials(parameters.credentials),
          }),
        txIDChangeAddr,
        requestOptions,
      ),

    import: (parameters, requestOptions) =>
      call(
        "import",
        (args) => ({
          to: args.string(args.object(parameters).to, "to"),
          sourceChain: args.nonEmptyString(parameters.sourceChain, "sourceChain"),
          ...args.credentials(parameters.credentials),
        }),
        (r) => r.get("txID").string(),
        requestOptions,
      ),

    exportKey: (parameters, requestOptions) =>
      call(
        "exportKey",
        (args) => ({
          ...args.credentials(args.object(parameters).credentials),
          address: args.string(parameters.address, "address"),
        }),
        (r) => r.get("privateKey").string(),
        requestOptions,
      ),

    importKey: (parameters, requestOptions) =>
      call(
        "importKey",
        (args) => ({
          ...args.credentials(args.object(parameters).credentials),
          privateKey: args.string(parameters.privateKey, "privateKey"),
        }),
        (r) => r.get("address").string(),
        requestOptions,
      ),

    listAddresses: (parameters, requestOptions) =>
      call(
        "listAddresses",
        (args) => args.credentials(args.object(parameters).credentials),
        (r) => r.get("addresses").stringArray(),
        requestOptions,
      ),

    getAllBalances: (parameters, requestOptions) =>
      call(
        "getAllBalances",
        (args) =>
          compact({
            address: args.string(args.object(parameters).address, "address"),
            includePartial: args.optionalBoolean(parameters.includePartial, "includePartial"),
          }),
        (r) =>
          r
            .get("balances")
            .array()
            .map((entry) => ({ asset: entry.first("asset", "assetID").string(), balance: entry.get("balance").uint64() })),
        requestOptions,
      ),

    getBalance: (parameters, requestOptions) =>
      call(
        "getBalance",
        (args) =>
          compact({
            address: args.string(args.object(parameters).address, "address"),
            assetID: args.string(parameters.assetID, "assetID"),
            includePartial: args.optionalBoolean(parameters.includePartial, "includePartial"),
          }),
        (r) => ({
          balance: r.get("balance").uint64(),
          utxoIDs: (r.maybe("utxoIDs")?.array() ?? []).map((u) => ({
            txID: u.get("txID").string(),
            outputIndex: u.get("outputIndex").count(),
          })),
        }),
        requestOptions,
      ),

    getAssetDescription: (parameters = {}, requestOptions) =>
      call(
        "getAssetDescription",
        // Sent even when empty: "when empty the native asset is returned".
        (args) => ({ assetID: args.optionalString(args.object(parameters).assetID, "assetID") ?? "" }),
        (r) => ({
          assetID: r.first("assetID", "assetId").string(),
          name: r.get("name").string(),
          symbol: r.maybe("symbol")?.string() ?? "",
          denomination: r.get("denomination").count(),
        }),
        requestOptions,
      ),

    getAddressTxs,

    iterateAddressTxs(parameters, requestOptions) {
      return (async function* (): AsyncGenerator<string, void, undefined> {
        const pageSize = parameters.pageSize ?? 1024;
        const seen = new Set<string>();
        let cursor = parameters.cursor;
        for (;;) {
          const page = await getAddressTxs({ ...parameters, cursor }, requestOptions);
          for (const txID of page.txIDs) {
            if (seen.has(txID)) continue;
            seen.add(txID);
            yield txID;
          }
          if (page.txIDs.length === 0 || page.txIDs.length < pageSize || page.cursor === cursor) return;
          cursor = page.cursor;
        }
      })();
    },

    getTx: getTx as ExchangeChainClient["getTx"],

    getTxStatus,

    getUTXOs,

    iterateUTXOs(parameters, requestOptions) {
      return iterateUTXOPages((startIndex) => getUTXOs({ ...parameters, startIndex }, requestOptions), parameters);
    },

    issueTx: (parameters, requestOptions) =>
      call(
        "issueTx",
        (args) => {
          args.object(parameters);
          const tx = args.bytes(parameters.tx, "tx", args.encoding(parameters.encoding, "encoding", BYTE_ENCODINGS));
          return compact({ tx: tx.text, encoding: tx.encoding });
        },
        (r) => r.get("txID").string(),
        requestOptions,
      ),

    buildGenesis: (parameters, requestOptions) => {
      // The request's encoding applies to the memos and to the returned bytes.
      let encoding: ByteEncoding | undefined;
      return call(
        "buildGenesis",
        (args) => {
          const networkID = args.integer(args.object(parameters).networkID, "networkID", 0, 0xffff_ffff);
          const data = args.object(parameters.genesisData, "genesisData");
          encoding = args.encoding(parameters.encoding, "encoding", BYTE_ENCODINGS);
          if (encoding === undefined && Object.values(data).some((asset) => asset?.memo instanceof Uint8Array)) {
            encoding = "hex";
          }
          const genesisData: { [alias: string]: JsonValue } = {};
          for (const [alias, asset] of Object.entries(data)) {
            const at = `genesisData.${alias}`;
            args.object(asset, at);
            const state = args.object(asset.initialState, `${at}.initialState`) as Record<string, unknown>;
            const initialState: { [type: string]: JsonValue } = {};
            for (const [type, entries] of Object.entries(state)) {
              initialState[type] =
                type === "fixedCap"
                  ? holders(args, entries, `${at}.initialState.fixedCap`)
                  : minterSets(args, entries, `${at}.initialState.${type}`);
            }
            genesisData[alias] = compact({
              name: args.string(asset.name, `${at}.name`),
              symbol: args.string(asset.symbol, `${at}.symbol`),
              denomination: args.optionalInteger(asset.denomination, `${at}.denomination`, 0, 255),
              memo: asset.memo === undefined ? undefined : args.bytes(asset.memo, `${at}.memo`, encoding).text,
              initialState,
            });
          }
          return compact({ networkID, genesisData, encoding });
        },
        (r) => ({
          bytes: r.get("bytes").string(),
          encoding: r.maybe("encoding")?.encoding(BYTE_ENCODINGS, encoding ?? "cb58") ?? encoding ?? "cb58",
        }),
        requestOptions,
        staticPath,
      );
    },

    waitForTxStatus: async (txID, waitOptions) => {
      const method = name("getTxStatus");
      new Args(method).string(txID, "txID");
      await waitForStatus<XvmTxStatus, { status: XvmTxStatus }>({
        waiter: "waitForTxStatus",
        context: { method, path, url: transport.url + path },
        txID,
        poll: async () => ({ status: await getTxStatus({ txID }, { signal: waitOptions?.signal }) }),
        accepted: "Accepted",
        failed: ["Rejected"],
        options: waitOptions,
      });
      return "Accepted";
    },
  };
}
