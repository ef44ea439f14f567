import { expect } from "chai";
// avalanchejs 5.2, CommonJS build (dist/index.cjs): every transaction below is built, signed and
// decoded by it alone; the simulator only answers its API clients over HTTP.
import { Context, TransferOutput, TransferableOutput, type Utxo, addTxSignatures, avm, evm, info, secp256k1, utils } from "@avalabs/avalanchejs";
import { NodeChains } from "../../src/node/node-chains";
import { LOCAL_NETWORK, LOCAL_TEST_KEY, LOCAL_TEST_KEY_X_BALANCE } from "../../src/network/constants";
import { type HttpNode, startHttpNode } from "../../src/node/http-server";

const NAVAX_TO_WEI = 10n ** 9n;
const AVAX = 10n ** 9n; // nAVAX

/** The ewoq test key and its addresses, derived by avalanchejs. */
const EWOQ_KEY = utils.base58check.decode(LOCAL_TEST_KEY.slice("PrivateKey-".length));
const EWOQ_PUBLIC_KEY = secp256k1.getPublicKey(EWOQ_KEY);
const EWOQ = secp256k1.publicKeyBytesToAddress(EWOQ_PUBLIC_KEY); // 20-byte short ID
const EWOQ_EVM = secp256k1.publicKeyToEthAddress(EWOQ_PUBLIC_KEY);
const EWOQ_EVM_HEX = utils.bufferToHex(EWOQ_EVM);

