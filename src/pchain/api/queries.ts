import { bytesToHex, encodeCb58, encodeNodeBytes } from "../../encoding";
import { PLATFORM_CHAIN_ID } from "../../network/chains";
import { invalidParams, type NamedParams, RpcApi, serverError } from "../../rpc";
import { decodeBytes, decodeId, txEncodingParam, txIdParam } from "../../xchain/api/params";
import { CodecError } from "../../xchain/codec";
import type { AcceptedBlock, PlatformChain } from "../vm/chain";
import { pBlockToJson, pTxToJson } from "../vm/json";
import { platformQueryErrors } from "./errors";
import { PlatformParams } from "./params";
import { getConfiguration, primaryNetworkBlockchains } from "./configuration";
import { utxoPageAnswer } from "../../xchain/api/chain-params";

/*
 * The platform chain's methods that need no keystore user (avalanchego vms/platformvm
 * service.go and Camino's getMultisigAlias and getConfiguration): height, blocks, transactions,
 * UTXOs, balances, aliases, the chains of the primary network, the network's settings, and issueTx. Byte values default to hex, as
 * on the reference node since v1.7.14.
 */

export const PLATFORM_NAMESPACES: readonly string[] = ["platform"];

function formatParam(p: NamedParams): "cb58" | "hex" | "json" {
  return p.choice("encoding", ["hex", "cb58", "json"], "hex");
}

export function createPlatformQueryApi(chain: PlatformChain): RpcApi {
  const read = new PlatformParams(chain);
  const format = (a: Uint8Array): string => chain.formatAddress(a);
  const blockReply = (block: AcceptedBlock, p: NamedParams) => {
    const encoding = formatParam(p);
    const value = encoding === "json" ? pBlockToJson(block.block, block.id, format) : encodeNodeBytes(block.bytes, encoding);
    return { block: value, encoding };
  };

  return new RpcApi({ namespaces: PLATFORM_NAMESPACES, mapError: platformQueryErrors })
    .named("getHeight", () => ({ height: chain.height.toString() }))

    .named("getBlock", (p) => {
      const id = decodeId(p.string("blockID"), "blockID");
      const block = chain.getBlock(id);
      if (block === undefined) throw serverError(`couldn't get block with id ${encodeCb58(id)}: not found`);
      return blockReply(block, p);
    })

    .named("getBlockByHeight", (p) => {
      const height = p.uint("height", 64);
      const block = chain.getBlockByHeight(height);
      if (block === undefined) throw serverError(`couldn't get block at height ${height}: not found (last accepted height is ${chain.height})`);
      return blockReply(block, p);
    })

    .named("getTx", (p) => {
      const id = txIdParam(p);
      const encoding = formatParam(p);
      const accepted = chain.getTx(id);
      if (accepted === undefined) throw serverError(`couldn't get tx: not found (no committed transaction has ID ${encodeCb58(id)})`);
      return { tx: encoding === "json" ? pTxToJson(accepted.tx, accepted.id, format) : encodeNodeBytes(accepted.bytes, encoding), encoding };
    })

    .named("getTxStatus", (p) => ({ status: chain.getTxStatus(txIdParam(p)) }))

    .named("getUTXOs", (p) => utxoPageAnswer(chain, read.utxoPageRequest(p, chain.chainId), p.choice("encoding", ["hex", "cb58"], "hex")))

    .named("getBalance", (p) => {
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
    })

    .named("getMultisigAlias", (p) => {
      const alias = chain.requireAlias(read.address(p, "address")).alias;
      return { memo: bytesToHex(alias.memo), locktime: alias.owners.locktime.toString(), threshold: String(alias.owners.threshold), addresses: alias.owners.addresses.map(format) };
    })

    .named("getBlockchains", () => ({ blockchains: primaryNetworkBlockchains(chain) }))

    .named("getConfiguration", () => getConfiguration(chain))

    .named("getBlockchainStatus", (p) => {
      const text = p.string("blockchainID", "argument 'blockchainID' not given");
      const known = [chain.network.xChainId, chain.network.cChainId, PLATFORM_CHAIN_ID];
      let id: string | undefined;
      try {
        id = encodeCb58(chain.lookupChain(text));
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
      }
      return { status: id !== undefined && known.includes(id) ? "Validating" : "UnknownChain" };
    })

    .named("getStakingAssetID", () => ({ assetID: encodeCb58(chain.feeAssetId) }))

    .named("getTimestamp", () => ({ timestamp: new Date(Number(chain.now()) * 1000).toISOString().replace(".000Z", "Z") }))

    .named("issueTx", async (p) => {
      const text = p.string("tx");
      const bytes = decodeBytes(text, txEncodingParam(p, text), "transaction");
      try {
        return { txID: encodeCb58(await chain.issue(bytes)) };
      } catch (error) {
        throw error instanceof CodecError ? serverError(error.message, { rule: "malformed" }) : error;
      }
    });
}
