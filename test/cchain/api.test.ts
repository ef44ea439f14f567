import { expect } from "chai";
import { sha256 } from "@noble/hashes/sha2.js";
import { randomBytes } from "@noble/hashes/utils.js";
import { SharedMemory } from "../../src/atomic/shared-memory";
import { createNativeProvider, type NativeProvider } from "../../src/engine";
import { decodeCb58, decodeNodeBytes, encodeCb58, encodeNodeBytes, encodePrivateKey, formatChainAddress } from "../../src/encoding";
import { Keystore } from "../../src/keystore/keystore";
import { startHttpNode } from "../../src/node/http-server";
import { LOCAL_NETWORK } from "../../src/network/constants";
import type { Dispatch } from "../../src/rpc";
import { TypeId, decodeUtxo, encodeUtxo, shortIdFromPrivateKey, utxoId, type Utxo } from "../../src/utxo/codec";
import {
  AtomicTypeId,
  CONTRACT_CHAIN_ATOMIC_METHODS,
  CONTRACT_CHAIN_AVAX_PATH,
  CONTRACT_CHAIN_CVM_PATH,
  ContractChainAtomics,
  X2C_RATE,
  type UnsignedExportTx,
  type UnsignedImportTx,
  atomicTxGasUsed,
  calculateDynamicFee,
  createContractChainAtomicApi,
  evmAddressOfPrivateKey,
  parseSignedAtomicTx,
  signAtomicTx,
} from "../../src/cchain";
import { AG_TEST_KEYS } from "./vectors";

const NET = LOCAL_NETWORK;
const X = decodeCb58(NET.xChainId);
const C = decodeCb58(NET.cChainId);
const AVAX = decodeCb58(NET.nativeAsset.id);
const ANT = sha256(new TextEncoder().encode("nativekit test asset"));
const USER = { username: "alice", password: "correct horse battery staple" };
const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
const to0x = (b: Uint8Array): string => "0x" + hex(b);

interface RpcFailure {
  code: number;
  message: string;
}

/** A node in miniature: the contract-chain engine, shared memory with the exchange chain, a keystore, the API. */
class World {
  constructor(
    readonly provider: NativeProvider,
    readonly memory: SharedMemory,
    readonly keystore: Keystore,
    readonly atomics: ContractChainAtomics,
    readonly dispatch: Dispatch,
  ) {}

  static async create(options: { nativeOnly?: boolean } = {}): Promise<World> {
    const provider = await createNativeProvider({ accounts: [] });
    const memory = new SharedMemory();
    const keystore = new Keystore();
    await keystore.createUser(USER.username, USER.password);
    const atomics = new ContractChainAtomics({ host: provider.engine, sharedMemory: memory, network: NET, ...options });
    return new World(provider, memory, keystore, atomics, createContractChainAtomicApi({ atomics, keystore }).dispatch);
  }

  call<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    return this.dispatch(method, params) as Promise<T>;
  }

  async fail(method: string, params: Record<string, unknown>): Promise<RpcFailure> {
    try {
      await this.dispatch(method, params);
    } catch (error) {
      return error as RpcFailure;
    }
    return expect.fail(`${method} should have failed`);
  }

  /** What an exchange-chain export to the contract chain leaves: a UTXO in C's inbox from X, owned by `owners`. */
  exportFromX(assetId: Uint8Array, amount: bigint, owners: Uint8Array[], opts: { locktime?: bigint; threshold?: number; outputIndex?: number; txId?: Uint8Array } = {}): Utxo {
    const txId = opts.txId ?? randomBytes(32);
    const outputIndex = opts.outputIndex ?? 0;
    const sorted = [...owners].sort(Buffer.compare);
    const utxo: Utxo = {
      txId,
      outputIndex,
      assetId,
      output: { typeId: TypeId.Secp256k1TransferOutput, amount, locktime: opts.locktime ?? 0n, threshold: opts.threshold ?? 1, addresses: sorted },
    };
    this.memory.apply(X, [[C, { put: [{ key: utxoId(txId, outputIndex), value: encodeUtxo(utxo), traits: sorted }] }]]);
    return utxo;
  }

  /** Atomic UTXOs waiting in the exchange chain's inbox from this chain, owned by `owner`. */
  waitingOnX(owner: Uint8Array): Utxo[] {
    return this.memory.indexed(X, C, [owner], undefined, undefined, 1024).values.map(decodeUtxo);
  }

  async balance(address: Uint8Array): Promise<bigint> {
    return BigInt((await this.provider.request({ method: "eth_getBalance", params: [to0x(address), "latest"] })) as string);
  }

  async assetBalance(address: Uint8Array, assetId: Uint8Array): Promise<bigint> {
    return BigInt((await this.provider.request({ method: "eth_getAssetBalance", params: [to0x(address), "latest", encodeCb58(assetId)] })) as string);
  }

  async nonce(address: Uint8Array): Promise<bigint> {
    return BigInt((await this.provider.request({ method: "eth_getTransactionCount", params: [to0x(address), "latest"] })) as string);
  }

  async blockNumber(): Promise<bigint> {
    return BigInt((await this.provider.request({ method: "eth_blockNumber", params: [] })) as string);
  }

  async tx(txID: string): Promise<{ parsed: ReturnType<typeof parseSignedAtomicTx>; blockHeight?: string }> {
    const reply = await this.call<{ tx: string; blockHeight?: string }>("cvm.getAtomicTx", { txID, encoding: "hex" });
    return { parsed: parseSignedAtomicTx(decodeNodeBytes(reply.tx, "hex")), blockHeight: reply.blockHeight };
  }
}

