/**
 * Fixtures of the vault's tests: a NodeChains node over HTTP with a 2-of-3 multisig alias
 * declared at genesis and funded there, the owners' keys, the reference's signatures, and
 * platform transactions spending the alias's output (unsigned, and signed from the signatures
 * the vault collected), and the empty PGlite data directory in-memory vaults start from.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { decodeCb58, formatChainAddress } from "../../../src/encoding";
import { LOCAL_NETWORK } from "../../../src/network/constants";
import { NodeChains } from "../../../src/node/node-chains";
import { type HttpNode, startHttpNode } from "../../../src/node/http-server";
import type { ManagementOptions } from "../../../src/node/management";
import { encodePSignedTx, encodePUnsignedTx, genesisAliasId, PTypeId, type PUnsignedTx } from "../../../src/pchain";
import { compareShortIds, compareTransferableOutputs, shortIdFromPrivateKey, signHash, TypeId } from "../../../src/utxo/codec";
import type { MultisigTxView } from "../../../src/services/vault";
import { createPgliteTemplate, type PgliteTemplate } from "../../../src/services/sql/pglite-database";

let template: Promise<PgliteTemplate> | undefined;
/**
 * The empty data directory every in-memory PGlite of the vault's tests starts from (initdb run
 * once per process, not once per test; the mutation runner runs the suites again per mutant).
 */
export function pgliteTemplate(): Promise<PgliteTemplate> {
  template ??= createPgliteTemplate();
  return template;
}

export function testKey(n: number): Uint8Array {
  const key = new Uint8Array(32);
  key[30] = 0x77;
  key[31] = n;
  return key;
}

/** The alias's three owners, sorted as the alias keeps them (slot i = OWNERS[i]). */
export const OWNERS = [testKey(1), testKey(2), testKey(3)]
  .map((key) => ({ key, shortId: shortIdFromPrivateKey(key) }))
  .sort((a, b) => compareShortIds(a.shortId, b.shortId))
  .map((o) => ({ ...o, address: pAddress(o.shortId) }));
export const OUTSIDER = { key: testKey(9), address: pAddress(shortIdFromPrivateKey(testKey(9))) };
export const ALIAS_ID = genesisAliasId(2, new Uint8Array(0), OWNERS.map((o) => o.shortId));
export const ALIAS = pAddress(ALIAS_ID);
/** Another alias, 1-of-1, whose owner is none of ALIAS's: the other alias of the hostile tests (declared with `withRival`). */
export const RIVAL = (() => {
  const key = testKey(10);
  const shortId = shortIdFromPrivateKey(key);
  const id = genesisAliasId(1, new Uint8Array(0), [shortId]);
  return { key, shortId, address: pAddress(shortId), aliasId: id, alias: pAddress(id) };
})();
const AVAX = decodeCb58(LOCAL_NETWORK.nativeAsset.id);
const ALIAS_FUNDS = 1_000_000_000n;
/** The genesis UTXO of the alias: after the test key's two. */
const ALIAS_UTXO = { txId: new Uint8Array(32), outputIndex: 2 };

export function pAddress(shortId: Uint8Array): string {
  return formatChainAddress(shortId, LOCAL_NETWORK.hrp, "P");
}

export interface TestNode {
  url: string;
  network: NodeChains;
  close(): Promise<void>;
}

/**
 * A node on 127.0.0.1 (free port) whose genesis declares the 2-of-3 alias and funds it; with
 * `withRival` also the 1-of-1 {@link RIVAL} alias (unfunded); with `management` its management
 * APIs (auth, info, health) and their options, e.g. `apiAuthRequired`.
 */
export async function startAliasNode(options: { withRival?: boolean; management?: ManagementOptions } = {}): Promise<TestNode> {
  const rival = options.withRival === true ? [{ addresses: [RIVAL.shortId], threshold: 1 }] : [];
  const network = await NodeChains.create({
    platformGenesis: {
      initialMultisigAddresses: [{ addresses: OWNERS.map((o) => o.shortId), threshold: 2 }, ...rival],
      allocations: [{ address: ALIAS_ID, amount: ALIAS_FUNDS }],
    },
    ...(options.management === undefined ? {} : { management: options.management }),
  });
  const managed = options.management === undefined ? {} : { getRoutes: network.management.getRoutes, authorize: network.management.authorize };
  const http: HttpNode = await startHttpNode({ port: 0, routes: network.routes, ...managed });
  return {
    url: http.url,
    network,
    close: async () => {
      await http.close();
      await network.close();
    },
  };
}

/** The reference's signature: 65 bytes r ‖ s ‖ v over sha256(bytes), as 0x hex. */
export function signBytes(bytes: Uint8Array, key: Uint8Array): string {
  return hex(signHash(sha256(bytes), key));
}
export const signText = (text: string, key: Uint8Array) => signBytes(new TextEncoder().encode(text), key);
export const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}`;
export const fromHex = (text: string) => new Uint8Array(Buffer.from(text.replace(/^0x/, ""), "hex"));
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A BaseTx moving `amount` (default 1000) from the alias's genesis output to `to`, the rest back to the alias. */
export function aliasSpend(options: { amount?: bigint; memo?: string; to?: Uint8Array; utxoIndex?: number; slots?: number[] } = {}): PUnsignedTx {
  const amount = options.amount ?? 1_000n;
  const out = (address: Uint8Array, value: bigint) => ({ assetId: AVAX, output: { typeId: TypeId.Secp256k1TransferOutput, amount: value, locktime: 0n, threshold: 1, addresses: [address] } });
  const outputs = [out(options.to ?? OUTSIDER_SHORT_ID, amount), out(ALIAS_ID, ALIAS_FUNDS - amount - LOCAL_NETWORK.txFee)].sort(compareTransferableOutputs);
  return {
    typeId: PTypeId.BaseTx,
    networkId: LOCAL_NETWORK.networkId,
    blockchainId: new Uint8Array(32),
    outputs,
    inputs: [{ ...ALIAS_UTXO, outputIndex: options.utxoIndex ?? ALIAS_UTXO.outputIndex, assetId: AVAX, input: { typeId: TypeId.Secp256k1TransferInput, amount: ALIAS_FUNDS, signatureIndices: options.slots ?? [0, 1] } }],
    memo: new TextEncoder().encode(options.memo ?? ""),
  };
}
const OUTSIDER_SHORT_ID = shortIdFromPrivateKey(testKey(9));
export const unsignedBytes = (tx: PUnsignedTx) => encodePUnsignedTx(tx);

/**
 * The complete signed tx from the vault's record: a MultisigCredential with the signatures of
 * the owner slots the input names (a slot not signed yet gets an empty signature).
 */
export function signedFromRecord(tx: PUnsignedTx, record: Pick<MultisigTxView, "owners">): Uint8Array {
  const input = tx.inputs[0]!.input as { signatureIndices: number[] };
  const slots = input.signatureIndices.map((slot) => ({ slot, signature: record.owners[slot]!.signature === "" ? hex(new Uint8Array(65)) : record.owners[slot]!.signature }));
  return encodePSignedTx({
    unsignedTx: tx,
    credentials: [{ typeId: PTypeId.MultisigCredential, signatures: slots.map((s) => fromHex(s.signature)), sigIdxs: slots.map((s) => s.slot) }],
  });
}

/** An owner-independent outputOwners blob (the reference carries it hex encoded, opaque). */
export const OUTPUT_OWNERS = hex(new TextEncoder().encode(JSON.stringify({ threshold: 2, locktime: 0 })));
