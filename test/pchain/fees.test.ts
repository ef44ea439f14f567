import { expect } from "chai";
// avalanchejs 5.2 is the second opinion: its own complexity and fee calculators, on transactions
// its own Etna builders made offline.
import { BigIntPr, Context, Id, Int, OutputOwners, TransferableOutput, TransferOutput, type UnsignedTx, Utxo, avaxSerial, pvm, secp256k1, utils } from "@avalabs/avalanchejs";
import { LOCAL_NETWORK } from "../../src/network/constants";
import { SharedMemory } from "../../src/atomic/shared-memory";
import {
  advanceGasState,
  consumeGas,
  decodePUnsignedTx,
  type Dimensions,
  gasPrice,
  GenesisError,
  InsufficientCapacityError,
  LOCAL_DYNAMIC_FEE_CONFIG,
  PlatformChain,
  platformGenesis,
  parsePlatformGenesisJson,
  PTypeId,
  type PUnsignedTx,
  toGas,
  txComplexity,
  UNSCHEDULED_ACTIVATION_TIME,
} from "../../src/pchain";
import { UINT64_MAX } from "../../src/encoding";

const CTX: Context.Context = {
  networkID: LOCAL_NETWORK.networkId,
  hrp: LOCAL_NETWORK.hrp,
  xBlockchainID: LOCAL_NETWORK.xChainId,
  pBlockchainID: "11111111111111111111111111111111LpoYY",
  cBlockchainID: LOCAL_NETWORK.cChainId,
  avaxAssetID: LOCAL_NETWORK.nativeAsset.id,
  baseTxFee: LOCAL_NETWORK.txFee,
  createAssetTxFee: LOCAL_NETWORK.createAssetTxFee,
  platformFeeConfig: {
    weights: { 0: 1, 1: 1_000, 2: 1_000, 3: 4 },
    maxCapacity: 1_000_000n,
    maxPerSecond: 100_000n,
    targetPerSecond: 50_000n,
    minPrice: 1n,
    excessConversionConstant: 2_164_043n,
  },
};
const FEE_STATE: pvm.FeeState = { capacity: 1_000_000n, excess: 0n, price: 3n, timestamp: "" };

const key = () => secp256k1.randomPrivateKey();
const shortId = (k: Uint8Array) => secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(k));
const [A, B, C] = [shortId(key()), shortId(key()), shortId(key())];

/** A UTXO of `amount` nAVAX owned by `threshold` of `owners`, as avalanchejs models it. */
function utxo(index: number, amount: bigint, owners: Uint8Array[], threshold = 1): Utxo {
  const txId = new Uint8Array(32).fill(index + 1);
  return new Utxo(new avaxSerial.UTXOID(new Id(txId), new Int(index)), Id.fromString(CTX.avaxAssetID), new TransferOutput(new BigIntPr(amount), OutputOwners.fromNative(owners, 0n, threshold)));
}

/** Our reading of the avalanchejs transaction's bytes. */
const ours = (tx: UnsignedTx): PUnsignedTx => decodePUnsignedTx(tx.toBytes());
/** avalanchejs' complexity, by dimension name. */
function theirs(tx: UnsignedTx): Dimensions {
  const d = pvm.getTxComplexity(tx.getTx());
  return { bandwidth: BigInt(d[0]), dbRead: BigInt(d[1]), dbWrite: BigInt(d[2]), compute: BigInt(d[3]) };
}

