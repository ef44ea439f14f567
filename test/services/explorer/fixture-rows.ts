/**
 * TABLE FIXTURES for the explorer's reader and API tests: realistic rows written straight into
 * the explorer's tables (as the ingest would), so the reader can be tested before and apart from
 * the ingest. IDs are real encodings: cb58 of sha256 of a name for transactions, assets, chains
 * and outputs; addresses derived from real secp256k1 keys (bech32 of ripemd160(sha256(pubkey)),
 * and keccak for the contract chain); contract-chain hashes are 0x sha256 of a name.
 *
 * The fixture is declarative (`FIXTURE_TRANSACTIONS`, `FIXTURE_C_BLOCKS`): tests compute what
 * they expect from these declarations with bigint arithmetic, independently of the SQL.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, encodeCb58, evmAddressFromPublicKey, formatBech32Address, shortIdFromPublicKey } from "../../../src/encoding";
import type { ExplorerContext } from "../../../src/services/explorer/context";
import type { SqlQueries } from "../../../src/services/sql/database";

export const cb58Of = (name: string): string => encodeCb58(sha256(new TextEncoder().encode(name)));
export const hashOf = (name: string): string => bytesToHex(sha256(new TextEncoder().encode(name)));

export const FIXTURE_CONTEXT: ExplorerContext = {
  networkId: 12345,
  hrp: "local",
  nativeAssetId: cb58Of("asset:native"),
  chains: { X: cb58Of("chain:X"), P: cb58Of("chain:P"), C: cb58Of("chain:C") },
};

export interface Person {
  name: string;
  privateKey: Uint8Array;
  publicKey: string;
  shortId: Uint8Array;
  /** bech32 without chain prefix, as the tables hold it. */
  address: string;
  evm: string;
}

function person(name: string): Person {
  const privateKey = sha256(new TextEncoder().encode(`key:${name}`));
  const publicKey = secp256k1.getPublicKey(privateKey, true);
  const shortId = shortIdFromPublicKey(publicKey);
  return {
    name,
    privateKey,
    publicKey: bytesToHex(publicKey).replace(/^0x/, ""),
    shortId,
    address: formatBech32Address(shortId, FIXTURE_CONTEXT.hrp),
    evm: evmAddressFromPublicKey(publicKey).toLowerCase(),
  };
}

export const ALICE = person("alice");
export const BOB = person("bob");
export const CAROL = person("carol");
/** Only ever receives: the reference answered null for such addresses. */
export const DAVE = person("dave");

export const NATIVE = FIXTURE_CONTEXT.nativeAssetId;
export const TOKEN = cb58Of("asset:token");
/** 2024-01-01T00:00:00Z. */
export const T0 = Date.UTC(2024, 0, 1);
export const MINUTE = 60_000;
export const DAY = 86_400_000;

export interface FixtureOutput {
  id: string;
  transactionId: string;
  index: number;
  chain: "X" | "P";
  asset: string;
  amount: bigint;
  owners: Person[];
  outputType: number;
  at: number;
  redeemedBy?: string;
}

export interface FixtureTransaction {
  id: string;
  chain: "X" | "P";
  type: string;
  at: number;
  fee: bigint;
  memo: string;
  genesis: boolean;
  inputs: { output: string; signer: Person }[];
  outputs: FixtureOutput[];
}

const transactions: FixtureTransaction[] = [];
const outputsById = new Map<string, FixtureOutput>();

function tx(name: string, spec: { chain?: "X" | "P"; type?: string; at: number; fee?: bigint; memo?: string; genesis?: boolean; spends?: [FixtureOutput, Person][]; pays: [string, bigint, Person[]][] }): FixtureTransaction {
  const id = cb58Of(`tx:${name}`);
  const chain = spec.chain ?? "X";
  const outputs = spec.pays.map(([asset, amount, owners], index): FixtureOutput => {
    const output = { id: cb58Of(`utxo:${name}:${index}`), transactionId: id, index, chain, asset, amount, owners, outputType: 7, at: spec.at };
    outputsById.set(output.id, output);
    return output;
  });
  for (const [spent] of spec.spends ?? []) spent.redeemedBy = id;
  const record: FixtureTransaction = {
    id,
    chain,
    type: spec.type ?? "base",
    at: spec.at,
    fee: spec.fee ?? 0n,
    memo: spec.memo ?? "",
    genesis: spec.genesis ?? false,
    inputs: (spec.spends ?? []).map(([output, signer]) => ({ output: output.id, signer })),
    outputs,
  };
  transactions.push(record);
  return record;
}

