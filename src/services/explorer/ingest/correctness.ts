/**
 * Checks the explorer's tables against the node (issue 14 §4): every balance derived from the
 * stored outputs equals the node's (`xvm.getBalance` per address and asset on the exchange
 * chain, `platform.getBalance` on the platform chain), the unspent outputs stored for an address
 * are exactly the node's UTXO set of it (exchange and platform chains, and the atomic UTXOs
 * waiting in the contract chain's shared memory), and every stored contract-chain block is the
 * node's `eth_getBlockByNumber` (hash, parent, roots, gas, transactions).
 *
 * Answers the mismatches found, one line each, so a test can show them all at once.
 */
import { createExchangeChainClient, createPlatformChainClient, createContractChainClient, decodeNodeBytes } from "../../../clients";
import { encodeCb58 } from "../../../encoding";
import { decodeUtxo, utxoId } from "../../../utxo/codec";
import type { SqlDatabase } from "../../sql/database";
import type { ExplorerContext } from "../context";
import type { NodeSource } from "./node-source";

export interface CorrectnessReport {
  /** How much was compared. */
  checked: { balances: number; addresses: number; utxos: number; cBlocks: number };
  mismatches: string[];
  /**
   * Outputs exported to the contract chain that the node's shared memory no longer holds while
   * no import of them was indexed: the node's contract-chain blocks did not show their atomic
   * transactions (no extData in the block, no blockExtraData in eth_getBlockByNumber).
   */
  unseenImports: string[];
}

export async function checkExplorerAgainstNode(database: SqlDatabase, node: NodeSource, context: ExplorerContext): Promise<CorrectnessReport> {
  const report: CorrectnessReport = { checked: { balances: 0, addresses: 0, utxos: 0, cBlocks: 0 }, mismatches: [], unseenImports: [] };
  const xvm = createExchangeChainClient({ transport: node.transport });
  const platform = createPlatformChainClient({ transport: node.transport });
  const cvm = createContractChainClient({ transport: node.transport });
  const utxoIdOf = (hex: string) => encodeCb58(((u) => utxoId(u.txId, u.outputIndex))(decodeUtxo(decodeNodeBytes(hex, "hex"))));

  const addressesOn = async (chainId: string) =>
    (await database.query("SELECT address FROM address_chain WHERE chain_id = $1 ORDER BY address", [chainId])).map((r) => String(r.address));
  const unspentOf = async (address: string, chainId: string) =>
    new Set(
      (
        await database.query(
          `SELECT o.id FROM outputs o JOIN output_addresses a ON a.output_id = o.id
            WHERE a.address = $1 AND o.chain_id = $2 AND o.redeeming_transaction_id IS NULL`,
          [address, chainId],
        )
      ).map((r) => String(r.id)),
    );
  const compareSets = (what: string, stored: Set<string>, onNode: Set<string>, gone: string[] = report.mismatches) => {
    report.checked.utxos += onNode.size;
    for (const id of onNode) if (!stored.has(id)) report.mismatches.push(`${what}: the node's UTXO ${id} is not an unspent output in the explorer`);
    for (const id of stored) if (!onNode.has(id)) gone.push(gone === report.mismatches ? `${what}: the explorer's unspent output ${id} is not in the node's UTXO set` : id);
  };
  // Balances the node counts: unspent transfer outputs this address alone owns.
  const storedBalances = async (address: string, chainId: string) =>
    new Map(
      (
        await database.query(
          `SELECT o.asset_id, sum(o.amount)::text AS balance FROM outputs o
            WHERE o.chain_id = $2 AND o.redeeming_transaction_id IS NULL AND o.output_type = 7
              AND (SELECT array_agg(address) FROM output_addresses WHERE output_id = o.id) = ARRAY[$1::text]
            GROUP BY o.asset_id`,
          [address, chainId],
        )
      ).map((r) => [String(r.asset_id), BigInt(String(r.balance))]),
    );

  for (const address of await addressesOn(context.chains.X)) {
    report.checked.addresses++;
    const onNode = new Set<string>();
    for await (const utxo of xvm.iterateUTXOs({ addresses: [`X-${address}`], encoding: "hex" })) onNode.add(utxoIdOf(utxo));
    compareSets(`X-${address}`, await unspentOf(address, context.chains.X), onNode);
    const balances = await storedBalances(address, context.chains.X);
    const assets = (await database.query("SELECT DISTINCT o.asset_id FROM outputs o JOIN output_addresses a ON a.output_id = o.id WHERE a.address = $1 AND o.chain_id = $2", [address, context.chains.X])).map((r) => String(r.asset_id));
    for (const asset of assets) {
      report.checked.balances++;
      const { balance } = await xvm.getBalance({ address: `X-${address}`, assetID: asset });
      const stored = balances.get(asset) ?? 0n;
      if (balance !== stored) report.mismatches.push(`X-${address} ${asset}: the node's balance ${balance}, the explorer's ${stored}`);
    }
  }

  for (const address of await addressesOn(context.chains.P)) {
    report.checked.addresses++;
    const onNode = new Set<string>();
    for await (const utxo of platform.iterateUTXOs({ addresses: [`P-${address}`], encoding: "hex" })) onNode.add(utxoIdOf(utxo));
    compareSets(`P-${address}`, await unspentOf(address, context.chains.P), onNode);
    report.checked.balances++;
    const { balance } = await platform.getBalance({ addresses: [`P-${address}`] });
    const stored = (await storedBalances(address, context.chains.P)).get(context.nativeAssetId) ?? 0n;
    if (balance !== stored) report.mismatches.push(`P-${address}: the node's balance ${balance}, the explorer's ${stored}`);
  }

  // Atomic UTXOs exported to the contract chain and not imported yet.
  for (const address of await addressesOn(context.chains.C)) {
    report.checked.addresses++;
    const onNode = new Set<string>();
    for (const source of ["X", "P"] as const) {
      for await (const utxo of cvm.iterateUTXOs({ addresses: [`C-${address}`], sourceChain: source, encoding: "hex" })) onNode.add(utxoIdOf(utxo));
    }
    compareSets(`C-${address} (shared memory)`, await unspentOf(address, context.chains.C), onNode, report.unseenImports);
  }

  await checkContractBlocks(database, node, report);
  return report;
}

