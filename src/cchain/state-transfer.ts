/**
 * What accepting an atomic transaction does, once it is verified:
 *
 *   state   import credits amount x 10^9 wei (native) or amount of the asset (multi-coin);
 *           export debits the same way, requires each input's nonce to be the account's
 *           nonce, then increments the nonce of every input address.
 *   memory  import removes the spent UTXOs from this chain's inbox from the source chain;
 *           export puts one UTXO per exported output into the destination's inbox from this
 *           chain, indexed by the output's owners.
 */
import { Account, Address } from "@ethereumjs/util";
import type { AtomicElement, AtomicRequests } from "../atomic/shared-memory";
import type { AtomicStateReader, AtomicStateWriter } from "../engine/atomic-host";
import { encodeCb58, equalBytes } from "../encoding";
import { encodeUtxo, utxoId } from "../utxo/codec";
import { AtomicTypeId, type UnsignedAtomicTx } from "./atomic-codec";
import { hex } from "./context";
import { fail } from "./errors";
import { X2C_RATE } from "./fees";

async function getAccount(state: AtomicStateReader, address: Address): Promise<Account> {
  return (await state.getAccount(address)) ?? new Account();
}

/**
 * The state transfer: import credits, export debits and bumps nonces. Throws (the caller
 * reverts) on insufficient funds or a wrong nonce, like the node's EVMStateTransfer.
 */
export async function applyAtomicStateTransfer(tx: UnsignedAtomicTx, state: AtomicStateWriter, nativeAssetId: Uint8Array): Promise<void> {
  if (tx.typeId === AtomicTypeId.ImportTx) {
    for (const out of tx.outs) {
      const address = new Address(out.address);
      if (equalBytes(out.assetId, nativeAssetId)) {
        const account = await getAccount(state, address);
        account.balance += out.amount * X2C_RATE;
        await state.putAccount(address, account);
      } else {
        const assetHex = hex(out.assetId);
        await state.setAssetBalance(address, assetHex, state.getAssetBalance(address, assetHex) + out.amount);
      }
    }
    return;
  }
  const nonces = new Map<string, bigint>();
  for (const [i, input] of tx.ins.entries()) {
    const address = new Address(input.address);
    const account = await getAccount(state, address);
    if (equalBytes(input.assetId, nativeAssetId)) {
      const amount = input.amount * X2C_RATE;
      if (account.balance < amount) {
        fail("insufficient-funds", `insufficient funds (ins[${i}]: 0x${hex(input.address)} has ${account.balance} wei, the input spends ${amount})`);
      }
      account.balance -= amount;
      await state.putAccount(address, account);
    } else {
      const assetHex = hex(input.assetId);
      const balance = state.getAssetBalance(address, assetHex);
      if (balance < input.amount) {
        fail("insufficient-funds", `insufficient funds (ins[${i}]: 0x${hex(input.address)} has ${balance} of asset ${encodeCb58(input.assetId)}, the input spends ${input.amount})`);
      }
      await state.setAssetBalance(address, assetHex, balance - input.amount);
    }
    const nonce = (await getAccount(state, address)).nonce;
    if (nonce !== input.nonce) fail("invalid-nonce", `invalid nonce (ins[${i}]: 0x${hex(input.address)} has nonce ${nonce}, the input says ${input.nonce})`);
    nonces.set(hex(input.address), input.nonce);
  }
  for (const [addressHex, nonce] of nonces) {
    const address = new Address(Buffer.from(addressHex, "hex"));
    const account = await getAccount(state, address);
    account.nonce = nonce + 1n;
    await state.putAccount(address, account);
  }
}

/** The shared-memory operations of an atomic transaction: the peer chain and what to put or remove. */
export function atomicRequestsOf(tx: UnsignedAtomicTx, id: Uint8Array): { peerChain: Uint8Array; requests: AtomicRequests } {
  if (tx.typeId === AtomicTypeId.ImportTx) {
    return { peerChain: tx.sourceChain, requests: { remove: tx.importedInputs.map((input) => utxoId(input.txId, input.outputIndex)) } };
  }
  const put: AtomicElement[] = tx.exportedOutputs.map((out, outputIndex) => ({
    key: utxoId(id, outputIndex),
    value: encodeUtxo({ txId: id, outputIndex, assetId: out.assetId, output: out.output }),
    traits: out.output.addresses.map((a) => a.slice()),
  }));
  return { peerChain: tx.destinationChain, requests: { put } };
}