// Amounts beyond 2^53 on purpose: they must never pass through JS numbers.
const BIG = 123_456_789_012_345_678_901_234_567n;
const genesis = tx("genesis", { type: "create_asset", at: T0, genesis: true, pays: [[NATIVE, BIG, [ALICE]], [NATIVE, 5_000_000_000n, [BOB]]] });
const pay1 = tx("alice-pays-bob", { at: T0 + MINUTE, fee: 1_000_000n, memo: "68656c6c6f", spends: [[genesis.outputs[0]!, ALICE]], pays: [[NATIVE, 1_000n, [BOB]], [NATIVE, BIG - 1_000n - 1_000_000n, [ALICE]]] });
const token = tx("bob-creates-token", { type: "create_asset", at: T0 + 2 * MINUTE, fee: 10_000_000n, spends: [[genesis.outputs[1]!, BOB]], pays: [[TOKEN, 900_000n, [BOB]], [NATIVE, 4_990_000_000n, [BOB]]] });
tx("bob-sends-token", { at: T0 + 3 * MINUTE, fee: 1_000_000n, spends: [[token.outputs[0]!, BOB], [token.outputs[1]!, BOB]], pays: [[TOKEN, 400_000n, [CAROL]], [TOKEN, 500_000n, [BOB]], [NATIVE, 4_989_000_000n, [BOB]]] });
const shared = tx("alice-pays-carol-and-dave", { at: T0 + DAY, fee: 1_000_000n, spends: [[pay1.outputs[1]!, ALICE]], pays: [[NATIVE, 7n, [CAROL, DAVE]], [NATIVE, BIG - 1_000n - 2_000_000n - 7n, [ALICE]]] });
tx("alice-exports-to-p", { type: "export", at: T0 + DAY + MINUTE, fee: 1_000_000n, spends: [[shared.outputs[1]!, ALICE]], pays: [[NATIVE, 1_000_000_000n, [ALICE]], [NATIVE, BIG - 1_000n - 3_000_000n - 7n - 1_000_000_000n, [ALICE]]] });
tx("alice-imports-on-p", { chain: "P", type: "pvm_import", at: T0 + DAY + 2 * MINUTE, fee: 1_000_000n, pays: [[NATIVE, 999_000_000n, [ALICE]]] });
// A run of small payments, pairs sharing one acceptance time: pages must split ties cleanly.
for (let i = 0; i < 24; i++) tx(`drip-${i}`, { at: T0 + 2 * DAY + Math.floor(i / 2) * MINUTE, fee: 1_000_000n, pays: [[NATIVE, BigInt(i + 1), [DAVE]]] });

export const FIXTURE_TRANSACTIONS: readonly FixtureTransaction[] = transactions;
export const FIXTURE_OUTPUTS: readonly FixtureOutput[] = [...outputsById.values()];
export const NAMED = { genesis, pay1, token, shared };

export interface FixtureCTransaction {
  hash: string;
  block: number;
  index: number;
  type: number;
  from: string;
  to: string | null;
  value: bigint;
  logs: { address: string; topics: string[]; data: string }[];
}

export interface FixtureCBlock {
  number: number;
  hash: string;
  timestamp: number;
  transactions: FixtureCTransaction[];
}

function cBlocks(): FixtureCBlock[] {
  const plan: [number, string, string | null, bigint][][] = [[], [[0, ALICE.evm, BOB.evm, 10n ** 18n], [2, BOB.evm, null, 0n]], [[2, BOB.evm, CAROL.evm, 5n]], [], [[2, CAROL.evm, ALICE.evm, 1n], [0, ALICE.evm, CAROL.evm, 2n], [2, DAVE.evm, BOB.evm, 3n]]];
  return plan.map((txs, number) => ({
    number,
    hash: hashOf(`cblock:${number}`),
    timestamp: Math.floor(T0 / 1000) + number * 2,
    transactions: txs.map(([type, from, to, value], index) => ({
      hash: hashOf(`ctx:${number}:${index}`),
      block: number,
      index,
      type,
      from,
      to,
      value,
      logs: type === 2 && to !== null ? [{ address: to, topics: [hashOf("Transfer(address,address,uint256)")], data: `0x${value.toString(16).padStart(64, "0")}` }] : [],
    })),
  }));
}

export const FIXTURE_C_BLOCKS: readonly FixtureCBlock[] = cBlocks();

/** Writes every fixture row; the tables must exist (migrateExplorer) and be empty. */
export async function seedFixtureRows(db: SqlQueries): Promise<void> {
  for (const [alias, id] of Object.entries(FIXTURE_CONTEXT.chains)) {
    await db.query("INSERT INTO chains (id, alias, vm, network_id) VALUES ($1, $2, $3, $4)", [id, alias, { X: "avm", P: "pvm", C: "evm" }[alias]!, FIXTURE_CONTEXT.networkId]);
  }
  for (const t of FIXTURE_TRANSACTIONS) await insertTransaction(db, t);
  await db.query("INSERT INTO assets (id, chain_id, name, symbol, alias, denomination, variable_cap, nft, accepted_at, transaction_id) VALUES ($1, $2, 'Native', 'NAT', 'AVAX', 9, 0, 0, $3, $4)", [NATIVE, FIXTURE_CONTEXT.chains.X, T0, genesis.id]);
  await db.query("INSERT INTO assets (id, chain_id, name, symbol, alias, denomination, variable_cap, nft, accepted_at, transaction_id) VALUES ($1, $2, 'Test Token', 'TTK', '', 2, 0, 0, $3, $4)", [TOKEN, FIXTURE_CONTEXT.chains.X, token.at, token.id]);
  for (const block of FIXTURE_C_BLOCKS) await insertCBlock(db, block);
}

