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
import { checkTransport, Endpoint } from "./call";
import { exportKey, importKey, issueTx } from "./chain-methods";
import { type Args, Reader } from "./internal";
import { compact, type JsonValue, parseJsonLossless } from "./json";
import { DEFAULT_EXCHANGE_CHAIN, namingScheme } from "./naming";
import type { RequestOptions, TxIDChangeAddr } from "./types";
import { utxoPaging } from "./utxos";
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
  const transport = checkTransport("createExchangeChainClient", options.transport);
  const scheme = namingScheme(options.naming);
  const namespace = scheme.exchangeNamespace;
  const chain = new Endpoint(transport, scheme.exchangeChainPath(options.chain ?? DEFAULT_EXCHANGE_CHAIN), namespace);
  /** The static API: `buildGenesis`, which needs no chain. */
  const genesis = new Endpoint(transport, scheme.exchangeStaticPath, namespace);
  const utxos = utxoPaging<GetUTXOsParameters>(chain, false);

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

  function getAddressTxs(parameters: GetAddressTxsParameters, requestOptions?: RequestOptions): Promise<AddressTxsPage> {
    return chain.call(
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
    return chain.call(
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
    return chain.call(
      "getTx",
      (args) =>
        compact({
          txID: args.string(args.object(parameters).txID, "txID"),
          encoding: args.encoding(parameters.encoding, "encoding", ["cb58", "hex", "json"] as const),
        }),
      (r): GetTxResult<ByteEncoding> | GetTxResult<"json"> => {
        const encoding = r.encodingMember(["cb58", "hex", "json"] as const, parameters.encoding ?? "cb58");
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
    path: chain.path,
    staticPath: genesis.path,

    createAddress: (parameters, requestOptions) =>
      chain.call("createAddress", (args) => args.credentials(args.object(parameters).credentials), (r) => r.get("address").string(), requestOptions),

    createFixedCapAsset: (parameters, requestOptions) =>
      chain.call(
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
      chain.call(
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
      chain.call(
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
      chain.call(
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
      chain.call(
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
      chain.call(
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
      chain.call(
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
      chain.call(
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
      chain.call(
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
      exportKey(chain, parameters, (r) => r.get("privateKey").string(), requestOptions),

    importKey: (parameters, requestOptions) => importKey(chain, parameters, requestOptions),

    listAddresses: (parameters, requestOptions) =>
      chain.call(
        "listAddresses",
        (args) => args.credentials(args.object(parameters).credentials),
        (r) => r.get("addresses").stringArray(),
        requestOptions,
      ),

    getAllBalances: (parameters, requestOptions) =>
      chain.call(
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
      chain.call(
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
      chain.call(
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

    getUTXOs: utxos.getUTXOs,

    iterateUTXOs: utxos.iterateUTXOs,

    issueTx: (parameters, requestOptions) => issueTx(chain, parameters, requestOptions),

    buildGenesis: (parameters, requestOptions) => {
      // The request's encoding applies to the memos and to the returned bytes.
      let encoding: ByteEncoding | undefined;
      return genesis.call(
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
          encoding: r.encodingMember(BYTE_ENCODINGS, encoding ?? "cb58"),
        }),
        requestOptions,
      );
    },

    waitForTxStatus: async (txID, waitOptions) => {
      await chain.waitForStatus<XvmTxStatus, { status: XvmTxStatus }>({
        waiter: "waitForTxStatus",
        statusMethod: "getTxStatus",
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