const keys = AG_TEST_KEYS.map((k) => decodeCb58(k));
const alice = keys[0]!; // in the keystore (contract-chain keys)
const aliceShort = shortIdFromPrivateKey(alice);
const aliceEvm = evmAddressOfPrivateKey(alice);
const outsider = keys[1]!; // signs outside the API
const recipient = evmAddressOfPrivateKey(keys[2]!);
const xRecipient = shortIdFromPrivateKey(keys[3]!);

async function withAliceKey(world: World): Promise<void> {
  const reply = await world.call<{ address: string }>("cvm.importKey", { ...USER, privateKey: encodePrivateKey(alice) });
  expect(reply.address.toLowerCase()).to.equal(to0x(aliceEvm));
}

/** An import of output 0 of `utxo` (`amountIn` nAVAX) from the exchange chain, `amountOut` to `to`, signed by `key`. */
function signedImportFromX(utxo: { txId: Uint8Array }, amountIn: bigint, to: Uint8Array, amountOut: bigint, key: Uint8Array) {
  return signAtomicTx(
    {
      typeId: AtomicTypeId.ImportTx,
      networkId: NET.networkId,
      blockchainId: C,
      sourceChain: X,
      importedInputs: [{ txId: utxo.txId, outputIndex: 0, assetId: AVAX, input: { typeId: TypeId.Secp256k1TransferInput, amount: amountIn, signatureIndices: [0] } }],
      outs: [{ address: to, amount: amountOut, assetId: AVAX }],
    },
    [[key]],
  );
}

/** Imports `amount` nAVAX (minus the fee) to alice's own contract-chain account. */
async function fundAlice(world: World, amount: bigint): Promise<void> {
  world.exportFromX(AVAX, amount, [aliceShort]);
  await world.call("cvm.import", { ...USER, to: to0x(aliceEvm), sourceChain: "X" });
}