export async function insertTransaction(db: SqlQueries, t: FixtureTransaction): Promise<void> {
  const chainId = FIXTURE_CONTEXT.chains[t.chain];
  await db.query(
    "INSERT INTO transactions (id, chain_id, type, memo, tx_fee, genesis, accepted_at, bytes) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    [t.id, chainId, t.type, t.memo, t.fee.toString(), t.genesis ? "true" : "false", t.at, "00"],
  );
  const touched = new Set<Person>();
  for (const o of t.outputs) {
    await db.query(
      "INSERT INTO outputs (id, transaction_id, output_index, chain_id, created_on_chain_id, asset_id, output_type, amount, locktime, threshold, accepted_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, 1, $9)",
      [o.id, t.id, o.index, chainId, chainId, o.asset, o.outputType, o.amount.toString(), o.at],
    );
    for (const [position, owner] of o.owners.entries()) {
      await db.query("INSERT INTO output_addresses (output_id, address, position) VALUES ($1, $2, $3)", [o.id, owner.address, position]);
      touched.add(owner);
    }
  }
  for (const [position, input] of t.inputs.entries()) {
    await db.query("INSERT INTO transaction_inputs (transaction_id, position, output_id) VALUES ($1, $2, $3)", [t.id, position, input.output]);
    await db.query("UPDATE outputs SET redeeming_transaction_id = $1, redeemed_at = $2 WHERE id = $3", [t.id, t.at, input.output]);
    const signature = bytesToHex(secp256k1.sign(sha256(new TextEncoder().encode(t.id)), input.signer.privateKey, { prehash: false, format: "recovered" })).replace(/^0x/, "");
    await db.query(
      "INSERT INTO input_credentials (transaction_id, input_position, position, address, public_key, signature) VALUES ($1, $2, 0, $3, $4, $5)",
      [t.id, position, input.signer.address, input.signer.publicKey, signature],
    );
    touched.add(input.signer);
  }
  for (const p of touched) {
    const signed = t.inputs.some((i) => i.signer === p);
    await db.query(
      `INSERT INTO addresses (address, public_key) VALUES ($1, $2) ON CONFLICT (address) DO UPDATE SET public_key = coalesce(addresses.public_key, EXCLUDED.public_key)`,
      [p.address, signed ? p.publicKey : null],
    );
    await db.query("INSERT INTO address_chain (address, chain_id, first_seen_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", [p.address, chainId, t.at]);
    await db.query("INSERT INTO address_transactions (address, transaction_id, chain_id, accepted_at) VALUES ($1, $2, $3, $4)", [p.address, t.id, chainId, t.at]);
  }
}

async function insertCBlock(db: SqlQueries, b: FixtureCBlock): Promise<void> {
  const zero32 = `0x${"00".repeat(32)}`;
  await db.query(
    `INSERT INTO c_blocks (number, hash, parent_hash, sha3_uncles, miner, state_root, transactions_root, receipts_root, logs_bloom, difficulty, gas_limit,
       gas_used, timestamp, extra_data, mix_hash, nonce, ext_data_hash, base_fee_per_gas, ext_data_gas_used, block_gas_cost, transaction_count, accepted_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1, 8000000, $10, $11, '0x', $12, '0x0000000000000000', $12, 25000000000, 0, 0, $13, $14)`,
    [b.number, b.hash, b.number === 0 ? zero32 : hashOf(`cblock:${b.number - 1}`), zero32, `0x${"01".repeat(20)}`, zero32, zero32, zero32, `0x${"00".repeat(256)}`, 21_000 * b.transactions.length, b.timestamp, zero32, b.transactions.length, b.timestamp * 1000],
  );
  let cumulative = 0;
  for (const t of b.transactions) {
    cumulative += 21_000;
    await db.query(
      `INSERT INTO c_transactions (hash, block_number, transaction_index, type, nonce, gas_price, max_fee_per_gas, max_priority_fee_per_gas, gas_limit, value, input,
         from_addr, to_addr, v, r, s, created_at, status, gas_used, cumulative_gas_used, effective_gas_price, contract_address, logs_bloom)
       VALUES ($1, $2, $3, $4, 0, $5, $6, $7, 21000, $8, '0x', $9, $10, '0x1', '0x2', '0x3', $11, 1, 21000, $12, 25000000000, $13, $14)`,
      [t.hash, t.block, t.index, t.type, t.type === 2 ? null : "25000000000", t.type === 2 ? "30000000000" : null, t.type === 2 ? "1000000000" : null, t.value.toString(), t.from, t.to, b.timestamp * 1000, cumulative, t.to === null ? `0x${"ab".repeat(20)}` : null, `0x${"00".repeat(256)}`],
    );
    for (const [logIndex, log] of t.logs.entries()) {
      await db.query("INSERT INTO c_logs (transaction_hash, log_index, block_number, address, topics, data) VALUES ($1, $2, $3, $4, $5, $6)", [t.hash, t.index * 10 + logIndex, t.block, log.address, JSON.stringify(log.topics), log.data]);
    }
  }
}
