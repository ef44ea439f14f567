/**
 * The lines `nativekit node` prints about the multisig aliases its genesis file declares: each
 * alias's address (which Camino computes from its owners, threshold and memo, so a person cannot
 * guess it), its threshold and owners, so they can be used without first writing a wrong one.
 */
import type { GenesisAliasListing } from "../node/genesis-file";

/** The banner's lines for the genesis aliases (none when there are none). */
export function describeGenesisAliases(aliases: readonly GenesisAliasListing[]): string[] {
  if (aliases.length === 0) return [];
  const lines = ["Genesis multisig aliases (platform chain, from --genesis-file):"];
  for (const alias of aliases) {
    const memo = alias.memo === "" ? "" : `, memo ${JSON.stringify(alias.memo)}`;
    lines.push(`  ${alias.address}   ${alias.threshold} of ${alias.owners.length}${memo}`);
    for (const owner of alias.owners) lines.push(`    owner ${owner}`);
  }
  lines.push("  read one with platform.getMultisigAlias {address} at /ext/bc/P");
  return lines;
}
