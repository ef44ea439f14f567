import { createNodeClient, NodeApiError, NodeConnectionError, type NodeClient } from "../clients";
import { contractToExchange, exchangeToContract } from "../flows/cross-chain";
import { isEvmAddress, parseChainAddress } from "../encoding";
import { parseCommandArgs } from "./command-args";
import { ExitCode } from "./exit-code";

export type TransferDirection = "x-to-c" | "c-to-x";

export const TRANSFER_USAGE = `Usage: nativekit x-to-c --to <0x address> --amount <n> [options]
       nativekit c-to-x --to <X-address> --amount <n> [options]

Moves an asset between the chains: an export on one chain, then the import on the other,
waiting for each to be accepted. Works against the simulator and against a real node.

Options:
  --to <address>       x-to-c: the 0x address to credit; c-to-x: the X- address to credit
  --amount <n>         amount in the asset's smallest unit (for the native coin: 1 = 10^-9 coin)
  --asset <id|alias>   asset ID (cb58) or alias (default AVAX, the native coin)
  --owner <X-address>  x-to-c: the exchange address whose key owns the atomic UTXO
                       (default: the user's first address)
  --url <url>          node base URL (default $NATIVEKIT_URL or http://127.0.0.1:9650)
  --username <name>    keystore user (default $NATIVEKIT_USERNAME)
  --password <pw>      keystore password (default $NATIVEKIT_PASSWORD; prefer the variable)
  --naming <nativekit|reference>  API names: nativekit (xvm/cvm) or reference (avm/avax); default nativekit
  --timeout <seconds>  how long to wait for each acceptance (default 60)
  --help, -h           Show this help
`;

export interface TransferDeps {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
  /** For tests: a ready client instead of one built from --url. */
  client?: NodeClient;
}

/** What a transfer moves, where, and with whose keystore user: the checked command line. */
interface TransferRequest {
  to: string;
  amount: bigint;
  assetID: string;
  owner: string | undefined;
  url: string;
  username: string;
  password: string;
  naming: "nativekit" | "reference";
  timeoutMs: number;
}

/** Runs `nativekit x-to-c` / `c-to-x`; resolves to the exit code (Ok, Failure when the transfer failed, Usage). */
export async function runTransferCommand(direction: TransferDirection, argv: readonly string[], deps: TransferDeps): Promise<ExitCode> {
  const parsed = parseCommandArgs(
    argv,
    {
      to: { type: "string" },
      amount: { type: "string" },
      asset: { type: "string" },
      owner: { type: "string" },
      url: { type: "string" },
      username: { type: "string" },
      password: { type: "string" },
      naming: { type: "string" },
      timeout: { type: "string" },
    },
    TRANSFER_USAGE,
    deps,
  );
  if ("exit" in parsed) return parsed.exit;
  const checked = transferRequest(direction, parsed.values, deps.env);
  if (Array.isArray(checked)) {
    deps.stderr(checked.map((p) => `error: ${p}`).join("\n") + `\n\n${TRANSFER_USAGE}`);
    return ExitCode.Usage;
  }
  const client = deps.client ?? createNodeClient({ url: checked.url, naming: checked.naming });
  try {
    await transfer(direction, checked, client, deps.stdout);
    return ExitCode.Ok;
  } catch (error) {
    if (error instanceof NodeApiError) deps.stderr(`error: ${error.method} failed: ${error.nodeMessage}\n`);
    else if (error instanceof NodeConnectionError) deps.stderr(`error: ${error.message}\n`);
    else deps.stderr(`error: ${(error as Error).message}\n`);
    return ExitCode.Failure;
  }
}

/** The flags (and their environment variables) as a request, or every problem found in them. */
function transferRequest(direction: TransferDirection, values: Record<string, string | boolean | undefined>, env: Record<string, string | undefined>): TransferRequest | string[] {
  const problems: string[] = [];
  const str = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : undefined);
  const to = str("to");
  const amountText = str("amount");
  const username = str("username") ?? env.NATIVEKIT_USERNAME;
  const password = str("password") ?? env.NATIVEKIT_PASSWORD;
  // "seed" is the deprecated spelling of "nativekit", still accepted.
  const given = str("naming") ?? env.NATIVEKIT_NAMING ?? "nativekit";
  const naming = given === "seed" ? "nativekit" : given;
  const url = str("url") ?? env.NATIVEKIT_URL ?? "http://127.0.0.1:9650";
  const timeoutText = str("timeout") ?? "60";
  if (to === undefined) problems.push("--to is required");
  else if (direction === "x-to-c" && !isEvmAddress(to)) problems.push(`--to must be a 0x address on the contract chain, got "${to}"`);
  else if (direction === "c-to-x") {
    try {
      if (parseChainAddress(to).chainAlias !== "X") problems.push(`--to must be an X- address, got "${to}"`);
    } catch (error) {
      problems.push(`--to: ${(error as Error).message}`);
    }
  }
  if (amountText === undefined) problems.push("--amount is required");
  else if (!/^[0-9]+$/.test(amountText) || BigInt(amountText) === 0n) problems.push(`--amount must be a positive whole number of the smallest unit, got "${amountText}"`);
  if (username === undefined) problems.push("--username (or NATIVEKIT_USERNAME) is required");
  if (password === undefined) problems.push("--password (or NATIVEKIT_PASSWORD) is required");
  if (naming !== "nativekit" && naming !== "reference") problems.push(`--naming must be nativekit or reference, got "${given}"`);
  if (!/^[0-9]+$/.test(timeoutText) || Number(timeoutText) === 0) problems.push(`--timeout must be a positive number of seconds, got "${timeoutText}"`);
  if (problems.length > 0) return problems;
  const request = { to: to!, amount: BigInt(amountText!), assetID: str("asset") ?? "AVAX", owner: str("owner"), url, username: username!, password: password! };
  return { ...request, naming: naming as "nativekit" | "reference", timeoutMs: Number(timeoutText) * 1000 };
}

/** The export and the import, with the line saying what the receiver now holds. */
async function transfer(direction: TransferDirection, request: TransferRequest, client: NodeClient, stdout: (text: string) => void): Promise<void> {
  const { to, amount, assetID, username } = request;
  const credentials = { username, password: request.password };
  const ctx = { client, credentials, status: (line: string) => stdout(`${line}\n`), timeoutMs: request.timeoutMs };
  if (direction === "x-to-c") {
    const owner = request.owner ?? (await client.xvm.listAddresses({ credentials }))[0];
    if (owner === undefined) throw new Error(`the user ${username} has no exchange-chain address: import a key with xvm.importKey first`);
    const result = await exchangeToContract(ctx, { owner, to, amount, assetID });
    const balance = assetID === "AVAX" ? undefined : await client.cvm.getAssetBalance(to, (await client.xvm.getAssetDescription({ assetID })).assetID);
    stdout(`done: export ${result.exportTxID}, import ${result.importTxID}${balance === undefined ? "" : `; ${to} now holds ${balance} of ${assetID} on the contract chain`}\n`);
  } else {
    const result = await contractToExchange(ctx, { to, amount, assetID });
    const { balance } = await client.xvm.getBalance({ address: to, assetID });
    stdout(`done: export ${result.exportTxID}, import ${result.importTxID}; ${to} now holds ${balance} of ${assetID} on the exchange chain\n`);
  }
}
