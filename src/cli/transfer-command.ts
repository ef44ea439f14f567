import { parseArgs } from "node:util";
import { createNodeClient, NodeApiError, NodeConnectionError, type NodeClient } from "../clients";
import { contractToExchange, exchangeToContract } from "../flows/cross-chain";
import { isEvmAddress, parseChainAddress } from "../encoding";

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
  --naming <seed|reference>  API names: seed (xvm/cvm) or reference (avm/avax); default seed
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

/** Runs `nativekit x-to-c` / `c-to-x`; resolves to the exit code (0 ok, 1 failed, 2 usage). */
export async function runTransferCommand(direction: TransferDirection, argv: readonly string[], deps: TransferDeps): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        to: { type: "string" },
        amount: { type: "string" },
        asset: { type: "string" },
        owner: { type: "string" },
        url: { type: "string" },
        username: { type: "string" },
        password: { type: "string" },
        naming: { type: "string" },
        timeout: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    deps.stderr(`error: ${(error as Error).message}\n\n${TRANSFER_USAGE}`);
    return 2;
  }
  if (values.help === true) {
    deps.stdout(TRANSFER_USAGE);
    return 0;
  }
  const problems: string[] = [];
  const str = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : undefined);
  const to = str("to");
  const amountText = str("amount");
  const username = str("username") ?? deps.env.NATIVEKIT_USERNAME;
  const password = str("password") ?? deps.env.NATIVEKIT_PASSWORD;
  const naming = str("naming") ?? deps.env.NATIVEKIT_NAMING ?? "seed";
  const url = str("url") ?? deps.env.NATIVEKIT_URL ?? "http://127.0.0.1:9650";
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
  if (naming !== "seed" && naming !== "reference") problems.push(`--naming must be seed or reference, got "${naming}"`);
  if (!/^[0-9]+$/.test(timeoutText) || Number(timeoutText) === 0) problems.push(`--timeout must be a positive number of seconds, got "${timeoutText}"`);
  if (problems.length > 0) {
    deps.stderr(problems.map((p) => `error: ${p}`).join("\n") + `\n\n${TRANSFER_USAGE}`);
    return 2;
  }

  const client = deps.client ?? createNodeClient({ url, naming: naming as "seed" | "reference" });
  const credentials = { username: username!, password: password! };
  const ctx = { client, credentials, status: (line: string) => deps.stdout(`${line}\n`), timeoutMs: Number(timeoutText) * 1000 };
  const assetID = str("asset") ?? "AVAX";
  const amount = BigInt(amountText!);
  try {
    if (direction === "x-to-c") {
      const owner = str("owner") ?? (await client.xvm.listAddresses({ credentials }))[0];
      if (owner === undefined) throw new Error(`the user ${username} has no exchange-chain address: import a key with xvm.importKey first`);
      const result = await exchangeToContract(ctx, { owner, to: to!, amount, assetID });
      const balance = assetID === "AVAX" ? undefined : await client.cvm.getAssetBalance(to!, (await client.xvm.getAssetDescription({ assetID })).assetID);
      deps.stdout(`done: export ${result.exportTxID}, import ${result.importTxID}${balance === undefined ? "" : `; ${to} now holds ${balance} of ${assetID} on the contract chain`}\n`);
    } else {
      const result = await contractToExchange(ctx, { to: to!, amount, assetID });
      const { balance } = await client.xvm.getBalance({ address: to!, assetID });
      deps.stdout(`done: export ${result.exportTxID}, import ${result.importTxID}; ${to} now holds ${balance} of ${assetID} on the exchange chain\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof NodeApiError) deps.stderr(`error: ${error.method} failed: ${error.nodeMessage}\n`);
    else if (error instanceof NodeConnectionError) deps.stderr(`error: ${error.message}\n`);
    else deps.stderr(`error: ${(error as Error).message}\n`);
    return 1;
  }
}
