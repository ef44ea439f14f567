import { expect } from "chai";
// avalanchejs 5.2, unmodified: its entry point (Context.getContextFromURI), its P-chain fee state
// (PVMApi.getFeeState) and its Etna builders (pvm.newExportTx / newImportTx priced from that
// state), with its X- and C-chain builders on the other side of each atomic move.
import { Common, Context, TransferableOutput, addTxSignatures, avm, evm, pvm, secp256k1, utils, type UnsignedTx, type Utxo } from "@avalabs/avalanchejs";
import { NodeChains, type NodeChainsOptions } from "../../src/node/node-chains";
import { LOCAL_NETWORK, LOCAL_TEST_KEY } from "../../src/network/constants";
import { type HttpNode, startHttpNode } from "../../src/node/http-server";
import { rejection } from "../helpers/chain";
import { networkForId } from "../../src/node/network-for-id";
import { LOCAL_DYNAMIC_FEE_CONFIG, LOCAL_TEST_KEY_P_UTXOS, UNSCHEDULED_ACTIVATION_TIME } from "../../src/pchain";

const AVAX = 10n ** 9n; // nAVAX
const NAVAX_TO_WEI = 10n ** 9n;
const P_CHAIN_ID = "11111111111111111111111111111111LpoYY";
const P_START = LOCAL_TEST_KEY_P_UTXOS.reduce((a, b) => a + b, 0n);

const EWOQ_KEY = utils.base58check.decode(LOCAL_TEST_KEY.slice("PrivateKey-".length));
const EWOQ_PUBLIC_KEY = secp256k1.getPublicKey(EWOQ_KEY);
const EWOQ = secp256k1.publicKeyBytesToAddress(EWOQ_PUBLIC_KEY);
const EWOQ_EVM = secp256k1.publicKeyToEthAddress(EWOQ_PUBLIC_KEY);
const EWOQ_EVM_HEX = utils.bufferToHex(EWOQ_EVM);

interface RpcError {
  code: number;
  message: string;
  data?: { rule?: string; nodeMessage?: string; figures?: Record<string, string> };
}

/** A plain JSON-RPC call (for raw shapes and refusals): the result, or the error object thrown. */
async function rpc<T>(url: string, path: string, method: string, params: unknown = {}): Promise<T> {
  const response = await fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const body = (await response.json()) as { result?: T; error?: RpcError };
  if (body.error !== undefined) throw body.error;
  return body.result as T;
}

/** The JSON-RPC error (or avalanchejs' Error carrying its message) a refused call ends with. */
const refusal = async (promise: Promise<unknown>): Promise<RpcError> => (await rejection(promise)) as RpcError;

