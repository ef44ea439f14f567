import { bytesToHex, encodeCb58, encodeNodeBytes } from "../../encoding";
import { PLATFORM_CHAIN_ID } from "../../network/chains";
import { invalidParams, type NamedParams, RpcApi, serverError } from "../../rpc";
import { decodeId, issueSignedTx, txIdParam, UtxoChainParams, utxoPageAnswer } from "../../utxo/api";
import type { AcceptedBlock, PlatformChain } from "../vm/chain";
import { pBlockToJson, pTxToJson } from "../vm/json";
import { platformQueryErrors } from "./errors";
import { getConfiguration as configurationOf, primaryNetworkBlockchains } from "./configuration";

/*
 * The platform chain's methods that need no keystore user (avalanchego vms/platformvm
 * service.go and Camino's getMultisigAlias and getConfiguration): height, blocks, transactions,
 * UTXOs, balances, aliases, the chains of the primary network, the network's settings, and issueTx. Byte values default to hex, as
 * on the reference node since v1.7.14.
 */

export const PLATFORM_NAMESPACES: readonly string[] = ["platform"];

/** What the query methods read: the chain, and its parameter reader. */
export interface PlatformQueryContext {
  readonly chain: PlatformChain;
  readonly read: UtxoChainParams;
}

export function createPlatformQueryApi(chain: PlatformChain): RpcApi {
  const context: PlatformQueryContext = { chain, read: new UtxoChainParams(chain) };
  return new RpcApi({ mapError: platformQueryErrors }).namedMethods(context, {
    "platform.getHeight": getHeight,
    "platform.getBlock": getBlock,
    "platform.getBlockByHeight": getBlockByHeight,
    "platform.getTx": getTx,
    "platform.getTxStatus": getTxStatus,
    "platform.getUTXOs": getUTXOs,
    "platform.getBalance": getBalance,
    "platform.getMultisigAlias": getMultisigAlias,
    "platform.getBlockchains": getBlockchains,
    "platform.getConfiguration": getConfiguration,
    "platform.getBlockchainStatus": getBlockchainStatus,
    "platform.getStakingAssetID": getStakingAssetID,
    "platform.getTimestamp": getTimestamp,
    "platform.issueTx": issueTx,
  });
}

function getHeight({ chain }: PlatformQueryContext) {
  return { height: chain.height.toString() };
}

/** blockID, encoding → the accepted block. */
function getBlock({ chain }: PlatformQueryContext, p: NamedParams) {
  const id = decodeId(p.string("blockID"), "blockID");
  const block = chain.getBlock(id);
  if (block === undefined) throw serverError(`couldn't get block with id ${encodeCb58(id)}: not found`);
  return blockReply(chain, block, p);
}

/** height, encoding → the block accepted at that height. */
function getBlockByHeight({ chain }: PlatformQueryContext, p: NamedParams) {
  const height = p.uint("height", 64);
  const block = chain.getBlockByHeight(height);
  if (block === undefined) throw serverError(`couldn't get block at height ${height}: not found (last accepted height is ${chain.height})`);
  return blockReply(chain, block, p);
}

/** txID, encoding (hex, cb58 or json) → the committed transaction. */
function getTx({ chain }: PlatformQueryContext, p: NamedParams) {
  const id = txIdParam(p);
  const encoding = formatParam(p);
  const accepted = chain.getTx(id);
  if (accepted === undefined) throw serverError(`couldn't get tx: not found (no committed transaction has ID ${encodeCb58(id)})`);
  return { tx: encoding === "json" ? pTxToJson(accepted.tx, accepted.id, addressFormat(chain)) : encodeNodeBytes(accepted.bytes, encoding), encoding };
}

function getTxStatus({ chain }: PlatformQueryContext, p: NamedParams) {
  return { status: chain.getTxStatus(txIdParam(p)) };
}

/** The chain's UTXOs (or those waiting from `sourceChain`) owned by any of `addresses`, a page at a time, in hex by default. */
function getUTXOs({ chain, read }: PlatformQueryContext, p: NamedParams) {
  return utxoPageAnswer(chain, read.utxoPageRequest(p, chain.chainId), p.choice("encoding", ["hex", "cb58"], "hex"));
}