/** A plain JSON-RPC read of the contract chain (balances and nonces are not avalanchejs' job). */
async function ethRead(url: string, method: string, params: unknown[]): Promise<bigint> {
  const response = await fetch(`${url}/ext/bc/C/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: string; error?: { message: string } };
  if (body.result === undefined) throw new Error(`${method}: ${body.error?.message ?? "no result"}`);
  return BigInt(body.result);
}

describe("interop: avalanchejs 5.2 against the simulated node", function () {
  this.timeout(15_000);

  let node: HttpNode;
  let ctx: Context.Context;
  let xApi: avm.AVMApi;
  let cApi: evm.EVMApi;

  beforeEach(async () => {
    const network = await NodeChains.create();
    node = await startHttpNode({ host: "127.0.0.1", port: 0, routes: network.routes });
    ctx = await Context.getContextFromURI(node.url);
    xApi = new avm.AVMApi(node.url);
    cApi = new evm.EVMApi(node.url);
  });

  afterEach(async () => {
    await node.close();
  });

  const xAddress = (shortId: Uint8Array) => utils.format("X", ctx.hrp, shortId);
  const cAddress = (shortId: Uint8Array) => utils.format("C", ctx.hrp, shortId);

  /** An address's AVAX on the exchange chain, read through avalanchejs' getAllBalances. */
  async function xBalance(shortId: Uint8Array): Promise<bigint> {
    const { balances } = await xApi.getAllBalances({ address: xAddress(shortId) });
    return balances.filter((b) => b.asset === "AVAX" || b.asset === ctx.avaxAssetID).reduce((sum, b) => sum + BigInt(b.balance), 0n);
  }

  const evmBalance = (address: string) => ethRead(node.url, "eth_getBalance", [address, "latest"]);
  /** The next block's base fee, in nAVAX per gas (the unit avalanchejs' EVM builders take). */
  const baseFeeNavax = async () => (await cApi.getBaseFee()) / NAVAX_TO_WEI;

  function randomShortId(): Uint8Array {
    return secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(secp256k1.randomPrivateKey()));
  }

  /** X → C: avalanchejs' avm.newExportTx of `amount` nAVAX to ewoq's C- address, signed and issued. */
  async function exportToC(amount: bigint): Promise<string> {
    const { utxos } = await xApi.getUTXOs({ addresses: [xAddress(EWOQ)] });
    const tx = avm.newExportTx(ctx, ctx.cBlockchainID, [EWOQ], utxos, [TransferableOutput.fromNative(ctx.avaxAssetID, amount, [EWOQ])]);
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
    return (await xApi.issueSignedTx(tx.getSignedTx())).txID;
  }

  /** C → X: avalanchejs' evm.newExportTxFromBaseFee of `amount` nAVAX from ewoq's EVM account to its X- address. */
  async function exportToX(amount: bigint) {
    const nonce = await ethRead(node.url, "eth_getTransactionCount", [EWOQ_EVM_HEX, "latest"]);
    const baseFee = await baseFeeNavax();
    const tx = evm.newExportTxFromBaseFee(ctx, baseFee, amount, ctx.xBlockchainID, EWOQ_EVM, [EWOQ], nonce);
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
    const { txID } = await cApi.issueSignedTx(tx.getSignedTx());
    return { txID, tx, nonce, baseFee };
  }

  it("gives avalanchejs' Context.getContextFromURI the local network's IDs, asset and fees", async () => {
    expect(ctx).to.deep.include({
      networkID: LOCAL_NETWORK.networkId,
      hrp: LOCAL_NETWORK.hrp,
      xBlockchainID: LOCAL_NETWORK.xChainId,
      cBlockchainID: LOCAL_NETWORK.cChainId,
      avaxAssetID: LOCAL_NETWORK.nativeAsset.id,
      baseTxFee: LOCAL_NETWORK.txFee,
      createAssetTxFee: LOCAL_NETWORK.createAssetTxFee,
    });
  });

  describe("exchange chain", () => {
    it("avm getUTXOs returns ewoq's genesis UTXO in a form avalanchejs decodes: 300 000 000 AVAX owned by ewoq alone", async () => {
      const { utxos } = await xApi.getUTXOs({ addresses: [xAddress(EWOQ)] });
      expect(utxos).to.have.length(1);
      const utxo: Utxo = utxos[0]!;
      expect(utxo.getAssetId()).to.equal(ctx.avaxAssetID);
      expect(utxo.output).to.be.instanceOf(TransferOutput);
      const output = utxo.output as TransferOutput;
      expect(output.amount()).to.equal(LOCAL_TEST_KEY_X_BALANCE);
      expect(output.getLocktime()).to.equal(0n);
      expect(output.getThreshold()).to.equal(1);
      expect(output.getOwners().map((o) => xAddress(o))).to.deep.equal([xAddress(EWOQ)]);
    });

    it("a base tx built and signed by avalanchejs is accepted by avm.issueTx: the recipient gains the amount, ewoq pays it plus the tx fee", async () => {
      const recipient = randomShortId();
      const amount = 123_456_789n;
      const { utxos } = await xApi.getUTXOs({ addresses: [xAddress(EWOQ)] });
      const tx = avm.newBaseTx(ctx, [EWOQ], utxos, [TransferableOutput.fromNative(ctx.avaxAssetID, amount, [recipient])]);
      await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
      const { txID } = await xApi.issueSignedTx(tx.getSignedTx());

      expect(await xApi.getTxStatus({ txID })).to.deep.equal({ status: "Accepted" });
      expect(await xBalance(recipient)).to.equal(amount);
      expect(await xBalance(EWOQ)).to.equal(LOCAL_TEST_KEY_X_BALANCE - amount - ctx.baseTxFee);
    });

    it("avm getTx returns the issued transaction's exact bytes, which avalanchejs decodes", async () => {
      const { utxos } = await xApi.getUTXOs({ addresses: [xAddress(EWOQ)] });
      const tx = avm.newBaseTx(ctx, [EWOQ], utxos, [TransferableOutput.fromNative(ctx.avaxAssetID, 1_000n, [randomShortId()])]);
      await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
      const { txID } = await xApi.issueSignedTx(tx.getSignedTx());

      const fetched = await xApi.getTx({ txID });
      expect(utils.bufferToHex(fetched.toBytes())).to.equal(utils.bufferToHex(tx.getSignedTx().toBytes()));
    });
  });

  describe("exchange chain → contract chain", () => {
    it("avm.newExportTx is accepted and leaves an atomic UTXO that avalanchejs' EVMApi getUTXOs (sourceChain X) decodes", async () => {
      const amount = 5n * AVAX;
      const txID = await exportToC(amount);

      expect(await xApi.getTxStatus({ txID })).to.deep.equal({ status: "Accepted" });
      expect(await xBalance(EWOQ)).to.equal(LOCAL_TEST_KEY_X_BALANCE - amount - ctx.baseTxFee);
      const { utxos } = await cApi.getUTXOs({ addresses: [cAddress(EWOQ)], sourceChain: "X" });
      expect(utxos).to.have.length(1);
      const utxo: Utxo = utxos[0]!;
      expect(utxo.utxoId.txID.toString()).to.equal(txID);
      expect(utxo.getAssetId()).to.equal(ctx.avaxAssetID);
      expect((utxo.output as TransferOutput).amount()).to.equal(amount);
      expect((utxo.output as TransferOutput).getOwners().map((o) => cAddress(o))).to.deep.equal([cAddress(EWOQ)]);
    });

    it("evm.newImportTx paying the fee from the imported AVAX is accepted: the destination gets 10^9 wei per nAVAX left", async () => {
      const amount = 5n * AVAX;
      await exportToC(amount);
      const destination = utils.bufferToHex(secp256k1.publicKeyToEthAddress(secp256k1.getPublicKey(secp256k1.randomPrivateKey())));
      const { utxos } = await cApi.getUTXOs({ addresses: [cAddress(EWOQ)], sourceChain: "X" });

      // the fee avalanchejs computes for this import: gas (bytes + 1000 per signature + 10 000) × base fee
      const baseFee = await baseFeeNavax();
      const gas = utils.costCorethTx(evm.newImportTx(ctx, utils.hexToBuffer(destination), [EWOQ], utxos, ctx.xBlockchainID, baseFee));
      const fee = gas * baseFee;
      const tx = evm.newImportTx(ctx, utils.hexToBuffer(destination), [EWOQ], utxos, ctx.xBlockchainID, fee);
      await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
      const { txID } = await cApi.issueSignedTx(tx.getSignedTx());

      expect(await cApi.getAtomicTxStatus(txID)).to.include({ status: "Accepted" });
      expect(await evmBalance(destination)).to.equal((amount - fee) * NAVAX_TO_WEI);
      expect((await cApi.getUTXOs({ addresses: [cAddress(EWOQ)], sourceChain: "X" })).utxos).to.have.length(0);
    });
  });

  describe("contract chain → exchange chain", () => {
    it("evm.newExportTxFromBaseFee is accepted: ewoq's EVM balance drops by (amount + fee) × 10^9 wei and its nonce by one", async () => {
      const amount = 2n * AVAX;
      const before = await evmBalance(EWOQ_EVM_HEX);
      const { txID, tx, nonce, baseFee } = await exportToX(amount);

      const fee = utils.costCorethTx(tx) * baseFee;
      expect(await cApi.getAtomicTxStatus(txID)).to.include({ status: "Accepted" });
      expect(await evmBalance(EWOQ_EVM_HEX)).to.equal(before - (amount + fee) * NAVAX_TO_WEI);
      expect(await ethRead(node.url, "eth_getTransactionCount", [EWOQ_EVM_HEX, "latest"])).to.equal(nonce + 1n);
      const { utxos } = await xApi.getUTXOs({ addresses: [xAddress(EWOQ)], sourceChain: "C" });
      expect(utxos.map((u) => u.utxoId.txID.toString())).to.deep.equal([txID]);
    });

    it("avm.newImportTx of the exported UTXO is accepted: ewoq's X balance gains the amount minus the tx fee", async () => {
      const amount = 2n * AVAX;
      await exportToX(amount);
      const { utxos } = await xApi.getUTXOs({ addresses: [xAddress(EWOQ)], sourceChain: "C" });
      const tx = avm.newImportTx(ctx, ctx.cBlockchainID, utxos, [EWOQ], [EWOQ]);
      await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
      const { txID } = await xApi.issueSignedTx(tx.getSignedTx());

      expect(await xApi.getTxStatus({ txID })).to.deep.equal({ status: "Accepted" });
      expect(await xBalance(EWOQ)).to.equal(LOCAL_TEST_KEY_X_BALANCE + amount - ctx.baseTxFee);
      expect((await xApi.getUTXOs({ addresses: [xAddress(EWOQ)], sourceChain: "C" })).utxos).to.have.length(0);
    });

    it("avax getAtomicTx returns the issued export's exact bytes, which avalanchejs decodes", async () => {
      const { txID, tx } = await exportToX(1n * AVAX);
      const { tx: fetched } = await cApi.getAtomicTx({ txID });
      expect(utils.bufferToHex(fetched.toBytes())).to.equal(utils.bufferToHex(tx.getSignedTx().toBytes()));
    });
  });
});