describe("contract-chain atomic API (cvm.* / avax.*)", function () {
  this.timeout(20_000);

  describe("import from the exchange chain", function () {
    it("credits 10^9 wei per imported nAVAX minus the fee, removes the UTXO, and accepts the tx in a block", async function () {
      const world = await World.create();
      await withAliceKey(world);
      world.exportFromX(AVAX, 5_000_000_000n, [aliceShort]);
      const cAddress = formatChainAddress(aliceShort, NET.hrp, "C");
      const before = await world.call<{ numFetched: string }>("cvm.getUTXOs", { addresses: [cAddress], sourceChain: "X" });
      expect(before.numFetched).to.equal("1");

      const baseFee = world.provider.engine.nextBlockBaseFee();
      const { txID } = await world.call<{ txID: string }>("cvm.import", { ...USER, to: to0x(recipient), sourceChain: "X" });
      const { parsed, blockHeight } = await world.tx(txID);
      expect(encodeCb58(parsed.id)).to.equal(txID);
      const tx = parsed.tx.unsignedTx as UnsignedImportTx;
      expect(tx.typeId).to.equal(AtomicTypeId.ImportTx);
      const gas = atomicTxGasUsed(tx, parsed.unsignedBytes);
      const suggested = (baseFee * 11n) / 10n;
      const fee = calculateDynamicFee(gas, suggested);
      expect(tx.outs).to.have.length(1);
      expect(tx.outs[0]!.amount).to.equal(5_000_000_000n - fee);
      expect(await world.balance(recipient)).to.equal((5_000_000_000n - fee) * X2C_RATE);

      const after = await world.call<{ numFetched: string; utxos: string[] }>("cvm.getUTXOs", { addresses: [cAddress], sourceChain: "X" });
      expect(after).to.deep.include({ numFetched: "0", utxos: [] });
      expect(blockHeight).to.equal((await world.blockNumber()).toString());
      const status = await world.call("cvm.getAtomicTxStatus", { txID });
      expect(status).to.deep.equal({ status: "Accepted", blockHeight });
      const block = world.provider.engine.atomicTransactionBlock(txID)!;
      expect(block.number.toString()).to.equal(blockHeight);
      expect(block.atomicGasUsed).to.equal(gas);
    });

    it("serves the import in its block's blockExtraData: a codec list holding the signed transaction", async function () {
      const world = await World.create();
      await withAliceKey(world);
      world.exportFromX(AVAX, 5_000_000_000n, [aliceShort]);
      const { txID } = await world.call<{ txID: string }>("cvm.import", { ...USER, to: to0x(recipient), sourceChain: "X" });
      const { parsed, blockHeight } = await world.tx(txID);
      const block = (await world.provider.request({ method: "eth_getBlockByNumber", params: [`0x${BigInt(blockHeight!).toString(16)}`, false] })) as { blockExtraData: string };
      const signed = Buffer.from(parsed.signedBytes);
      // codec version 0, one transaction, then the transaction without its own codec version.
      expect(block.blockExtraData).to.equal(`0x0000${"00000001"}${signed.subarray(2).toString("hex")}`);
      const previous = (await world.provider.request({ method: "eth_getBlockByNumber", params: [`0x${(BigInt(blockHeight!) - 1n).toString(16)}`, false] })) as { blockExtraData: string };
      expect(previous.blockExtraData).to.equal("0x");
    });

    it("lands a non-native asset in the multi-coin balance, unscaled, readable with eth_getAssetBalance", async function () {
      const world = await World.create();
      await withAliceKey(world);
      world.exportFromX(AVAX, 1_000_000n, [aliceShort]);
      world.exportFromX(ANT, 777n, [aliceShort]);
      const { txID } = await world.call<{ txID: string }>("avax.import", { ...USER, to: to0x(recipient), sourceChain: NET.xChainId });
      expect(await world.assetBalance(recipient, ANT)).to.equal(777n);
      const { parsed } = await world.tx(txID);
      const native = (parsed.tx.unsignedTx as UnsignedImportTx).outs.find((o) => hex(o.assetId) === hex(AVAX))!;
      expect(await world.balance(recipient)).to.equal(native.amount * X2C_RATE);
    });

    it("with the Banff rule, a non-native asset cannot be imported", async function () {
      const world = await World.create({ nativeOnly: true });
      await withAliceKey(world);
      world.exportFromX(AVAX, 1_000_000n, [aliceShort]);
      world.exportFromX(ANT, 777n, [aliceShort]);
      const failure = await world.fail("cvm.import", { ...USER, to: to0x(recipient), sourceChain: "X" });
      expect(failure.code).to.equal(-32000);
      expect(failure.message).to.contain("import output cannot contain non-AVAX in Banff");
    });

    it("rejects a double import clearly, by the API and by issueTx", async function () {
      const world = await World.create();
      await withAliceKey(world);
      world.exportFromX(AVAX, 2_000_000n, [aliceShort]);
      const { txID } = await world.call<{ txID: string }>("cvm.import", { ...USER, to: to0x(recipient), sourceChain: "X" });
      const again = await world.fail("cvm.import", { ...USER, to: to0x(recipient), sourceChain: "X" });
      expect(again.code).to.equal(-32000);
      expect(again.message).to.match(/^insufficient AVAX funds to pay transaction fee \(no atomic UTXO .* already imported, or never exported\)/);

      const { tx } = await world.call<{ tx: string }>("cvm.getAtomicTx", { txID });
      const replay = await world.fail("cvm.issueTx", { tx });
      expect(replay.code).to.equal(-32000);
      expect(replay.message).to.contain(`tx ${txID} was already accepted`);
      expect(await world.call("cvm.getAtomicTxStatus", { txID })).to.have.property("status", "Accepted");

      // a different transaction spending the same UTXO: the node's shared-memory lookup fails
      const { parsed } = await world.tx(txID);
      const original = parsed.tx.unsignedTx as UnsignedImportTx;
      const conflicting = signAtomicTx({ ...original, outs: [{ ...original.outs[0]!, amount: 1n }] }, [[alice]]);
      const conflict = await world.fail("cvm.issueTx", { tx: encodeNodeBytes(conflicting.signedBytes, "cb58") });
      expect(conflict.message).to.match(/^failed to fetch import UTXOs from 2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed due to: atomic UTXO .* already been imported/);
      expect(await world.call("cvm.getAtomicTxStatus", { txID: encodeCb58(conflicting.id) })).to.deep.equal({ status: "Dropped" });
    });

    it("refuses an import whose gas exceeds the atomic gas limit (100 000)", async function () {
      const world = await World.create();
      await withAliceKey(world);
      for (let i = 0; i < 95; i++) world.exportFromX(AVAX, 1_000_000n, [aliceShort]);
      const failure = await world.fail("cvm.import", { ...USER, to: to0x(recipient), sourceChain: "X" });
      expect(failure.code).to.equal(-32000);
      expect(failure.message).to.match(/^tx gas usage \(\d+\) exceeds atomic gas limit \(100000\)$/);
      const left = await world.call<{ numFetched: string }>("cvm.getUTXOs", { addresses: [formatChainAddress(aliceShort, NET.hrp, "C")], sourceChain: "X" });
      expect(left.numFetched).to.equal("95");
    });

    it("does not spend time-locked UTXOs; issueTx of one is refused", async function () {
      const world = await World.create();
      await withAliceKey(world);
      const far = 4_000_000_000n;
      const locked = world.exportFromX(AVAX, 3_000_000n, [aliceShort], { locktime: far });
      const failure = await world.fail("cvm.import", { ...USER, to: to0x(recipient), sourceChain: "X" });
      expect(failure.message).to.contain("insufficient AVAX funds to pay transaction fee");
      const tx = signedImportFromX(locked, 3_000_000n, recipient, 1_000_000n, alice);
      const refused = await world.fail("cvm.issueTx", { tx: encodeNodeBytes(tx.signedBytes, "hex"), encoding: "hex" });
      expect(refused.message).to.contain("import tx transfer failed verification: output is time locked");
    });
  });

  describe("export to the exchange chain", function () {
    it("debits amount x 10^9 wei plus the fee, bumps the nonce, and leaves a UTXO owned by `to` in X's inbox", async function () {
      const world = await World.create();
      await withAliceKey(world);
      await fundAlice(world, 10_000_000_000n);
      const balanceBefore = await world.balance(aliceEvm);
      const nonceBefore = await world.nonce(aliceEvm);
      const to = formatChainAddress(xRecipient, NET.hrp, "X");
      const suggested = (world.provider.engine.nextBlockBaseFee() * 11n) / 10n;
      const { txID } = await world.call<{ txID: string }>("cvm.export", { ...USER, to, amount: 1_000_000_000, assetID: "AVAX" });
      const { parsed } = await world.tx(txID);
      const tx = parsed.tx.unsignedTx as UnsignedExportTx;
      expect(tx.typeId).to.equal(AtomicTypeId.ExportTx);
      expect(tx.ins).to.have.length(1);
      expect(tx.ins[0]!.nonce).to.equal(nonceBefore);
      const spent = tx.ins[0]!.amount;
      expect(spent - 1_000_000_000n).to.equal(calculateDynamicFee(atomicTxGasUsed(tx, parsed.unsignedBytes), suggested));
      expect(await world.balance(aliceEvm)).to.equal(balanceBefore - spent * X2C_RATE);
      expect(await world.nonce(aliceEvm)).to.equal(nonceBefore + 1n);

      const waiting = world.waitingOnX(xRecipient);
      expect(waiting).to.have.length(1);
      expect(hex(waiting[0]!.txId)).to.equal(hex(parsed.id));
      expect(waiting[0]!.outputIndex).to.equal(0);
      expect(hex(waiting[0]!.assetId)).to.equal(hex(AVAX));
      expect(waiting[0]!.output).to.deep.include({ amount: 1_000_000_000n, locktime: 0n, threshold: 1 });
      expect((waiting[0]!.output as { addresses: Uint8Array[] }).addresses.map(hex)).to.deep.equal([hex(xRecipient)]);
    });

    it("exports 1 nAVAX as exactly 10^9 wei (plus the fee) and a non-native asset from the multi-coin balance", async function () {
      const world = await World.create();
      await withAliceKey(world);
      world.exportFromX(ANT, 500n, [aliceShort]);
      await fundAlice(world, 10_000_000_000n);
      expect(await world.assetBalance(aliceEvm, ANT)).to.equal(500n);
      const to = formatChainAddress(xRecipient, NET.hrp, "X");

      const before = await world.balance(aliceEvm);
      const one = await world.call<{ txID: string }>("cvm.export", { ...USER, to, amount: "1", assetID: NET.nativeAsset.id });
      const oneTx = (await world.tx(one.txID)).parsed.tx.unsignedTx as UnsignedExportTx;
      const fee = oneTx.ins[0]!.amount - 1n;
      expect(before - (await world.balance(aliceEvm))).to.equal((1n + fee) * X2C_RATE);

      const ant = await world.call<{ txID: string }>("avax.export", { ...USER, to, amount: 123, assetID: encodeCb58(ANT) });
      expect(await world.assetBalance(aliceEvm, ANT)).to.equal(377n);
      const antTx = (await world.tx(ant.txID)).parsed.tx.unsignedTx as UnsignedExportTx;
      expect(antTx.ins.map((i) => hex(i.assetId)).sort()).to.deep.equal([hex(AVAX), hex(ANT)].sort());
      const waiting = world.waitingOnX(xRecipient).filter((u) => hex(u.assetId) === hex(ANT));
      expect(waiting).to.have.length(1);
      expect((waiting[0]!.output as { amount: bigint }).amount).to.equal(123n);
    });

    it("fees: an explicit baseFee (hex or decimal) sets the fee; one below the next block's is dropped", async function () {
      const world = await World.create();
      await withAliceKey(world);
      await fundAlice(world, 10_000_000_000n);
      const to = formatChainAddress(xRecipient, NET.hrp, "X");
      const required = world.provider.engine.nextBlockBaseFee();
      const high = required * 4n;
      const { txID } = await world.call<{ txID: string }>("cvm.export", { ...USER, to, amount: 1000, assetID: "AVAX", baseFee: "0x" + high.toString(16) });
      const { parsed } = await world.tx(txID);
      const tx = parsed.tx.unsignedTx as UnsignedExportTx;
      expect(tx.ins[0]!.amount - 1000n).to.equal(calculateDynamicFee(atomicTxGasUsed(tx, parsed.unsignedBytes), high));

      const balance = await world.balance(aliceEvm);
      const low = await world.fail("cvm.export", { ...USER, to, amount: 1000, assetID: "AVAX", baseFee: String(required / 2n) });
      expect(low.code).to.equal(-32000);
      expect(low.message).to.match(/^export tx flow check failed due to: insufficient funds/);
      expect(await world.balance(aliceEvm)).to.equal(balance);
      const known = world.atomics.knownTransactions();
      expect(await world.call("cvm.getAtomicTxStatus", { txID: known[known.length - 1]! })).to.deep.equal({ status: "Dropped" });
    });

    it("refuses more than the accounts hold", async function () {
      const world = await World.create();
      await withAliceKey(world);
      await fundAlice(world, 1_000_000_000n);
      const failure = await world.fail("cvm.export", { ...USER, to: formatChainAddress(xRecipient, NET.hrp, "X"), amount: 2_000_000_000, assetID: "AVAX" });
      expect(failure.code).to.equal(-32000);
      expect(failure.message).to.match(/^couldn't create tx: couldn't generate tx inputs\/signers: insufficient funds/);
    });
  });

  describe("wrong parameters and credentials", function () {
    it("reports a wrong `to`, an unknown user and a wrong password", async function () {
      const world = await World.create();
      await withAliceKey(world);
      await fundAlice(world, 1_000_000_000n);
      const base = { ...USER, amount: 1000, assetID: "AVAX" };

      const onC = await world.fail("cvm.export", { ...base, to: formatChainAddress(xRecipient, NET.hrp, "C") });
      expect(onC.code).to.equal(-32000);
      expect(onC.message).to.contain("couldn't create tx: tx has wrong chain ID");
      const otherNetwork = await world.fail("cvm.export", { ...base, to: formatChainAddress(xRecipient, "fuji", "X") });
      expect(otherNetwork).to.deep.include({ code: -32602, message: 'to: expected hrp "local" but got "fuji"' });
      const hexTo = await world.fail("cvm.export", { ...base, to: to0x(recipient) });
      expect(hexTo.code).to.equal(-32602);
      expect(hexTo.message).to.contain('to must be an exchange-chain address such as "X-local1..."');
      const importToX = await world.fail("cvm.import", { ...USER, to: formatChainAddress(xRecipient, NET.hrp, "X"), sourceChain: "X" });
      expect(importToX.code).to.equal(-32602);
      expect(importToX.message).to.contain("to must be a contract-chain address");
      const badChain = await world.fail("cvm.import", { ...USER, to: to0x(recipient), sourceChain: "Y" });
      expect(badChain).to.deep.include({ code: -32602 });
      expect(badChain.message).to.contain('problem parsing source chainID "Y"');
      const zero = await world.fail("cvm.export", { ...base, amount: 0, to: formatChainAddress(xRecipient, NET.hrp, "X") });
      expect(zero).to.deep.include({ code: -32602, message: "argument 'amount' must be > 0" });

      const unknown = await world.fail("cvm.export", { ...base, username: "bob", to: formatChainAddress(xRecipient, NET.hrp, "X") });
      expect(unknown).to.deep.include({ code: -32000, message: "problem retrieving user 'bob': user not found: bob" });
      const wrongPassword = await world.fail("cvm.import", { ...USER, password: "not the password", to: to0x(recipient), sourceChain: "X" });
      expect(wrongPassword).to.deep.include({ code: -32000, message: "couldn't get user 'alice': incorrect password" });
      const exportKey = await world.fail("cvm.exportKey", { ...USER, password: "nope nope nope", address: to0x(aliceEvm) });
      expect(exportKey.message).to.equal("problem retrieving user 'alice': incorrect password");
    });

    it("importKey / exportKey round-trip; a key the user does not hold is not found", async function () {
      const world = await World.create();
      await withAliceKey(world);
      const exported = await world.call("avax.exportKey", { ...USER, address: to0x(aliceEvm).toUpperCase().replace("0X", "0x") });
      expect(exported).to.deep.equal({ privateKey: encodePrivateKey(alice), privateKeyHex: to0x(alice) });
      const missing = await world.fail("cvm.exportKey", { ...USER, address: to0x(recipient) });
      expect(missing.code).to.equal(-32000);
      expect(missing.message).to.match(/^problem retrieving private key: not found/);
      const noKey = await world.fail("cvm.importKey", { ...USER });
      expect(noKey).to.deep.include({ code: -32602, message: "argument 'privateKey' not given" });
    });

    it("works over HTTP JSON-RPC on both paths (/ext/bc/C/cvm and /ext/bc/C/avax)", async function () {
      const world = await World.create();
      await withAliceKey(world);
      world.exportFromX(AVAX, 2_000_000n, [aliceShort]);
      const node = await startHttpNode({ port: 0, routes: { [CONTRACT_CHAIN_CVM_PATH]: world.dispatch, [CONTRACT_CHAIN_AVAX_PATH]: world.dispatch } });
      try {
        const post = async (path: string, method: string, params: unknown) => {
          const response = await fetch(node.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
          return (await response.json()) as { result?: Record<string, unknown>; error?: RpcFailure };
        };
        const imported = await post(CONTRACT_CHAIN_CVM_PATH, "cvm.import", { ...USER, to: to0x(recipient), sourceChain: "X" });
        const txID = imported.result!.txID as string;
        const status = await post(CONTRACT_CHAIN_AVAX_PATH, "avax.getAtomicTxStatus", { txID });
        expect(status.result).to.deep.equal({ status: "Accepted", blockHeight: (await world.blockNumber()).toString() });
        const failure = await post(CONTRACT_CHAIN_CVM_PATH, "cvm.import", { ...USER, to: "nowhere", sourceChain: "X" });
        expect(failure.error!.code).to.equal(-32602);
      } finally {
        await node.close();
      }
    });

    it("serves both namespaces, accepts [params], and refuses unknown methods", async function () {
      const world = await World.create();
      expect(CONTRACT_CHAIN_ATOMIC_METHODS).to.include.members(["cvm.export", "avax.export", "cvm.getAtomicTxStatus", "avax.issueTx"]);
      const txID = encodeCb58(randomBytes(32));
      expect(await world.dispatch("avax.getAtomicTxStatus", [{ txID }])).to.deep.equal({ status: "Unknown" });
      expect(await world.dispatch("cvm.getAtomicTxStatus", { txID })).to.deep.equal({ status: "Unknown" });
      const unknown = await world.fail("cvm.send", {});
      expect(unknown.code).to.equal(-32601);
      const notFound = await world.fail("cvm.getAtomicTx", { txID });
      expect(notFound).to.deep.include({ code: -32000, message: `could not find tx ${txID}` });
      const nil = await world.fail("cvm.getAtomicTxStatus", { txID: encodeCb58(new Uint8Array(32)) });
      expect(nil).to.deep.include({ code: -32602, message: "nil transaction ID" });
    });
  });

  describe("issueTx, getAtomicTx, getUTXOs", function () {
    it("accepts an import and an export signed outside the API (cb58 and hex)", async function () {
      const world = await World.create();
      const owner = shortIdFromPrivateKey(outsider);
      const utxo = world.exportFromX(AVAX, 3_000_000_000n, [owner]);
      const outsiderEvm = evmAddressOfPrivateKey(outsider);
      const importTx = signedImportFromX(utxo, 3_000_000_000n, outsiderEvm, 2_990_000_000n, outsider);
      const imported = await world.call<{ txID: string }>("cvm.issueTx", { tx: encodeNodeBytes(importTx.signedBytes, "cb58") });
      expect(imported.txID).to.equal(encodeCb58(importTx.id));
      expect(await world.balance(outsiderEvm)).to.equal(2_990_000_000n * X2C_RATE);

      const exportTx = signAtomicTx(
        {
          typeId: AtomicTypeId.ExportTx,
          networkId: NET.networkId,
          blockchainId: C,
          destinationChain: X,
          ins: [{ address: outsiderEvm, amount: 1_010_000_000n, assetId: AVAX, nonce: 0n }],
          exportedOutputs: [{ assetId: AVAX, output: { typeId: TypeId.Secp256k1TransferOutput, amount: 1_000_000_000n, locktime: 0n, threshold: 1, addresses: [xRecipient] } }],
        },
        [[outsider]],
      );
      const exportedTx = await world.call<{ txID: string }>("avax.issueTx", { tx: encodeNodeBytes(exportTx.signedBytes, "hex"), encoding: "hex" });
      expect(exportedTx.txID).to.equal(encodeCb58(exportTx.id));
      expect(await world.balance(outsiderEvm)).to.equal(1_980_000_000n * X2C_RATE);
      expect(await world.nonce(outsiderEvm)).to.equal(1n);
      expect(world.waitingOnX(xRecipient).map((u) => hex(u.txId))).to.deep.equal([hex(exportTx.id)]);

      // the same export again: the nonce is spent
      const replayed = signAtomicTx({ ...(exportTx.tx.unsignedTx as UnsignedExportTx), exportedOutputs: [{ ...(exportTx.tx.unsignedTx as UnsignedExportTx).exportedOutputs[0]!, output: { ...(exportTx.tx.unsignedTx as UnsignedExportTx).exportedOutputs[0]!.output, amount: 999_999_999n } }] }, [[outsider]]);
      const refused = await world.fail("cvm.issueTx", { tx: encodeNodeBytes(replayed.signedBytes, "cb58") });
      expect(refused.message).to.match(/^invalid nonce/);
      expect(await world.balance(outsiderEvm)).to.equal(1_980_000_000n * X2C_RATE);

      // getAtomicTx returns the same bytes in either encoding
      const cb58 = await world.call<{ tx: string; encoding: string; blockHeight: string }>("cvm.getAtomicTx", { txID: exportedTx.txID });
      const hexed = await world.call<{ tx: string; encoding: string }>("cvm.getAtomicTx", { txID: exportedTx.txID, encoding: "hex" });
      expect(cb58.encoding).to.equal("cb58");
      expect(hexed.encoding).to.equal("hex");
      expect(hex(decodeNodeBytes(cb58.tx, "cb58"))).to.equal(hex(exportTx.signedBytes));
      expect(hex(decodeNodeBytes(hexed.tx, "hex"))).to.equal(hex(exportTx.signedBytes));
      expect(cb58.blockHeight).to.equal((await world.blockNumber()).toString());

      const garbage = await world.fail("cvm.issueTx", { tx: "0x1234", encoding: "hex" });
      expect(garbage.code).to.equal(-32602);
      expect(garbage.message).to.contain("problem decoding transaction");
      const truncated = await world.fail("cvm.issueTx", { tx: encodeNodeBytes(exportTx.signedBytes.subarray(0, 50), "cb58") });
      expect(truncated.code).to.equal(-32602);
      expect(truncated.message).to.contain("problem parsing transaction");
    });

    it("issueTx reads a 0x… tx sent without `encoding` as hex (the reference node's default, what avalanchejs sends)", async function () {
      const world = await World.create();
      const utxo = world.exportFromX(AVAX, 3_000_000_000n, [shortIdFromPrivateKey(outsider)]);
      const outsiderEvm = evmAddressOfPrivateKey(outsider);
      const importTx = signedImportFromX(utxo, 3_000_000_000n, outsiderEvm, 2_990_000_000n, outsider);
      const named = await world.fail("avax.issueTx", { tx: encodeNodeBytes(importTx.signedBytes, "hex"), encoding: "cb58" });
      expect(named.code).to.equal(-32602);
      const reply = await world.call<{ txID: string }>("avax.issueTx", { tx: encodeNodeBytes(importTx.signedBytes, "hex") });
      expect(reply.txID).to.equal(encodeCb58(importTx.id));
      expect(await world.balance(outsiderEvm)).to.equal(2_990_000_000n * X2C_RATE);
    });

    it("getAtomicTxStatus: Unknown, then Dropped for a refused tx, Accepted with blockHeight once in a block", async function () {
      const world = await World.create();
      const owner = shortIdFromPrivateKey(outsider);
      const utxo = world.exportFromX(AVAX, 2_000_000_000n, [owner]);
      const build = (amount: bigint) => signedImportFromX(utxo, 2_000_000_000n, recipient, amount, outsider);
      const greedy = build(2_000_000_000n); // leaves nothing for the fee
      const txID = encodeCb58(greedy.id);
      expect(await world.call("cvm.getAtomicTxStatus", { txID })).to.deep.equal({ status: "Unknown" });
      const refused = await world.fail("cvm.issueTx", { tx: encodeNodeBytes(greedy.signedBytes, "cb58") });
      expect(refused.message).to.match(/^import tx flow check failed due to: insufficient funds/);
      expect(await world.call("cvm.getAtomicTxStatus", { txID })).to.deep.equal({ status: "Dropped" });
      const dropped = await world.call<Record<string, unknown>>("cvm.getAtomicTx", { txID });
      expect(dropped).to.not.have.property("blockHeight");

      const fair = build(1_900_000_000n);
      const accepted = await world.call<{ txID: string }>("cvm.issueTx", { tx: encodeNodeBytes(fair.signedBytes, "cb58") });
      const height = (await world.blockNumber()).toString();
      expect(await world.call("avax.getAtomicTxStatus", { txID: accepted.txID })).to.deep.equal({ status: "Accepted", blockHeight: height });
    });

    it("getUTXOs pages with limit and endIndex, validates addresses, and encodes in cb58 or hex", async function () {
      const world = await World.create();
      const owner = shortIdFromPrivateKey(outsider);
      const other = shortIdFromPrivateKey(keys[4]!);
      const made = [1n, 2n, 3n, 4n, 5n].map((amount) => world.exportFromX(AVAX, amount, [owner]));
      world.exportFromX(AVAX, 6n, [other]);
      const cAddress = formatChainAddress(owner, NET.hrp, "C");

      const seen: string[] = [];
      let startIndex: { address: string; utxo: string } | undefined;
      const pages: number[] = [];
      for (;;) {
        const page = await world.call<{ numFetched: string; utxos: string[]; endIndex: { address: string; utxo: string }; encoding: string }>("cvm.getUTXOs", {
          addresses: [cAddress],
          sourceChain: "X",
          limit: 2,
          ...(startIndex === undefined ? {} : { startIndex }),
        });
        expect(page.encoding).to.equal("cb58");
        pages.push(Number(page.numFetched));
        seen.push(...page.utxos.map((u) => hex(decodeUtxo(decodeNodeBytes(u, "cb58")).txId)));
        if (Number(page.numFetched) < 2) break;
        expect(page.endIndex.address).to.equal(cAddress);
        startIndex = page.endIndex;
      }
      expect(pages).to.deep.equal([2, 2, 1]);
      expect([...seen].sort()).to.deep.equal(made.map((u) => hex(u.txId)).sort());

      const all = await world.call<{ numFetched: string; utxos: string[] }>("avax.getUTXOs", { addresses: [cAddress, formatChainAddress(other, NET.hrp, "C")], sourceChain: "X", encoding: "hex" });
      expect(all.numFetched).to.equal("6");
      for (const u of all.utxos) expect(decodeUtxo(decodeNodeBytes(u, "hex")).output.typeId).to.equal(TypeId.Secp256k1TransferOutput);
      const bare = await world.call<{ numFetched: string }>("cvm.getUTXOs", { addresses: [encodeCb58(owner)], sourceChain: "X" });
      expect(bare.numFetched).to.equal("5");
      const none = await world.call<{ numFetched: string; endIndex: { address: string; utxo: string } }>("cvm.getUTXOs", { addresses: [cAddress], sourceChain: "P" });
      expect(none.numFetched).to.equal("0");
      expect(none.endIndex.utxo).to.equal("11111111111111111111111111111111LpoYY");

      expect(await world.fail("cvm.getUTXOs", { addresses: [], sourceChain: "X" })).to.deep.include({ code: -32602, message: "no addresses provided" });
      expect(await world.fail("cvm.getUTXOs", { addresses: [cAddress] })).to.deep.include({ code: -32602, message: "no source chain provided" });
      const xAddress = await world.fail("cvm.getUTXOs", { addresses: [formatChainAddress(owner, NET.hrp, "X")], sourceChain: "X" });
      expect(xAddress.code).to.equal(-32602);
      expect(xAddress.message).to.contain(`expected chainID to be "${NET.cChainId}" but was "${NET.xChainId}"`);
      const badEncoding = await world.fail("cvm.getUTXOs", { addresses: [cAddress], sourceChain: "X", encoding: "base64" });
      expect(badEncoding.code).to.equal(-32602);
    });
  });
});