describe("pchain fees: complexity (the same as avalanchejs 5's getTxComplexity)", () => {
  const cases: [string, () => UnsignedTx, number][] = [
    [
      "an ExportTx spending one UTXO, with change and one exported output",
      () =>
        pvm.newExportTx({ feeState: FEE_STATE, fromAddressesBytes: [A], utxos: [utxo(0, 10_000_000_000n, [A])], destinationChainId: CTX.xBlockchainID, outputs: [TransferableOutput.fromNative(CTX.avaxAssetID, 1_000n, [B])] }, CTX),
      PTypeId.ExportTx,
    ],
    [
      "an ImportTx of two atomic UTXOs, one of them 2-of-3 (two signatures)",
      () =>
        pvm.newImportTx(
          { feeState: FEE_STATE, fromAddressesBytes: [A, B], sourceChainId: CTX.xBlockchainID, toAddressesBytes: [C], utxos: [utxo(0, 5_000_000n, [A]), utxo(1, 7_000_000n, [A, B, C], 2)] },
          CTX,
        ),
      PTypeId.ImportTx,
    ],
    [
      "a BaseTx with a memo and an output owned by three addresses",
      () =>
        pvm.newBaseTx(
          { feeState: FEE_STATE, fromAddressesBytes: [A], utxos: [utxo(0, 3_000_000n, [A]), utxo(1, 4_000_000n, [A])], outputs: [TransferableOutput.fromNative(CTX.avaxAssetID, 6_000_000n, [A, B, C], 0n, 2)], memo: new TextEncoder().encode("rent") },
          CTX,
        ),
      PTypeId.BaseTx,
    ],
  ];

  for (const [name, build, typeId] of cases) {
    it(`${name}: every dimension, the gas and the fee`, () => {
      const tx = build();
      const parsed = ours(tx);
      expect(parsed.typeId).to.equal(typeId);
      const complexity = txComplexity(parsed);
      expect(complexity).to.deep.equal(theirs(tx));
      const gas = toGas(complexity, LOCAL_DYNAMIC_FEE_CONFIG.weights);
      expect(gas * FEE_STATE.price).to.equal(pvm.calculateFee(tx.getTx(), CTX.platformFeeConfig.weights, FEE_STATE.price));
    });
  }

  it("counts an ExportTx's parts as the reference documents them (58 + 36 base bytes, 60 + 20 per address an output, 92 + 69 per signature an input)", () => {
    const tx = ours(cases[0]![1]());
    if (tx.typeId !== PTypeId.ExportTx) throw new Error("expected an ExportTx");
    expect(tx.inputs).to.have.length(1);
    expect(tx.outputs).to.have.length(1);
    expect(txComplexity(tx)).to.deep.equal({ bandwidth: 58n + 36n + 2n * (60n + 20n) + (92n + 69n), dbRead: 1n, dbWrite: 3n, compute: 200n });
  });
});

describe("pchain fees: the gas state and price (ACP-103)", () => {
  const K = LOCAL_DYNAMIC_FEE_CONFIG.excessConversionConstant;

  it("the price is minPrice with no excess, and follows minPrice · e^(excess/K) rounded down", () => {
    expect(gasPrice(1n, 0n, K)).to.equal(1n);
    expect(gasPrice(1n, K, K)).to.equal(2n); // e = 2.718…
    expect(gasPrice(1_000n, K, K)).to.equal(2_718n);
    expect(gasPrice(1_000_000n, 3n * K, K)).to.equal(BigInt(Math.floor(1_000_000 * Math.exp(3))));
  });

  it("the local config doubles the price after 30 s of full blocks: (max − target) · 30 s of excess", () => {
    expect(gasPrice(1_000n, 50_000n * 30n, K)).to.equal(1_999n);
  });

  it("a price that would not fit in a uint64 is 2^64 − 1", () => {
    expect(gasPrice(1n, 100n * K, K)).to.equal(UINT64_MAX);
  });

  it("time refills the capacity up to maxCapacity and decays the excess down to 0", () => {
    expect(advanceGasState({ capacity: 0n, excess: 120_000n }, LOCAL_DYNAMIC_FEE_CONFIG, 2n)).to.deep.equal({ capacity: 200_000n, excess: 20_000n });
    expect(advanceGasState({ capacity: 950_000n, excess: 20_000n }, LOCAL_DYNAMIC_FEE_CONFIG, 1n)).to.deep.equal({ capacity: 1_000_000n, excess: 0n });
    expect(advanceGasState({ capacity: 5n, excess: 5n }, LOCAL_DYNAMIC_FEE_CONFIG, -3n)).to.deep.equal({ capacity: 5n, excess: 5n });
  });

  it("consuming gas takes it from the capacity and adds it to the excess; more than the capacity is refused", () => {
    expect(consumeGas({ capacity: 10_000n, excess: 7n }, 4_000n)).to.deep.equal({ capacity: 6_000n, excess: 4_007n });
    expect(() => consumeGas({ capacity: 10n, excess: 0n }, 11n)).to.throw(InsufficientCapacityError, "insufficient capacity: capacity (10) < gas (11)");
  });
});