/** addresses (or one address) → the balances of every asset, unlocked and locked, and the UTXOs holding them. */
function getBalance({ chain, read }: PlatformQueryContext, p: NamedParams) {
  // The reference takes `addresses`; older versions took one `address`.
  const single = p.optionalString("address");
  const addresses = single === undefined ? read.addresses(p, "addresses") : [read.addressOf(single, "address")];
  if (addresses.length === 0) throw invalidParams("no addresses provided");
  const { unlocked, locked, utxos } = chain.getBalance(addresses);
  const native = encodeCb58(chain.feeAssetId);
  const strings = (m: Map<string, bigint>) => Object.fromEntries([...m].map(([k, v]) => [k, v.toString()]));
  const balances = new Map(unlocked);
  for (const [asset, amount] of locked) balances.set(asset, (balances.get(asset) ?? 0n) + amount);
  return {
    balance: (balances.get(native) ?? 0n).toString(),
    unlocked: (unlocked.get(native) ?? 0n).toString(),
    lockedStakeable: "0",
    lockedNotStakeable: (locked.get(native) ?? 0n).toString(),
    balances: strings(balances),
    unlockeds: strings(unlocked),
    lockedStakeables: {},
    lockedNotStakeables: strings(locked),
    utxoIDs: utxos.map((u) => ({ txID: encodeCb58(u.txId), outputIndex: u.outputIndex })),
  };
}

/** address (an alias) → its memo, locktime, threshold and owners. */
function getMultisigAlias({ chain, read }: PlatformQueryContext, p: NamedParams) {
  const alias = chain.requireAlias(read.address(p, "address")).alias;
  return { memo: bytesToHex(alias.memo), locktime: alias.owners.locktime.toString(), threshold: String(alias.owners.threshold), addresses: alias.owners.addresses.map(addressFormat(chain)) };
}

function getBlockchains({ chain }: PlatformQueryContext) {
  return { blockchains: primaryNetworkBlockchains(chain) };
}

function getConfiguration({ chain }: PlatformQueryContext) {
  return configurationOf(chain);
}

/** blockchainID (alias or ID) → "Validating" for a chain of the primary network, else "UnknownChain". */
function getBlockchainStatus({ chain }: PlatformQueryContext, p: NamedParams) {
  const text = p.string("blockchainID", "argument 'blockchainID' not given");
  const known = [chain.network.xChainId, chain.network.cChainId, PLATFORM_CHAIN_ID];
  let id: string | undefined;
  try {
    id = encodeCb58(chain.lookupChain(text));
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  return { status: id !== undefined && known.includes(id) ? "Validating" : "UnknownChain" };
}

function getStakingAssetID({ chain }: PlatformQueryContext) {
  return { assetID: encodeCb58(chain.feeAssetId) };
}

function getTimestamp({ chain }: PlatformQueryContext) {
  return { timestamp: new Date(Number(chain.now()) * 1000).toISOString().replace(".000Z", "Z") };
}

function issueTx({ chain }: PlatformQueryContext, p: NamedParams) {
  return issueSignedTx(chain, p);
}

/** getBlock's and getTx's `encoding`: "hex" (the default), "cb58" or "json". */
function formatParam(p: NamedParams): "cb58" | "hex" | "json" {
  return p.choice("encoding", ["hex", "cb58", "json"], "hex");
}

/** A block in the encoding the call asks for. */
function blockReply(chain: PlatformChain, block: AcceptedBlock, p: NamedParams) {
  const encoding = formatParam(p);
  const value = encoding === "json" ? pBlockToJson(block.block, block.id, addressFormat(chain)) : encodeNodeBytes(block.bytes, encoding);
  return { block: value, encoding };
}

/** The chain's address formatter, for the JSON forms of blocks and transactions. */
function addressFormat(chain: PlatformChain): (shortId: Uint8Array) => string {
  return (shortId) => chain.formatAddress(shortId);
}
