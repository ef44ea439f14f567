/** The text `nativekit node` prints once the node listens: endpoints, accounts, warnings and next steps. */
import type { CliNode } from "./cli";

const MAIN_PATH = "/ext/bc/C/rpc";

/** Where the node listens, as the banner needs it. */
interface Listening {
  readonly url: string;
  readonly host: string;
}

export function nodeBanner(server: Listening, node: CliNode): string {
  const paths = Object.keys(node.routes);
  const mainPath = paths.find((p) => p.replace(/\/+$/, "") === MAIN_PATH) ?? paths[0] ?? "/";
  const mainUrl = `${server.url}${mainPath}`;
  const lines: string[] = [];

  lines.push(`nativekit node listening on ${mainUrl} (chain id ${node.chainId})`);
  if (paths.length > 1) {
    lines.push("", "Endpoints:");
    for (const p of paths) lines.push(`  ${server.url}${p}`);
    for (const p of Object.keys(node.wsRoutes ?? {})) lines.push(`  ${server.url.replace(/^http/, "ws")}${p}`);
  }
  if (server.host === "0.0.0.0" || server.host === "::") {
    lines.push("", `WARNING: listening on all interfaces (${server.host}); anyone on your network can use these accounts.`);
  }
  lines.push(...accountLines(node));
  if (node.notes !== undefined && node.notes.length > 0) lines.push("", ...node.notes);
  lines.push("");
  lines.push(`Connect a wallet or ethers.JsonRpcProvider to ${mainUrl} (chain id ${node.chainId}).`);
  lines.push("Stop with Ctrl+C.", "");
  return `${lines.join("\n")}\n`;
}

/** The funded accounts with their keys, between the warnings that they are public (none without accounts). */
function accountLines(node: CliNode): string[] {
  if (node.accounts.length === 0) return [];
  const symbol = node.coinSymbol ?? "coin";
  const warning = ["WARNING: These accounts and their private keys are publicly known test keys.", "Any funds sent to them on a real network WILL BE LOST."];
  const lines = ["", "Accounts", "========", "", ...warning, ""];
  node.accounts.forEach((account, i) => {
    lines.push(`Account #${i}: ${account.address} (${formatCoin(account.balanceWei)} ${symbol})`);
    lines.push(`Private Key: ${account.privateKey}`, "");
  });
  return [...lines, ...warning];
}

/** Formats a wei amount in coin units (18 decimals), without trailing zeros: 1.5, 50000000. */
export function formatCoin(wei: bigint): string {
  const negative = wei < 0n;
  const abs = negative ? -wei : wei;
  const unit = 10n ** 18n;
  const whole = abs / unit;
  const fraction = (abs % unit).toString().padStart(18, "0").replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction === "" ? "" : `.${fraction}`}`;
}