/** Compares every stored contract-chain block with the node's `eth_getBlockByNumber`, adding its mismatches to `report`. */
async function checkContractBlocks(database: SqlDatabase, node: NodeSource, report: CorrectnessReport): Promise<void> {
  const blocks = await database.query("SELECT number::text AS number, hash, parent_hash, state_root, receipts_root, gas_used::text AS gas_used, timestamp::text AS timestamp FROM c_blocks ORDER BY number");
  for (const row of blocks) {
    report.checked.cBlocks++;
    const number = BigInt(String(row.number));
    const block = await node.contractBlock(number);
    if (block === null) {
      report.mismatches.push(`C block ${number}: the node has none`);
      continue;
    }
    const expect = (field: string, stored: string, onNode: unknown) => {
      if (String(onNode).toLowerCase() !== stored) report.mismatches.push(`C block ${number} ${field}: the node's ${String(onNode)}, the explorer's ${stored}`);
    };
    expect("hash", String(row.hash), block.hash);
    expect("parentHash", String(row.parent_hash), block.parentHash);
    expect("stateRoot", String(row.state_root), block.stateRoot);
    expect("receiptsRoot", String(row.receipts_root), block.receiptsRoot);
    expect("gasUsed", String(row.gas_used), typeof block.gasUsed === "string" ? BigInt(block.gasUsed).toString() : block.gasUsed);
    expect("timestamp", String(row.timestamp), typeof block.timestamp === "string" ? BigInt(block.timestamp).toString() : block.timestamp);
    const hashes = (await database.query("SELECT hash FROM c_transactions WHERE block_number = $1 ORDER BY transaction_index", [number.toString()])).map((r) => String(r.hash));
    const nodeHashes = (Array.isArray(block.transactions) ? block.transactions : []).map((t) => (typeof t === "object" && t !== null && !Array.isArray(t) ? String(t.hash).toLowerCase() : ""));
    expect("transactions", hashes.join(","), nodeHashes.join(","));
  }
}
