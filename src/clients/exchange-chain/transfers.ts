/** The exchange chain's transfers: `send`, `sendMultiple`, and `export` / `import` between chains. */
import type { Endpoint } from "../call";
import { readTxIDChangeAddr } from "../chain-methods";
import { compact } from "../json";
import type { Credentials, RequestOptions, SpendOptions, TxIDChangeAddr } from "../types";

export interface SendParameters extends SpendOptions {
  readonly credentials: Credentials;
  /** In the asset's smallest unit (for the native asset, one billionth). */
  readonly amount: bigint;
  /** ID or alias. */
  readonly assetID: string;
  readonly to: string;
  /** At most 256 bytes. */
  readonly memo?: string;
}

export interface SendOutput {
  readonly assetID: string;
  readonly amount: bigint;
  readonly to: string;
}

export interface SendMultipleParameters extends SpendOptions {
  readonly credentials: Credentials;
  readonly outputs: readonly SendOutput[];
  readonly memo?: string;
}

export interface ExportParameters extends SpendOptions {
  readonly credentials: Credentials;
  /** Address on the destination chain, e.g. `C-local1…` (or `P-…`). */
  readonly to: string;
  readonly amount: bigint;
  /** ID, or the native asset's alias. */
  readonly assetID: string;
}

export interface ImportParameters {
  readonly credentials: Credentials;
  /** Must equal the `to` of the matching export. */
  readonly to: string;
  /** ID or alias of the chain the funds come from, e.g. `C` or `P`. */
  readonly sourceChain: string;
}

export function send(chain: Endpoint, parameters: SendParameters, options?: RequestOptions): Promise<TxIDChangeAddr> {
  return chain.call(
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
    readTxIDChangeAddr,
    options,
  );
}

export function sendMultiple(
  chain: Endpoint,
  parameters: SendMultipleParameters,
  options?: RequestOptions,
): Promise<TxIDChangeAddr> {
  return chain.call(
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
    readTxIDChangeAddr,
    options,
  );
}

/** `export`: first step of a transfer to another chain; complete it with that chain's import. */
export function exportToChain(chain: Endpoint, parameters: ExportParameters, options?: RequestOptions): Promise<TxIDChangeAddr> {
  return chain.call(
    "export",
    (args) =>
      compact({
        to: args.string(args.object(parameters).to, "to"),
        amount: args.uint64(parameters.amount, "amount"),
        assetID: args.string(parameters.assetID, "assetID"),
        ...args.spend(parameters),
        ...args.credentials(parameters.credentials),
      }),
    readTxIDChangeAddr,
    options,
  );
}

/** `import`: completes a transfer from another chain; returns the txID. */
export function importFromChain(chain: Endpoint, parameters: ImportParameters, options?: RequestOptions): Promise<string> {
  return chain.call(
    "import",
    (args) => ({
      to: args.string(args.object(parameters).to, "to"),
      sourceChain: args.nonEmptyString(parameters.sourceChain, "sourceChain"),
      ...args.credentials(parameters.credentials),
    }),
    (r) => r.get("txID").string(),
    options,
  );
}