describe("interop: avalanchejs 5.2's Etna fee flows against the simulated node", function () {
  this.timeout(20_000);

  let node: HttpNode;
  let network: NodeChains;
  let ctx: Context.Context;
  let pApi: pvm.PVMApi;
  let xApi: avm.AVMApi;
  let cApi: evm.EVMApi;

  async function start(options: NodeChainsOptions = {}): Promise<void> {
    network = await NodeChains.create(options);
    node = await startHttpNode({ host: "127.0.0.1", port: 0, routes: network.routes });
    ctx = await Context.getContextFromURI(node.url);
    pApi = new pvm.PVMApi(node.url);
    xApi = new avm.AVMApi(node.url);
    cApi = new evm.EVMApi(node.url);
  }

  afterEach(async () => {
    await node.close();
    await network.close();
  });

  const address = (chain: "P" | "X" | "C", shortId: Uint8Array) => utils.format(chain, ctx.hrp, shortId);
  const pBalance = async (shortId: Uint8Array) => (await pApi.getBalance({ addresses: [address("P", shortId)] })).unlocked;
  const pUtxos = async (): Promise<Utxo[]> => (await pApi.getUTXOs({ addresses: [address("P", EWOQ)] })).utxos;
  /** The fee avalanchejs' own calculator gives an unsigned P-chain transaction at `price`. */
  const feeOf = (tx: UnsignedTx, price: bigint) => pvm.calculateFee(tx.getTx(), ctx.platformFeeConfig.weights, price);
  const gasOf = (tx: UnsignedTx) => feeOf(tx, 1n);

  async function signAndIssueP(tx: UnsignedTx): Promise<string> {
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
    return (await pApi.issueSignedTx(tx.getSignedTx())).txID;
  }

  /** P → `destination`: avalanchejs' pvm.newExportTx of `amount` to ewoq, priced from getFeeState. */
  async function exportFromP(destinationChainId: string, amount: bigint, feeState?: pvm.FeeState) {
    const tx = pvm.newExportTx(
      {
        feeState: feeState ?? (await pApi.getFeeState()),
        fromAddressesBytes: [EWOQ],
        utxos: await pUtxos(),
        destinationChainId,
        outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, amount, [EWOQ])],
      },
      ctx,
    );
    return tx;
  }

  describe("the entry point and the fee methods", () => {
    beforeEach(() => start());

    it("Context.getContextFromURI succeeds and reads the reference local network's dynamic fee config from platform.getFeeConfig", () => {
      expect(ctx).to.deep.include({ networkID: LOCAL_NETWORK.networkId, hrp: LOCAL_NETWORK.hrp, pBlockchainID: P_CHAIN_ID, xBlockchainID: LOCAL_NETWORK.xChainId, cBlockchainID: LOCAL_NETWORK.cChainId });
      expect(ctx.platformFeeConfig).to.deep.equal({
        weights: Common.createDimensions({ bandwidth: 1, dbRead: 1_000, dbWrite: 1_000, compute: 4 }),
        maxCapacity: 1_000_000n,
        maxPerSecond: 100_000n,
        targetPerSecond: 50_000n,
        minPrice: 1n,
        excessConversionConstant: 2_164_043n,
      });
    });

    it("platform.getFeeConfig answers the reference's JSON: the weights as an array of numbers, every amount a JSON number", async () => {
      expect(await rpc(node.url, "/ext/bc/P", "platform.getFeeConfig")).to.deep.equal({
        weights: [1, 1000, 1000, 4],
        maxCapacity: 1000000,
        maxPerSecond: 100000,
        targetPerSecond: 50000,
        minPrice: 1,
        excessConversionConstant: 2164043,
      });
    });

    it("platform.getFeeState answers capacity, excess and price as numbers and the chain's time in RFC 3339; PVMApi.getFeeState reads it", async () => {
      const raw = await rpc<Record<string, unknown>>(node.url, "/ext/bc/P", "platform.getFeeState");
      expect(raw).to.deep.equal({ capacity: 1000000, excess: 0, price: 1, timestamp: "2024-07-15T04:00:00Z" });
      expect(await pApi.getFeeState()).to.deep.equal({ capacity: 1_000_000n, excess: 0n, price: 1n, timestamp: "2024-07-15T04:00:00Z" });
    });
  });

  describe("platform chain ↔ exchange chain", () => {
    beforeEach(() => start());

    it("pvm.newExportTx priced from getFeeState (P → X) is committed; ewoq pays the amount plus exactly avalanchejs' calculateFee", async () => {
      const amount = 3n * AVAX;
      const feeState = await pApi.getFeeState();
      const tx = await exportFromP(ctx.xBlockchainID, amount, feeState);
      const fee = feeOf(tx, feeState.price);
      const txID = await signAndIssueP(tx);

      expect(await pApi.getTxStatus({ txID })).to.deep.include({ status: "Committed" });
      expect(await pBalance(EWOQ)).to.equal(P_START - amount - fee);
      expect(fee).to.be.greaterThan(0n).and.lessThan(LOCAL_NETWORK.txFee);

      // …and avm.newImportTx takes it into the exchange chain.
      const { utxos } = await xApi.getUTXOs({ addresses: [address("X", EWOQ)], sourceChain: "P" });
      expect(utxos.map((u) => u.utxoId.txID.toString())).to.deep.equal([txID]);
      const importTx = avm.newImportTx(ctx, P_CHAIN_ID, utxos, [EWOQ], [EWOQ]);
      await addTxSignatures({ unsignedTx: importTx, privateKeys: [EWOQ_KEY] });
      const imported = await xApi.issueSignedTx(importTx.getSignedTx());
      expect(await xApi.getTxStatus({ txID: imported.txID })).to.deep.equal({ status: "Accepted" });
    });

    it("avm.newExportTx (X → P), then pvm.newImportTx priced from getFeeState is committed: ewoq gains the amount less the dynamic fee", async () => {
      const amount = 4n * AVAX;
      const { utxos: xUtxos } = await xApi.getUTXOs({ addresses: [address("X", EWOQ)] });
      const exportTx = avm.newExportTx(ctx, P_CHAIN_ID, [EWOQ], xUtxos, [TransferableOutput.fromNative(ctx.avaxAssetID, amount, [EWOQ])]);
      await addTxSignatures({ unsignedTx: exportTx, privateKeys: [EWOQ_KEY] });
      await xApi.issueSignedTx(exportTx.getSignedTx());

      const feeState = await pApi.getFeeState();
      const { utxos } = await pApi.getUTXOs({ addresses: [address("P", EWOQ)], sourceChain: "X" });
      expect(utxos).to.have.length(1);
      const tx = pvm.newImportTx({ feeState, fromAddressesBytes: [EWOQ], sourceChainId: ctx.xBlockchainID, toAddressesBytes: [EWOQ], utxos }, ctx);
      const fee = feeOf(tx, feeState.price);
      const txID = await signAndIssueP(tx);

      expect(await pApi.getTxStatus({ txID })).to.deep.include({ status: "Committed" });
      expect(await pBalance(EWOQ)).to.equal(P_START + amount - fee);
    });
  });

  describe("platform chain ↔ contract chain", () => {
    beforeEach(() => start());

    it("pvm.newExportTx (P → C), then evm.newImportTx is accepted: the EVM address gets 10^9 wei per nAVAX left", async () => {
      const amount = 5n * AVAX;
      await signAndIssueP(await exportFromP(ctx.cBlockchainID, amount));

      const { utxos } = await cApi.getUTXOs({ addresses: [address("C", EWOQ)], sourceChain: "P" });
      expect(utxos).to.have.length(1);
      const destination = utils.bufferToHex(secp256k1.publicKeyToEthAddress(secp256k1.getPublicKey(secp256k1.randomPrivateKey())));
      const baseFee = (await cApi.getBaseFee()) / NAVAX_TO_WEI;
      const gas = utils.costCorethTx(evm.newImportTx(ctx, utils.hexToBuffer(destination), [EWOQ], utxos, P_CHAIN_ID, baseFee));
      const tx = evm.newImportTx(ctx, utils.hexToBuffer(destination), [EWOQ], utxos, P_CHAIN_ID, gas * baseFee);
      await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
      const { txID } = await cApi.issueSignedTx(tx.getSignedTx());

      expect(await cApi.getAtomicTxStatus(txID)).to.include({ status: "Accepted" });
      const balance = await rpc<string>(node.url, "/ext/bc/C/rpc", "eth_getBalance", [destination, "latest"]);
      expect(BigInt(balance)).to.equal((amount - gas * baseFee) * NAVAX_TO_WEI);
    });

    it("evm.newExportTxFromBaseFee (C → P), then pvm.newImportTx priced from getFeeState is committed", async () => {
      const amount = 2n * AVAX;
      const nonce = BigInt(await rpc<string>(node.url, "/ext/bc/C/rpc", "eth_getTransactionCount", [EWOQ_EVM_HEX, "latest"]));
      const baseFee = (await cApi.getBaseFee()) / NAVAX_TO_WEI;
      const exportTx = evm.newExportTxFromBaseFee(ctx, baseFee, amount, P_CHAIN_ID, EWOQ_EVM, [EWOQ], nonce);
      await addTxSignatures({ unsignedTx: exportTx, privateKeys: [EWOQ_KEY] });
      await cApi.issueSignedTx(exportTx.getSignedTx());

      const feeState = await pApi.getFeeState();
      const { utxos } = await pApi.getUTXOs({ addresses: [address("P", EWOQ)], sourceChain: "C" });
      expect(utxos).to.have.length(1);
      const tx = pvm.newImportTx({ feeState, fromAddressesBytes: [EWOQ], sourceChainId: ctx.cBlockchainID, toAddressesBytes: [EWOQ], utxos }, ctx);
      const txID = await signAndIssueP(tx);

      expect(await pApi.getTxStatus({ txID })).to.deep.include({ status: "Committed" });
      expect(await pBalance(EWOQ)).to.equal(P_START + amount - feeOf(tx, feeState.price));
    });
  });

  describe("the fee is enforced when a transaction is accepted", () => {
    it("refuses a transaction priced below the dynamic fee with the reference's message: insufficient unlocked funds: needs <fee> more <asset>", async () => {
      await start();
      const tx = await exportFromP(ctx.xBlockchainID, AVAX, { ...(await pApi.getFeeState()), price: 0n }); // pays no fee
      await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
      const error = await refusal(rpc(node.url, "/ext/bc/P", "platform.issueTx", { tx: utils.bufferToHex(utils.addChecksum(tx.getSignedTx().toBytes())), encoding: "hex" }));

      const gas = gasOf(tx);
      expect(error.message).to.equal(`insufficient unlocked funds: needs ${gas} more ${ctx.avaxAssetID}`);
      expect(error.data).to.deep.include({ rule: "insufficient-funds", nodeMessage: "insufficient unlocked funds" });
      expect(error.data?.figures).to.deep.include({ fee: gas.toString(), gas: gas.toString(), price: "1" });
      expect(await pBalance(EWOQ)).to.equal(P_START);
    });

    it("refuses a transaction whose gas exceeds the capacity: tx exceeds current gas capacity", async () => {
      await start({ platformGenesis: { fees: { dynamicFeeConfig: { ...LOCAL_DYNAMIC_FEE_CONFIG, maxCapacity: 1_000n } } } });
      const tx = await exportFromP(ctx.xBlockchainID, AVAX, { capacity: 10n ** 9n, excess: 0n, price: 1n, timestamp: "" });
      await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
      const error = await refusal(pApi.issueSignedTx(tx.getSignedTx()));
      expect(error.message).to.include(`tx exceeds current gas capacity: ${gasOf(tx)} > 1000`);
    });

    it("moves the fee state with each transaction: the gas is taken from the capacity and added to the excess", async () => {
      await start();
      const before = await pApi.getFeeState();
      const tx = await exportFromP(ctx.xBlockchainID, AVAX, before);
      await signAndIssueP(tx);
      const after = await pApi.getFeeState();

      const gas = gasOf(tx);
      expect(after.excess).to.equal(before.excess + gas);
      expect(after.capacity).to.equal(before.capacity - gas);
      expect(Date.parse(after.timestamp)).to.be.greaterThan(Date.parse(before.timestamp));

      // A second transaction adds its own gas to the excess (less what the seconds between them decayed).
      const second = await exportFromP(ctx.xBlockchainID, AVAX, after);
      await signAndIssueP(second);
      const third = await pApi.getFeeState();
      const elapsed = BigInt(Date.parse(third.timestamp) - Date.parse(after.timestamp)) / 1000n;
      const decayed = after.excess - elapsed * 50_000n;
      expect(third.excess).to.equal((decayed > 0n ? decayed : 0n) + gasOf(second));
    });
  });

  describe("on another network ID", () => {
    it("avalanchejs builds and the node commits on network 54321 too: the genesis fee state has capacity to spend", async () => {
      await start({ network: networkForId(54321) });
      expect(ctx).to.deep.include({ networkID: 54321, hrp: "custom" });
      const feeState = await pApi.getFeeState();
      expect(feeState.capacity).to.equal(1_000_000n);
      const txID = await signAndIssueP(await exportFromP(ctx.xBlockchainID, AVAX, feeState));
      expect(await pApi.getTxStatus({ txID })).to.deep.include({ status: "Committed" });
    });
  });

  describe("the fee rule is the upgrade schedule's", () => {
    it("before Etna (etnaTime unscheduled) the fixed fee rules: a transaction priced from getFeeState is refused, one paying 0.001 AVAX accepted", async () => {
      await start({ platformGenesis: { fees: { etnaTime: UNSCHEDULED_ACTIVATION_TIME } } });
      const cheap = await exportFromP(ctx.xBlockchainID, AVAX);
      await addTxSignatures({ unsignedTx: cheap, privateKeys: [EWOQ_KEY] });
      const error = await refusal(pApi.issueSignedTx(cheap.getSignedTx()));
      expect(error.message).to.match(/^insufficient funds: consumed \d+, produced \d+ plus the fee 1000000$/);

      // avalanchejs priced at the price that makes its fee reach the fixed fee.
      const price = LOCAL_NETWORK.txFee / gasOf(cheap) + 1n;
      const paying = await exportFromP(ctx.xBlockchainID, AVAX, { capacity: 1_000_000n, excess: 0n, price, timestamp: "" });
      const txID = await signAndIssueP(paying);
      expect(await pApi.getTxStatus({ txID })).to.deep.include({ status: "Committed" });
      // The fee state does not move before Etna.
      expect(await pApi.getFeeState()).to.deep.include({ capacity: 1_000_000n, excess: 0n, price: 1n });
    });

    it("from Etna (the default) a legacy transaction paying the fixed 0.001 AVAX still pays at least the dynamic fee and is accepted", async () => {
      await start();
      const cheap = await exportFromP(ctx.xBlockchainID, AVAX);
      const price = LOCAL_NETWORK.txFee / gasOf(cheap) + 1n;
      const legacy = await exportFromP(ctx.xBlockchainID, AVAX, { capacity: 1_000_000n, excess: 0n, price, timestamp: "" });
      expect(feeOf(legacy, price)).to.be.at.least(LOCAL_NETWORK.txFee);
      const txID = await signAndIssueP(legacy);
      expect(await pApi.getTxStatus({ txID })).to.deep.include({ status: "Committed" });
    });
  });
});