describe("pchain fees: the rule follows the upgrade schedule's Etna time", () => {
  const ETNA = 2_000_000_000n;
  function chainAt(time: bigint): PlatformChain {
    return new PlatformChain({ network: LOCAL_NETWORK, sharedMemory: new SharedMemory(), genesis: platformGenesis(LOCAL_NETWORK, { fees: { etnaTime: ETNA } }), clock: () => time });
  }
  const tx = () => ours(exportTx());
  const exportTx = () =>
    pvm.newExportTx({ feeState: FEE_STATE, fromAddressesBytes: [A], utxos: [utxo(0, 10_000_000_000n, [A])], destinationChainId: CTX.xBlockchainID, outputs: [TransferableOutput.fromNative(CTX.avaxAssetID, 1_000n, [B])] }, CTX);

  it("a block before Etna owes the fixed fee, a block from Etna gas × price", () => {
    expect(chainAt(ETNA - 1n).quoteFee(tx())).to.deep.equal({ rule: "static", fee: LOCAL_NETWORK.txFee });
    const quote = chainAt(ETNA).quoteFee(tx());
    expect(quote.rule).to.equal("dynamic");
    expect(quote.fee).to.equal(toGas(txComplexity(tx()), LOCAL_DYNAMIC_FEE_CONFIG.weights));
  });

  it("without an Etna time the chain runs the dynamic rule, as the reference's local network (Etna initially active)", () => {
    const chain = new PlatformChain({ network: LOCAL_NETWORK, sharedMemory: new SharedMemory(), genesis: platformGenesis(LOCAL_NETWORK) });
    expect(chain.quoteFee(tx()).rule).to.equal("dynamic");
    expect(chain.feeSchedule().dynamicFeeConfig).to.deep.equal(LOCAL_DYNAMIC_FEE_CONFIG);
  });
});

describe("pchain fees: the genesis file's fee keys (parsePlatformGenesisJson)", () => {
  it("reads etnaTime (RFC 3339 as in the reference's upgrade file, or Unix seconds) and dynamicFeeConfig (the reference's JSON)", () => {
    const config = { weights: [1, 2, 3, 4], maxCapacity: 10, maxPerSecond: 5, targetPerSecond: 2, minPrice: 7, excessConversionConstant: 100 };
    expect(parsePlatformGenesisJson({ etnaTime: "9999-12-01T00:00:00Z", dynamicFeeConfig: config }, LOCAL_NETWORK).fees).to.deep.equal({
      etnaTime: UNSCHEDULED_ACTIVATION_TIME,
      dynamicFeeConfig: { weights: { bandwidth: 1n, dbRead: 2n, dbWrite: 3n, compute: 4n }, maxCapacity: 10n, maxPerSecond: 5n, targetPerSecond: 2n, minPrice: 7n, excessConversionConstant: 100n },
    });
    expect(parsePlatformGenesisJson({ etnaTime: 1_700_000_000 }, LOCAL_NETWORK)).to.deep.equal({ fees: { etnaTime: 1_700_000_000n } });
    expect(parsePlatformGenesisJson({}, LOCAL_NETWORK)).to.deep.equal({});
  });

  it("names a wrong fee key", () => {
    expect(() => parsePlatformGenesisJson({ etnaTime: "soon" }, LOCAL_NETWORK)).to.throw(GenesisError, /^etnaTime: expected an RFC 3339 time/);
    expect(() => parsePlatformGenesisJson({ dynamicFeeConfig: { weights: [1, 2, 3] } }, LOCAL_NETWORK)).to.throw(GenesisError, "dynamicFeeConfig.weights: expected 4 integers");
    expect(() => parsePlatformGenesisJson({ dynamicFeeConfig: { weights: [1, 2, 3, 4], maxCapacity: -1 } }, LOCAL_NETWORK)).to.throw(GenesisError, "dynamicFeeConfig.maxCapacity: expected a non-negative integer, got -1");
  });
});
