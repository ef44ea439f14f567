import type { Credentials, NodeClient } from "../clients";
import { formatAssetAmount } from "./amounts";
import { formatChainAddress, parseChainAddress } from "../encoding";

/**
 * Moving assets between the exchange chain and the contract chain, on the public clients:
 * an export on one chain, then the matching import on the other, each waited for. The same
 * functions run against the simulator and against a real node.
 */
export interface CrossChainContext {
  client: NodeClient;
  credentials: Credentials;
  /** Where progress goes, one line per status change; default: nowhere. */
  status?: (line: string) => void;
  /** How long to wait for each acceptance. Default 60 s. */
  timeoutMs?: number;
  /** Poll interval. Default 250 ms. */
  intervalMs?: number;
}

export interface CrossChainResult {
  exportTxID: string;
  importTxID: string;
}

function short(id: string): string {
  return id.length > 14 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id;
}

async function waitExchange(ctx: CrossChainContext, what: string, txID: string): Promise<void> {
  let last = "";
  await ctx.client.xvm.waitForTxStatus(txID, {
    timeoutMs: ctx.timeoutMs,
    intervalMs: ctx.intervalMs ?? 250,
    onStatus: (status) => {
      if (status !== last) ctx.status?.(`  ${what} ${short(txID)}: ${status}`);
      last = status;
    },
  });
}

async function waitContract(ctx: CrossChainContext, what: string, txID: string): Promise<bigint | undefined> {
  let last = "";
  const result = await ctx.client.cvm.waitForAtomicTxStatus(txID, {
    timeoutMs: ctx.timeoutMs,
    intervalMs: ctx.intervalMs ?? 250,
    onStatus: (status) => {
      if (status !== last) ctx.status?.(`  ${what} ${short(txID)}: ${status}`);
      last = status;
    },
  });
  return result.blockHeight;
}

/** Native coin sent along with another asset to pay the contract chain's import fee (0.01 coin). */
export const DEFAULT_IMPORT_FEE_TOP_UP = 10_000_000n;

/**
 * Exchange chain -> contract chain. The export names the `C-` form of `owner` (the exchange
 * address whose key will own the atomic UTXO); the import credits `to`, a 0x address, with
 * every atomic UTXO the user's keys own. The import fee is paid in the native coin from the
 * imported UTXOs, so an asset other than the native coin travels with `feeTopUp` of native
 * coin (its remainder is credited to `to` as well).
 */
export async function exchangeToContract(
  ctx: CrossChainContext,
  args: { owner: string; to: string; amount: bigint; assetID: string; feeTopUp?: bigint },
): Promise<CrossChainResult & { feeExportTxID?: string }> {
  const { hrp, shortId } = parseChainAddress(args.owner);
  const exportTo = formatChainAddress(shortId, hrp, "C");
  const native = await ctx.client.xvm.getAssetDescription({ assetID: "" });
  const asset = await ctx.client.xvm.getAssetDescription({ assetID: args.assetID });
  let feeExportTxID: string | undefined;
  if (asset.assetID !== native.assetID) {
    const topUp = args.feeTopUp ?? DEFAULT_IMPORT_FEE_TOP_UP;
    ctx.status?.(`export ${formatAssetAmount(topUp, native.denomination, native.symbol)} alongside, for the contract chain's import fee`);
    feeExportTxID = (await ctx.client.xvm.export({ credentials: ctx.credentials, to: exportTo, amount: topUp, assetID: native.assetID })).txID;
    await waitExchange(ctx, "xvm.export", feeExportTxID);
  }
  ctx.status?.(`export ${formatAssetAmount(args.amount, asset.denomination, asset.symbol || asset.assetID)} from the exchange chain to ${exportTo}`);
  const exported = await ctx.client.xvm.export({ credentials: ctx.credentials, to: exportTo, amount: args.amount, assetID: asset.assetID });
  await waitExchange(ctx, "xvm.export", exported.txID);
  ctx.status?.(`import on the contract chain to ${args.to}`);
  const importTxID = await ctx.client.cvm.import({ credentials: ctx.credentials, to: args.to, sourceChain: "X" });
  const height = await waitContract(ctx, "cvm.import", importTxID);
  if (height !== undefined) ctx.status?.(`  accepted in contract-chain block ${height}`);
  return { exportTxID: exported.txID, importTxID, ...(feeExportTxID === undefined ? {} : { feeExportTxID }) };
}

/**
 * Contract chain -> exchange chain. The export spends from the user's contract-chain keys and
 * names `to`, an `X-` address; the import on the exchange chain names the same address.
 */
export async function contractToExchange(
  ctx: CrossChainContext,
  args: { to: string; amount: bigint; assetID: string; baseFee?: bigint },
): Promise<CrossChainResult> {
  const asset = await ctx.client.xvm.getAssetDescription({ assetID: args.assetID });
  ctx.status?.(`export ${formatAssetAmount(args.amount, asset.denomination, asset.symbol || asset.assetID)} from the contract chain to ${args.to}`);
  const exportTxID = await ctx.client.cvm.export({ credentials: ctx.credentials, to: args.to, amount: args.amount, assetID: args.assetID, ...(args.baseFee === undefined ? {} : { baseFee: args.baseFee }) });
  const height = await waitContract(ctx, "cvm.export", exportTxID);
  if (height !== undefined) ctx.status?.(`  accepted in contract-chain block ${height}`);
  ctx.status?.(`import on the exchange chain to ${args.to}`);
  const imported = await ctx.client.xvm.import({ credentials: ctx.credentials, to: args.to, sourceChain: "C" });
  await waitExchange(ctx, "xvm.import", imported);
  return { exportTxID, importTxID: imported };
}
