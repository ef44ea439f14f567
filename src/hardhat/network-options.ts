/**
 * The engine options of the plugin's network, from its resolved config: loaded with the engine
 * (by the provider and the nativekit:node task), since resolving the funded accounts needs the
 * curve code that a Hardhat command on another network never uses.
 */
import type { EngineOptions, InitialAssetBalance } from "../engine";
import { fundedAccounts, unlockedAccount } from "../engine/accounts";
import type { NativekitConfig } from "./config";

/** Turns account indices in assetBalances into addresses, once the accounts are known. */
export function engineOptions(config: NativekitConfig, accountAddresses: string[], log: (line: string) => void): EngineOptions {
  const assetBalances: InitialAssetBalance[] = config.engine.assetBalances.map((b, i) => {
    const address = typeof b.account === "number" ? accountAddresses[b.account] : b.account;
    if (address === undefined) {
      throw new Error(`nativekit config: assetBalances[${i}].account is index ${b.account}, but there are only ${accountAddresses.length} accounts`);
    }
    return { address, assetId: b.assetId, amount: b.amount };
  });
  return { ...config.engine, assetBalances, log };
}

/**
 * The engine options of the plugin's network (in process, or served by nativekit:node): the
 * funded accounts resolved once and handed to the engine as keys, and account indices in
 * assetBalances turned into those accounts' addresses.
 */
export function networkEngineOptions(config: NativekitConfig, log: (line: string) => void): EngineOptions {
  const accounts = fundedAccounts(config.engine.accounts);
  const options = engineOptions(config, accounts.map((a) => unlockedAccount(a.privateKey).addressHex), log);
  // Failures are replayed for the instructions Solidity stack traces need (nothing else is).
  // Calls run with the gas they ask for, as on Hardhat's network (a node caps them: rpcGasCap).
  return { ...options, accounts, traceFailures: true, rpcGasCap: 0n, rpcEvmTimeoutMs: 0 };
}
