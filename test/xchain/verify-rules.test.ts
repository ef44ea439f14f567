import { sha256 } from "@noble/hashes/sha2.js";
import { expect } from "chai";
import fc from "fast-check";
import { encodeCb58, formatChainAddress } from "../../src/encoding";
import {
  type Credential,
  type CredentialTypeId,
  decodeUtxo,
  encodeSignedTx,
  encodeUnsignedTx,
  encodeUtxo,
  type FxOperation,
  type Input,
  type Output,
  type OutputOwners,
  type ParsedSignedTx,
  parseSignedTx,
  shortIdFromPrivateKey,
  signHash,
  type TransferableInput,
  type TransferableOutput,
  TypeId,
  type UnsignedTx,
  type Utxo,
  utxoId,
} from "../../src/utxo/codec";
import { TxRejectedError } from "../../src/xchain/vm/errors";
import { type VerificationContext, verifySemantics } from "../../src/xchain/vm/verify";

/*
 * The reference node's semantic rules for exchange-chain transactions (avalanchego
 * vms/avm/txs/executor/semantic_verifier.go and the fxs' VerifyTransfer / VerifyOperation /
 * VerifyCredentials), stated against verifySemantics with a small in-memory chain state.
 * Each refusal asserts the rule and the whole message: the node's text, then the detail.
 */

// ---------------------------------------------------------------------------------------
// A small chain state
// ---------------------------------------------------------------------------------------

const key = (n: number): Uint8Array => {
  const k = new Uint8Array(32);
  k[30] = 0x42;
  k[31] = n;
  return k;
};
const ALICE_KEY = key(1);
const BOB_KEY = key(2);
const CAROL_KEY = key(3);
const ALICE = shortIdFromPrivateKey(ALICE_KEY);
const BOB = shortIdFromPrivateKey(BOB_KEY);
const CAROL = shortIdFromPrivateKey(CAROL_KEY);
const addr = (shortId: Uint8Array): string => formatChainAddress(shortId, "local", "X");
const cb58 = encodeCb58;

const id = (...lead: number[]): Uint8Array => {
  const out = new Uint8Array(32);
  out.set(lead);
  return out;
};
const THIS_CHAIN = id(0xaa);
const PEER_CHAIN = id(0xcc);
const STRANGER_CHAIN = id(0xdd);
const NOW = 1_000n;

/** Assets by feature extension: AVAX (secp256k1fx), an NFT family (nftfx), a property (propertyfx), one with all three. */
const AVAX = id(1);
const NFT = id(2);
const PROP = id(3);
const MULTI = id(4);
const NFT_PROP = id(5);
/** An accepted transaction that created no asset. */
const PLAIN_TX = id(6);
/** Nothing has this ID. */
const NOWHERE = id(7);

const SOURCE_TX = id(0x10);

const owners = (addresses: Uint8Array[], threshold = 1, locktime = 0n): OutputOwners => ({
  locktime,
  threshold,
  addresses: [...addresses].sort((a, b) => Buffer.compare(a, b)),
});

const sorted = (...addresses: Uint8Array[]): Uint8Array[] => [...addresses].sort((a, b) => Buffer.compare(a, b));

interface State {
  utxos: Utxo[];
  atomic: { source: Uint8Array; utxo: Utxo | Uint8Array }[];
  now?: bigint;
}

const hexOf = (b: Uint8Array): string => Buffer.from(b).toString("hex");

function context(state: State): VerificationContext {
  const utxos = new Map(state.utxos.map((u) => [hexOf(utxoId(u.txId, u.outputIndex)), u]));
  const atomic = new Map<string, Uint8Array>();
  for (const { source, utxo } of state.atomic) {
    if (utxo instanceof Uint8Array) atomic.set(hexOf(source) + hexOf(utxoId(SOURCE_TX, 0)), utxo);
    else atomic.set(hexOf(source) + hexOf(utxoId(utxo.txId, utxo.outputIndex)), encodeUtxo(utxo));
  }
  const assets = new Map<string, Set<number>>([
    [hexOf(AVAX), new Set([0])],
    [hexOf(NFT), new Set([1])],
    [hexOf(PROP), new Set([2])],
    [hexOf(MULTI), new Set([0, 1, 2])],
    [hexOf(NFT_PROP), new Set([1, 2])],
  ]);
  return {
    chainId: THIS_CHAIN,
    now: state.now ?? NOW,
    getUtxo: (inputId) => utxos.get(hexOf(inputId)),
    getAsset: (assetId) => {
      const fxIndices = assets.get(hexOf(assetId));
      if (fxIndices !== undefined) return { fxIndices };
      return hexOf(assetId) === hexOf(PLAIN_TX) ? "not-an-asset" : undefined;
    },
    isPeerChain: (chainId) => hexOf(chainId) === hexOf(PEER_CHAIN),
    getAtomicUtxo: (source, inputId) => atomic.get(hexOf(source) + hexOf(inputId)),
    formatAddress: addr,
  };
}

// ---------------------------------------------------------------------------------------
// Building and signing transactions
// ---------------------------------------------------------------------------------------

function utxo(outputIndex: number, assetId: Uint8Array, output: Output, txId = SOURCE_TX): Utxo {
  return { txId, outputIndex, assetId, output };
}
const secpOut = (amount: bigint, o: OutputOwners): Output => ({ typeId: TypeId.Secp256k1TransferOutput, amount, ...o });

function transferIn(from: Utxo, amount: bigint, signatureIndices: number[] = [0], assetId = from.assetId): TransferableInput {
  return { txId: from.txId, outputIndex: from.outputIndex, assetId, input: { typeId: TypeId.Secp256k1TransferInput, amount, signatureIndices } };
}
function transferOut(assetId: Uint8Array, amount: bigint, to: Uint8Array[] = [BOB]): TransferableOutput {
  return { assetId, output: { typeId: TypeId.Secp256k1TransferOutput, amount, ...owners(to) } };
}

const base = { networkId: 12345, blockchainId: THIS_CHAIN, memo: new Uint8Array(0) };
function baseTx(inputs: TransferableInput[], outputs: TransferableOutput[] = []): UnsignedTx {
  return { typeId: TypeId.BaseTx, ...base, inputs, outputs };
}

interface Cred {
  typeId: CredentialTypeId;
  keys: Uint8Array[];
}
const secpCred = (...keys: Uint8Array[]): Cred => ({ typeId: TypeId.Secp256k1Credential, keys });
const nftCred = (...keys: Uint8Array[]): Cred => ({ typeId: TypeId.NftCredential, keys });
const propCred = (...keys: Uint8Array[]): Cred => ({ typeId: TypeId.PropertyCredential, keys });

/** Sign like a wallet (one signature per key, over sha256 of the unsigned bytes), encode, parse like the node. */
function signed(tx: UnsignedTx, creds: Cred[]): ParsedSignedTx {
  const hash = sha256(encodeUnsignedTx(tx));
  const credentials: Credential[] = creds.map((c) => ({ typeId: c.typeId, signatures: c.keys.map((k) => signHash(hash, k)) }));
  return parseSignedTx(encodeSignedTx({ unsignedTx: tx, credentials }));
}

function accepts(tx: UnsignedTx, creds: Cred[], state: State): void {
  expect(() => verifySemantics(signed(tx, creds), context(state))).not.to.throw();
}

/** The refusal of a parsed transaction: asserts the rule and the whole message. */
function refusal(parsed: ParsedSignedTx, state: State, rule: string, message: string): void {
  let thrown: unknown;
  try {
    verifySemantics(parsed, context(state));
  } catch (error) {
    thrown = error;
  }
  expect(thrown, "expected verifySemantics to refuse the transaction").to.be.instanceOf(TxRejectedError);
  const error = thrown as TxRejectedError;
  expect(error.rule, error.message).to.equal(rule);
  expect(error.message).to.equal(message);
}
const refuses = (tx: UnsignedTx, creds: Cred[], state: State, rule: string, message: string): void => refusal(signed(tx, creds), state, rule, message);

// Alice's AVAX and the UTXOs of the other feature extensions
const ALICE_AVAX = utxo(0, AVAX, secpOut(500n, owners([ALICE])));
const ALICE_MULTI = utxo(1, MULTI, secpOut(70n, owners([ALICE])));
const ALICE_AVAX_MINT = utxo(2, AVAX, { typeId: TypeId.Secp256k1MintOutput, ...owners([ALICE]) });
const ALICE_NFT_MINT = utxo(3, NFT, { typeId: TypeId.NftMintOutput, groupId: 7, ...owners([ALICE]) });
const ALICE_NFT = utxo(4, NFT, { typeId: TypeId.NftTransferOutput, groupId: 7, payload: Uint8Array.of(1, 2, 3), ...owners([ALICE]) });
const ALICE_PROP_MINT = utxo(5, PROP, { typeId: TypeId.PropertyMintOutput, ...owners([ALICE]) });
const ALICE_PROP = utxo(6, PROP, { typeId: TypeId.PropertyOwnedOutput, ...owners([ALICE]) });
const ALICE_NFT_PROP_MINT = utxo(7, NFT_PROP, { typeId: TypeId.NftMintOutput, groupId: 7, ...owners([ALICE]) });
/** Two-of-three multisig AVAX of Alice, Bob and Carol. */
const SHARED_AVAX = utxo(8, AVAX, secpOut(900n, owners([ALICE, BOB, CAROL], 2)));
const STATE: State = {
  utxos: [ALICE_AVAX, ALICE_MULTI, ALICE_AVAX_MINT, ALICE_NFT_MINT, ALICE_NFT, ALICE_PROP_MINT, ALICE_PROP, ALICE_NFT_PROP_MINT, SHARED_AVAX],
  atomic: [],
};
const ref = (u: Utxo): string => `${cb58(u.txId)}:${u.outputIndex}`;
/** Position of an address among sorted owners. */
const indexOf = (o: OutputOwners, a: Uint8Array): number => o.addresses.findIndex((x) => Buffer.compare(x, a) === 0);

function operationTx(ops: { assetId: Uint8Array; spends: Utxo[]; operation: FxOperation }[], inputs: TransferableInput[] = []): UnsignedTx {
  return {
    typeId: TypeId.OperationTx,
    ...base,
    inputs,
    outputs: [],
    operations: ops.map((o) => ({ assetId: o.assetId, utxoIds: o.spends.map((u) => ({ txId: u.txId, outputIndex: u.outputIndex })), operation: o.operation })),
  };
}
const sig = (...signatureIndices: number[]): Input => ({ signatureIndices });

// ---------------------------------------------------------------------------------------

describe("xchain verifySemantics: the reference node's semantic rules", () => {
  describe("transfer inputs spend existing UTXOs of their asset", () => {
    it("accepts a BaseTx whose input spends an existing UTXO with its owner's signature", () => {
      accepts(baseTx([transferIn(ALICE_AVAX, 500n)], [transferOut(AVAX, 400n)]), [secpCred(ALICE_KEY)], STATE);
    });

    it("refuses an input whose UTXO does not exist: not found, naming the UTXO as txID:index", () => {
      const gone = utxo(9, AVAX, secpOut(500n, owners([ALICE])));
      refuses(
        baseTx([transferIn(gone, 500n)]),
        [secpCred(ALICE_KEY)],
        STATE,
        "missing-utxo",
        `not found: BaseTx.inputs[0] spends UTXO ${ref(gone)}, which does not exist (already spent, or never created)`,
      );
    });

    it("names the failing input by its position (the second input's missing UTXO is inputs[1])", () => {
      const gone = utxo(9, AVAX, secpOut(500n, owners([ALICE])));
      refuses(
        baseTx([transferIn(ALICE_AVAX, 500n), transferIn(gone, 500n)]),
        [secpCred(ALICE_KEY), secpCred(ALICE_KEY)],
        STATE,
        "missing-utxo",
        `not found: BaseTx.inputs[1] spends UTXO ${ref(gone)}, which does not exist (already spent, or never created)`,
      );
    });

    it("refuses an input naming another asset than its UTXO holds", () => {
      refuses(
        baseTx([transferIn(ALICE_AVAX, 500n, [0], MULTI)]),
        [secpCred(ALICE_KEY)],
        STATE,
        "asset-mismatch",
        `asset IDs in the input don't match the utxo: BaseTx.inputs[0] names asset ${cb58(MULTI)}, the UTXO holds ${cb58(AVAX)}`,
      );
    });

    it("refuses a transfer input that spends a mint output: wrong utxo type", () => {
      refuses(
        baseTx([transferIn(ALICE_AVAX_MINT, 0n)]),
        [secpCred(ALICE_KEY)],
        STATE,
        "wrong-utxo-type",
        "wrong utxo type: BaseTx.inputs[0] spends a Secp256k1MintOutput, a transfer input can only spend a Secp256k1TransferOutput",
      );
    });

    it("refuses an input whose amount differs from its UTXO's", () => {
      refuses(
        baseTx([transferIn(ALICE_AVAX, 499n)]),
        [secpCred(ALICE_KEY)],
        STATE,
        "amount-mismatch",
        "utxo amount and input amount are not equal: 500 != 499 (BaseTx.inputs[0])",
      );
    });

    it("refuses an input signed with an nftfx credential: nftfx cannot transfer, even for an asset that has nftfx", () => {
      refuses(
        baseTx([transferIn(ALICE_MULTI, 70n)]),
        [nftCred(ALICE_KEY)],
        STATE,
        "cant-transfer",
        "cant transfer with this fx: BaseTx.inputs[0] is signed with a nftfx credential, which cannot authorize transfers",
      );
    });

    it("refuses an input signed with a propertyfx credential: propertyfx cannot transfer either", () => {
      refuses(
        baseTx([transferIn(ALICE_MULTI, 70n)]),
        [propCred(ALICE_KEY)],
        STATE,
        "cant-transfer",
        "cant transfer with this fx: BaseTx.inputs[0] is signed with a propertyfx credential, which cannot authorize transfers",
      );
    });

    it("refuses an input whose credential's fx the asset was not created with: incompatible feature extension", () => {
      refuses(
        baseTx([transferIn(ALICE_AVAX, 500n)]),
        [nftCred(ALICE_KEY)],
        STATE,
        "incompatible-fx",
        `incompatible feature extension: BaseTx.inputs[0] uses nftfx with asset ${cb58(AVAX)}, which was created for secp256k1fx`,
      );
    });
  });

  describe("outputs name assets created with secp256k1fx", () => {
    it("refuses an output of an asset that does not exist: not found", () => {
      refuses(
        baseTx([transferIn(ALICE_AVAX, 500n)], [transferOut(AVAX, 1n), transferOut(NOWHERE, 1n)]),
        [secpCred(ALICE_KEY)],
        STATE,
        "unknown-asset",
        `not found: BaseTx.outputs[1] uses asset ${cb58(NOWHERE)}, which does not exist`,
      );
    });

    it("refuses an output whose asset ID is a transaction that created no asset: not an asset", () => {
      refuses(
        baseTx([transferIn(ALICE_AVAX, 500n)], [transferOut(PLAIN_TX, 1n)]),
        [secpCred(ALICE_KEY)],
        STATE,
        "not-an-asset",
        `not an asset: BaseTx.outputs[0] uses ${cb58(PLAIN_TX)}, a transaction that created no asset`,
      );
    });

    it("refuses a secp256k1fx output of an asset created only for nftfx and propertyfx, listing the asset's fxs", () => {
      refuses(
        baseTx([transferIn(ALICE_AVAX, 500n)], [transferOut(NFT_PROP, 1n)]),
        [secpCred(ALICE_KEY)],
        STATE,
        "incompatible-fx",
        `incompatible feature extension: BaseTx.outputs[0] uses secp256k1fx with asset ${cb58(NFT_PROP)}, which was created for nftfx, propertyfx`,
      );
    });

    it("checks the outputs of a CreateAssetTx's base fields too", () => {
      const tx: UnsignedTx = {
        typeId: TypeId.CreateAssetTx,
        ...base,
        inputs: [transferIn(ALICE_AVAX, 500n)],
        outputs: [transferOut(NOWHERE, 1n)],
        name: "Thing",
        symbol: "THG",
        denomination: 0,
        initialStates: [],
      };
      refuses(tx, [secpCred(ALICE_KEY)], STATE, "unknown-asset", `not found: CreateAssetTx.outputs[0] uses asset ${cb58(NOWHERE)}, which does not exist`);
    });
  });

  describe("credentials: locktime, threshold, signature indices and signatures (secp256k1fx VerifyCredentials)", () => {
    it("refuses spending an output whose locktime is after the chain's time", () => {
      const locked = utxo(20, AVAX, secpOut(5n, owners([ALICE], 1, NOW + 1n)));
      refuses(
        baseTx([transferIn(locked, 5n)]),
        [secpCred(ALICE_KEY)],
        { ...STATE, utxos: [locked] },
        "timelocked",
        `output is time locked: BaseTx.inputs[0] spends an output locked until ${NOW + 1n} (Unix seconds); the chain's time is ${NOW}`,
      );
    });

    it("accepts spending an output whose locktime is exactly the chain's time", () => {
      const locked = utxo(20, AVAX, secpOut(5n, owners([ALICE], 1, NOW)));
      accepts(baseTx([transferIn(locked, 5n)]), [secpCred(ALICE_KEY)], { ...STATE, utxos: [locked] });
    });

    it("refuses more signature indices than the output's threshold: more signers than expected", () => {
      const o = SHARED_AVAX.output as OutputOwners;
      refuses(
        baseTx([transferIn(SHARED_AVAX, 900n, [0, 1, 2])]),
        [secpCred(...o.addresses.map((a) => [ALICE_KEY, BOB_KEY, CAROL_KEY][[ALICE, BOB, CAROL].findIndex((x) => Buffer.compare(x, a) === 0)]!))],
        STATE,
        "too-many-signers",
        "input has more signers than expected: BaseTx.inputs[0] gives 3 signature indices, the output's threshold is 2",
      );
    });

    it("refuses fewer signature indices than the output's threshold: less signers than expected", () => {
      const o = SHARED_AVAX.output as OutputOwners;
      refuses(
        baseTx([transferIn(SHARED_AVAX, 900n, [indexOf(o, ALICE)])]),
        [secpCred(ALICE_KEY)],
        STATE,
        "too-few-signers",
        "input has less signers than expected: BaseTx.inputs[0] gives 1 signature indices, the output's threshold is 2",
      );
    });

    it("accepts a two-of-three output spent with two of its owners' signatures in index order", () => {
      const o = SHARED_AVAX.output as OutputOwners;
      const pair = [
        { i: indexOf(o, ALICE), k: ALICE_KEY },
        { i: indexOf(o, CAROL), k: CAROL_KEY },
      ].sort((a, b) => a.i - b.i);
      accepts(baseTx([transferIn(SHARED_AVAX, 900n, pair.map((p) => p.i))]), [secpCred(...pair.map((p) => p.k))], STATE);
    });

    it("refuses a credential whose signature count differs from the input's indices", () => {
      refuses(
        baseTx([transferIn(ALICE_AVAX, 500n)]),
        [secpCred(ALICE_KEY, ALICE_KEY)],
        STATE,
        "signers-mismatch",
        "input expected a different number of signers than provided in the credential: BaseTx.inputs[0] has 1 signature indices, its credential 2 signatures",
      );
    });

    it("refuses a signature index past the output's addresses", () => {
      refuses(
        baseTx([transferIn(ALICE_AVAX, 500n, [1])]),
        [secpCred(ALICE_KEY)],
        STATE,
        "signature-index-out-of-bounds",
        "input referenced a nonexistent address in the output: BaseTx.inputs[0] signature index 1, the output has 1 address(es)",
      );
    });

    it("refuses a signature by a key that does not own the output, naming both addresses", () => {
      refuses(
        baseTx([transferIn(ALICE_AVAX, 500n)]),
        [secpCred(BOB_KEY)],
        STATE,
        "wrong-signature",
        `wrong signature: expected signature from ${addr(ALICE)} but got from ${addr(BOB)} (BaseTx.inputs[0], signature 0)`,
      );
    });

    it("refuses a high-s (mutated) signature with the node's text", () => {
      const parsed = signed(baseTx([transferIn(ALICE_AVAX, 500n)]), [secpCred(ALICE_KEY)]);
      const s = parsed.tx.credentials[0]!.signatures[0]!;
      const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
      const low = BigInt("0x" + Buffer.from(s.subarray(32, 64)).toString("hex"));
      s.set(Buffer.from((n - low).toString(16).padStart(64, "0"), "hex"), 32);
      refusal(
        parsed,
        STATE,
        "invalid-signature",
        "signature was mutated from its original format: signature 0 for BaseTx.inputs[0]: signature has a high s value (the node accepts only low-s signatures)",
      );
    });

    it("refuses a signature that is not 65 bytes as an invalid signature", () => {
      const parsed = signed(baseTx([transferIn(ALICE_AVAX, 500n)]), [secpCred(ALICE_KEY)]);
      parsed.tx.credentials[0]!.signatures[0] = parsed.tx.credentials[0]!.signatures[0]!.slice(0, 64);
      refusal(parsed, STATE, "invalid-signature", "invalid signature: signature 0 for BaseTx.inputs[0]: signature: expected 65 bytes, got 64");
    });

    it("property: the number of signature indices must equal the threshold (more: too many, fewer: too few)", () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }), (threshold, count) => {
          const u = utxo(30, AVAX, secpOut(5n, owners([ALICE, BOB, CAROL], threshold)));
          const tx = baseTx([transferIn(u, 5n, [0, 1, 2].slice(0, count))]);
          const creds = [secpCred(...[ALICE_KEY, BOB_KEY, CAROL_KEY].slice(0, count))];
          let rule: string | undefined;
          try {
            verifySemantics(signed(tx, creds), context({ utxos: [u], atomic: [] }));
          } catch (error) {
            rule = (error as TxRejectedError).rule;
          }
          if (count > threshold) expect(rule).to.equal("too-many-signers");
          else if (count < threshold) expect(rule).to.equal("too-few-signers");
          else expect(rule).to.be.oneOf([undefined, "wrong-signature"]);
        }),
        { numRuns: 40 },
      );
    });
  });

  describe("ImportTx: UTXOs from a peer chain's shared memory", () => {
    const atomicUtxo = utxo(0, AVAX, secpOut(50n, owners([ALICE])), SOURCE_TX);
    const importTx = (sourceChain: Uint8Array, imported: TransferableInput[], inputs: TransferableInput[] = []): UnsignedTx => ({
      typeId: TypeId.ImportTx,
      ...base,
      inputs,
      outputs: [],
      sourceChain,
      importedInputs: imported,
    });
    const withAtomic: State = { ...STATE, atomic: [{ source: PEER_CHAIN, utxo: atomicUtxo }] };

    it("accepts an import of a UTXO in shared memory from a peer chain, signed by its owner", () => {
      accepts(importTx(PEER_CHAIN, [transferIn(atomicUtxo, 50n)]), [secpCred(ALICE_KEY)], withAtomic);
    });

    it("refuses an import from this chain itself: same chainID", () => {
      refuses(
        importTx(THIS_CHAIN, [transferIn(atomicUtxo, 50n)]),
        [secpCred(ALICE_KEY)],
        withAtomic,
        "same-chain",
        `same chainID: ImportTx.sourceChain is this chain (${cb58(THIS_CHAIN)}); atomic transfers go to another chain`,
      );
    });

    it("refuses an import from a chain the node does not know: failed to get subnet", () => {
      refuses(
        importTx(STRANGER_CHAIN, [transferIn(atomicUtxo, 50n)]),
        [secpCred(ALICE_KEY)],
        withAtomic,
        "unknown-chain",
        `failed to get subnet of "${cb58(STRANGER_CHAIN)}": ImportTx.sourceChain names no chain this node knows`,
      );
    });

    it("refuses an import of a UTXO that is not in shared memory", () => {
      refuses(
        importTx(PEER_CHAIN, [transferIn(atomicUtxo, 50n)]),
        [secpCred(ALICE_KEY)],
        STATE,
        "missing-atomic-utxo",
        `not found: ImportTx.importedInputs[0] imports UTXO ${ref(atomicUtxo)}, which is not in shared memory from chain ${cb58(PEER_CHAIN)} (never exported to this chain, or already imported)`,
      );
    });

    it("refuses an imported UTXO whose bytes do not decode: couldn't unmarshal UTXO", () => {
      const garbage = Uint8Array.of(0, 0, 1, 2, 3);
      let codecMessage = "";
      try {
        decodeUtxo(garbage);
      } catch (error) {
        codecMessage = (error as Error).message;
      }
      expect(codecMessage).not.to.equal("");
      refuses(
        importTx(PEER_CHAIN, [transferIn(atomicUtxo, 50n)]),
        [secpCred(ALICE_KEY)],
        { ...STATE, atomic: [{ source: PEER_CHAIN, utxo: garbage }] },
        "malformed",
        `couldn't unmarshal UTXO: ImportTx.importedInputs[0]: ${codecMessage}`,
      );
    });

    it("checks an imported input with the credential after the local inputs' credentials", () => {
      refuses(
        importTx(PEER_CHAIN, [transferIn(atomicUtxo, 50n)], [transferIn(ALICE_AVAX, 500n)]),
        [secpCred(ALICE_KEY), secpCred(BOB_KEY)],
        withAtomic,
        "wrong-signature",
        `wrong signature: expected signature from ${addr(ALICE)} but got from ${addr(BOB)} (ImportTx.importedInputs[0], signature 0)`,
      );
    });

    it("refuses an imported input whose amount differs from the atomic UTXO's", () => {
      refuses(
        importTx(PEER_CHAIN, [transferIn(atomicUtxo, 51n)]),
        [secpCred(ALICE_KEY)],
        withAtomic,
        "amount-mismatch",
        "utxo amount and input amount are not equal: 50 != 51 (ImportTx.importedInputs[0])",
      );
    });
  });

  describe("ExportTx: outputs to a peer chain", () => {
    const exportTx = (destinationChain: Uint8Array, exported: TransferableOutput[]): UnsignedTx => ({
      typeId: TypeId.ExportTx,
      ...base,
      inputs: [transferIn(ALICE_AVAX, 500n)],
      outputs: [],
      destinationChain,
      exportedOutputs: exported,
    });

    it("accepts an export of AVAX to a peer chain", () => {
      accepts(exportTx(PEER_CHAIN, [transferOut(AVAX, 400n)]), [secpCred(ALICE_KEY)], STATE);
    });

    it("refuses an export to this chain itself: same chainID", () => {
      refuses(
        exportTx(THIS_CHAIN, [transferOut(AVAX, 400n)]),
        [secpCred(ALICE_KEY)],
        STATE,
        "same-chain",
        `same chainID: ExportTx.destinationChain is this chain (${cb58(THIS_CHAIN)}); atomic transfers go to another chain`,
      );
    });

    it("refuses an export to a chain the node does not know", () => {
      refuses(
        exportTx(STRANGER_CHAIN, [transferOut(AVAX, 400n)]),
        [secpCred(ALICE_KEY)],
        STATE,
        "unknown-chain",
        `failed to get subnet of "${cb58(STRANGER_CHAIN)}": ExportTx.destinationChain names no chain this node knows`,
      );
    });

    it("refuses an exported output of an asset that does not exist", () => {
      refuses(
        exportTx(PEER_CHAIN, [transferOut(AVAX, 1n), transferOut(NOWHERE, 1n)]),
        [secpCred(ALICE_KEY)],
        STATE,
        "unknown-asset",
        `not found: ExportTx.exportedOutputs[1] uses asset ${cb58(NOWHERE)}, which does not exist`,
      );
    });
  });

  describe("OperationTx: each operation spends exactly one UTXO of its asset with a credential of its fx", () => {
    const secpMint = (mintOutput: OutputOwners, signatureIndices = [0]): FxOperation => ({
      typeId: TypeId.Secp256k1MintOperation,
      mintInput: sig(...signatureIndices),
      mintOutput,
      transferOutput: { amount: 10n, ...owners([BOB]) },
    });
    const nftMint = (groupId = 7): FxOperation => ({ typeId: TypeId.NftMintOperation, mintInput: sig(0), groupId, payload: Uint8Array.of(9), outputs: [owners([BOB])] });
    const nftTransfer = (groupId = 7, payload = Uint8Array.of(1, 2, 3), signatureIndices = [0]): FxOperation => ({
      typeId: TypeId.NftTransferOperation,
      input: sig(...signatureIndices),
      output: { groupId, payload, ...owners([BOB]) },
    });
    const propMint = (mintOutput: OutputOwners = owners([ALICE]), signatureIndices = [0]): FxOperation => ({
      typeId: TypeId.PropertyMintOperation,
      mintInput: sig(...signatureIndices),
      mintOutput,
      ownedOutput: owners([BOB]),
    });
    const propBurn = (...signatureIndices: number[]): FxOperation => ({ typeId: TypeId.PropertyBurnOperation, signatureIndices });

    describe("all operations", () => {
      it("refuses an operation whose UTXO does not exist, naming it by position", () => {
        const gone = utxo(9, AVAX, { typeId: TypeId.Secp256k1MintOutput, ...owners([ALICE]) });
        refuses(
          operationTx([{ assetId: AVAX, spends: [gone], operation: secpMint(owners([ALICE])) }]),
          [secpCred(ALICE_KEY)],
          STATE,
          "missing-utxo",
          `not found: OperationTx.operations[0].utxoIds[0] spends UTXO ${ref(gone)}, which does not exist (already spent, or never created)`,
        );
      });

      it("refuses an operation on another asset than its UTXO holds", () => {
        refuses(
          operationTx([{ assetId: MULTI, spends: [ALICE_AVAX_MINT], operation: secpMint(owners([ALICE])) }]),
          [secpCred(ALICE_KEY)],
          STATE,
          "asset-mismatch",
          `asset IDs in the input don't match the utxo: OperationTx.operations[0] is on asset ${cb58(MULTI)}, UTXO 0 holds ${cb58(AVAX)}`,
        );
      });

      it("refuses an operation of an fx its asset was not created with", () => {
        refuses(
          operationTx([{ assetId: NFT, spends: [ALICE_NFT_MINT], operation: secpMint(owners([ALICE])) }]),
          [secpCred(ALICE_KEY)],
          STATE,
          "incompatible-fx",
          `incompatible feature extension: OperationTx.operations[0] uses secp256k1fx with asset ${cb58(NFT)}, which was created for nftfx`,
        );
      });

      it("verifies each operation with its own credential, the ones after the inputs' (two operations, one input)", () => {
        accepts(
          operationTx(
            [
              { assetId: AVAX, spends: [ALICE_AVAX_MINT], operation: secpMint(owners([ALICE])) },
              { assetId: NFT, spends: [ALICE_NFT], operation: nftTransfer() },
            ],
            [transferIn(ALICE_AVAX, 500n)],
          ),
          [secpCred(ALICE_KEY), secpCred(ALICE_KEY), nftCred(ALICE_KEY)],
          STATE,
        );
      });

      it("verifies two operations without inputs, each with its own credential", () => {
        accepts(
          operationTx([
            { assetId: AVAX, spends: [ALICE_AVAX_MINT], operation: secpMint(owners([ALICE])) },
            { assetId: PROP, spends: [ALICE_PROP], operation: propBurn(0) },
          ]),
          [secpCred(ALICE_KEY), propCred(ALICE_KEY)],
          STATE,
        );
      });

      it("names the second operation operations[1] when it fails", () => {
        refuses(
          operationTx([
            { assetId: AVAX, spends: [ALICE_AVAX_MINT], operation: secpMint(owners([ALICE])) },
            { assetId: PROP, spends: [ALICE_PROP], operation: propBurn(0) },
          ]),
          [secpCred(ALICE_KEY), propCred(BOB_KEY)],
          STATE,
          "wrong-signature",
          `wrong signature: expected signature from ${addr(ALICE)} but got from ${addr(BOB)} (OperationTx.operations[1], signature 0)`,
        );
      });
    });

    describe("secp256k1fx mint", () => {
      it("accepts a mint that recreates the mint output, signed by the minter", () => {
        accepts(operationTx([{ assetId: AVAX, spends: [ALICE_AVAX_MINT], operation: secpMint(owners([ALICE])) }]), [secpCred(ALICE_KEY)], STATE);
      });

      it("refuses a mint with a credential of another fx: wrong credential type", () => {
        refuses(
          operationTx([{ assetId: MULTI, spends: [utxo(2, MULTI, ALICE_AVAX_MINT.output)], operation: secpMint(owners([ALICE])) }]),
          [nftCred(ALICE_KEY)],
          { ...STATE, utxos: [utxo(2, MULTI, ALICE_AVAX_MINT.output)] },
          "wrong-credential-type",
          "wrong credential type: OperationTx.operations[0] is a secp256k1fx operation, its credential is a NftCredential",
        );
      });

      it("refuses a mint that spends two UTXOs: wrong number of utxos", () => {
        const second = utxo(12, AVAX, { typeId: TypeId.Secp256k1MintOutput, ...owners([ALICE]) });
        refuses(
          operationTx([{ assetId: AVAX, spends: [ALICE_AVAX_MINT, second], operation: secpMint(owners([ALICE])) }]),
          [secpCred(ALICE_KEY)],
          { ...STATE, utxos: [...STATE.utxos, second] },
          "wrong-number-of-utxos",
          "wrong number of utxos for the operation: OperationTx.operations[0] spends 2 UTXOs, an operation spends exactly 1",
        );
      });

      it("refuses a mint that spends no UTXO", () => {
        refuses(
          operationTx([{ assetId: AVAX, spends: [], operation: secpMint(owners([ALICE])) }]),
          [secpCred(ALICE_KEY)],
          STATE,
          "wrong-number-of-utxos",
          "wrong number of utxos for the operation: OperationTx.operations[0] spends 0 UTXOs, an operation spends exactly 1",
        );
      });

      it("refuses a mint that spends a transfer output: wrong utxo type", () => {
        refuses(
          operationTx([{ assetId: AVAX, spends: [ALICE_AVAX], operation: secpMint(owners([ALICE])) }]),
          [secpCred(ALICE_KEY)],
          STATE,
          "wrong-utxo-type",
          "wrong utxo type: OperationTx.operations[0] spends a Secp256k1TransferOutput, it needs a Secp256k1MintOutput",
        );
      });

      const changed: [string, OutputOwners][] = [
        ["a later locktime", owners([ALICE], 1, 5n)],
        ["another threshold", owners([ALICE], 0)],
        ["an extra address after the same first one", { locktime: 0n, threshold: 1, addresses: [ALICE, BOB] }],
        ["another address", owners([BOB])],
      ];
      for (const [what, mintOutput] of changed) {
        it(`refuses a mint whose new mint output has ${what}: wrong mint output`, () => {
          refuses(
            operationTx([{ assetId: AVAX, spends: [ALICE_AVAX_MINT], operation: secpMint(mintOutput) }]),
            [secpCred(ALICE_KEY)],
            STATE,
            "wrong-mint-output",
            "wrong mint output created from the operation: OperationTx.operations[0].mintOutput must recreate the spent mint output's owners unchanged",
          );
        });
      }

      it("refuses a two-address mint output recreated with the second address changed", () => {
        const mint = utxo(13, AVAX, { typeId: TypeId.Secp256k1MintOutput, locktime: 0n, threshold: 1, addresses: sorted(ALICE, BOB) });
        const other = sorted(ALICE, BOB);
        other[1] = CAROL;
        refuses(
          operationTx([{ assetId: AVAX, spends: [mint], operation: secpMint({ locktime: 0n, threshold: 1, addresses: other }, [indexOf(mint.output as OutputOwners, ALICE)]) }]),
          [secpCred(ALICE_KEY)],
          { ...STATE, utxos: [mint] },
          "wrong-mint-output",
          "wrong mint output created from the operation: OperationTx.operations[0].mintOutput must recreate the spent mint output's owners unchanged",
        );
      });

      it("property: a mint is refused unless its new mint output equals the spent one", () => {
        const arbOwners = fc.record({
          locktime: fc.constantFrom(0n, 1n),
          threshold: fc.constantFrom(1, 2),
          addresses: fc.subarray([ALICE, BOB, CAROL], { minLength: 1 }).map((a) => sorted(...a)),
        });
        fc.assert(
          fc.property(arbOwners, (mintOutput) => {
            const spent = owners([ALICE]);
            let rule: string | undefined;
            try {
              verifySemantics(signed(operationTx([{ assetId: AVAX, spends: [ALICE_AVAX_MINT], operation: secpMint(mintOutput) }]), [secpCred(ALICE_KEY)]), context(STATE));
            } catch (error) {
              rule = (error as TxRejectedError).rule;
            }
            const same = mintOutput.locktime === spent.locktime && mintOutput.threshold === spent.threshold && mintOutput.addresses.length === 1 && Buffer.compare(mintOutput.addresses[0]!, ALICE) === 0;
            expect(rule).to.equal(same ? undefined : "wrong-mint-output");
          }),
          { numRuns: 30 },
        );
      });

      it("checks the mint input's signatures against the mint output (mintInput path)", () => {
        refuses(
          operationTx([{ assetId: AVAX, spends: [ALICE_AVAX_MINT], operation: secpMint(owners([ALICE])) }]),
          [secpCred(BOB_KEY)],
          STATE,
          "wrong-signature",
          `wrong signature: expected signature from ${addr(ALICE)} but got from ${addr(BOB)} (OperationTx.operations[0].mintInput, signature 0)`,
        );
      });
    });

    describe("nftfx mint and transfer", () => {
      it("accepts an NFT mint of the mint output's group, signed by the minter", () => {
        accepts(operationTx([{ assetId: NFT, spends: [ALICE_NFT_MINT], operation: nftMint() }]), [nftCred(ALICE_KEY)], STATE);
      });

      it("refuses an NFT operation that spends two UTXOs: wrong number of UTXOs", () => {
        refuses(
          operationTx([{ assetId: NFT, spends: [ALICE_NFT_MINT, ALICE_NFT], operation: nftMint() }]),
          [nftCred(ALICE_KEY)],
          STATE,
          "wrong-number-of-utxos",
          "wrong number of UTXOs for the operation: OperationTx.operations[0] spends 2 UTXOs, an operation spends exactly 1",
        );
      });

      it("refuses an NFT operation with a secp256k1fx credential: wrong credential type", () => {
        refuses(
          operationTx([{ assetId: NFT, spends: [ALICE_NFT_MINT], operation: nftMint() }]),
          [secpCred(ALICE_KEY)],
          STATE,
          "wrong-credential-type",
          "wrong credential type: OperationTx.operations[0] is a nftfx operation, its credential is a Secp256k1Credential",
        );
      });

      it("refuses an NFT mint that spends an NFT transfer output: wrong utxo type", () => {
        refuses(
          operationTx([{ assetId: NFT, spends: [ALICE_NFT], operation: nftMint() }]),
          [nftCred(ALICE_KEY)],
          STATE,
          "wrong-utxo-type",
          "wrong utxo type: OperationTx.operations[0] spends a NftTransferOutput, it needs a NftMintOutput",
        );
      });

      it("refuses an NFT mint of another group than the mint output's: wrong unique ID", () => {
        refuses(
          operationTx([{ assetId: NFT, spends: [ALICE_NFT_MINT], operation: nftMint(8) }]),
          [nftCred(ALICE_KEY)],
          STATE,
          "wrong-group-id",
          "wrong unique ID provided: OperationTx.operations[0] mints group 8, the mint output is for group 7",
        );
      });

      it("checks an NFT mint's signatures against the mint output (mintInput path)", () => {
        refuses(
          operationTx([{ assetId: NFT, spends: [ALICE_NFT_MINT], operation: nftMint() }]),
          [nftCred(BOB_KEY)],
          STATE,
          "wrong-signature",
          `wrong signature: expected signature from ${addr(ALICE)} but got from ${addr(BOB)} (OperationTx.operations[0].mintInput, signature 0)`,
        );
      });

      it("accepts an NFT transfer that keeps group and payload, signed by the owner", () => {
        accepts(operationTx([{ assetId: NFT, spends: [ALICE_NFT], operation: nftTransfer() }]), [nftCred(ALICE_KEY)], STATE);
      });

      it("refuses an NFT transfer that spends a mint output: wrong utxo type", () => {
        refuses(
          operationTx([{ assetId: NFT, spends: [ALICE_NFT_MINT], operation: nftTransfer() }]),
          [nftCred(ALICE_KEY)],
          STATE,
          "wrong-utxo-type",
          "wrong utxo type: OperationTx.operations[0] spends a NftMintOutput, it needs a NftTransferOutput",
        );
      });

      it("refuses an NFT transfer into another group: wrong unique ID", () => {
        refuses(
          operationTx([{ assetId: NFT, spends: [ALICE_NFT], operation: nftTransfer(8) }]),
          [nftCred(ALICE_KEY)],
          STATE,
          "wrong-group-id",
          "wrong unique ID provided: OperationTx.operations[0] transfers group 8, the NFT is in group 7",
        );
      });

      it("refuses an NFT transfer that changes the payload: wrong bytes", () => {
        refuses(
          operationTx([{ assetId: NFT, spends: [ALICE_NFT], operation: nftTransfer(7, Uint8Array.of(1, 2, 4)) }]),
          [nftCred(ALICE_KEY)],
          STATE,
          "wrong-payload",
          "wrong bytes provided: OperationTx.operations[0] changes the NFT's payload (a transfer must keep it)",
        );
      });

      it("checks an NFT transfer's signatures against the NFT's owners (input path)", () => {
        refuses(
          operationTx([{ assetId: NFT, spends: [ALICE_NFT], operation: nftTransfer() }]),
          [nftCred(BOB_KEY)],
          STATE,
          "wrong-signature",
          `wrong signature: expected signature from ${addr(ALICE)} but got from ${addr(BOB)} (OperationTx.operations[0].input, signature 0)`,
        );
      });
    });

    describe("propertyfx mint and burn", () => {
      it("accepts a property mint that recreates the mint output, signed by the minter", () => {
        accepts(operationTx([{ assetId: PROP, spends: [ALICE_PROP_MINT], operation: propMint() }]), [propCred(ALICE_KEY)], STATE);
      });

      it("refuses a property operation that spends two UTXOs: wrong number of UTXOs", () => {
        refuses(
          operationTx([{ assetId: PROP, spends: [ALICE_PROP_MINT, ALICE_PROP], operation: propMint() }]),
          [propCred(ALICE_KEY)],
          STATE,
          "wrong-number-of-utxos",
          "wrong number of UTXOs for the operation: OperationTx.operations[0] spends 2 UTXOs, an operation spends exactly 1",
        );
      });

      it("refuses a property operation with an nftfx credential: wrong credential type", () => {
        refuses(
          operationTx([{ assetId: PROP, spends: [ALICE_PROP_MINT], operation: propMint() }]),
          [nftCred(ALICE_KEY)],
          STATE,
          "wrong-credential-type",
          "wrong credential type: OperationTx.operations[0] is a propertyfx operation, its credential is a NftCredential",
        );
      });

      it("refuses a property mint that spends an owned output: wrong utxo type", () => {
        refuses(
          operationTx([{ assetId: PROP, spends: [ALICE_PROP], operation: propMint() }]),
          [propCred(ALICE_KEY)],
          STATE,
          "wrong-utxo-type",
          "wrong utxo type: OperationTx.operations[0] spends a PropertyOwnedOutput, it needs a PropertyMintOutput",
        );
      });

      it("refuses a property mint whose new mint output has other owners: wrong mint output", () => {
        refuses(
          operationTx([{ assetId: PROP, spends: [ALICE_PROP_MINT], operation: propMint(owners([BOB])) }]),
          [propCred(ALICE_KEY)],
          STATE,
          "wrong-mint-output",
          "wrong mint output provided: OperationTx.operations[0].mintOutput must recreate the spent mint output's owners unchanged",
        );
      });

      it("checks a property mint's signatures against the mint output (mintInput path)", () => {
        refuses(
          operationTx([{ assetId: PROP, spends: [ALICE_PROP_MINT], operation: propMint() }]),
          [propCred(BOB_KEY)],
          STATE,
          "wrong-signature",
          `wrong signature: expected signature from ${addr(ALICE)} but got from ${addr(BOB)} (OperationTx.operations[0].mintInput, signature 0)`,
        );
      });

      it("accepts a burn of an owned property, signed by its owner", () => {
        accepts(operationTx([{ assetId: PROP, spends: [ALICE_PROP], operation: propBurn(0) }]), [propCred(ALICE_KEY)], STATE);
      });

      it("refuses a burn that spends a property mint output: wrong utxo type", () => {
        refuses(
          operationTx([{ assetId: PROP, spends: [ALICE_PROP_MINT], operation: propBurn(0) }]),
          [propCred(ALICE_KEY)],
          STATE,
          "wrong-utxo-type",
          "wrong utxo type: OperationTx.operations[0] spends a PropertyMintOutput, it needs a PropertyOwnedOutput",
        );
      });

      it("refuses a burn with a secp256k1fx credential: wrong credential type", () => {
        refuses(
          operationTx([{ assetId: PROP, spends: [ALICE_PROP], operation: propBurn(0) }]),
          [secpCred(ALICE_KEY)],
          STATE,
          "wrong-credential-type",
          "wrong credential type: OperationTx.operations[0] is a propertyfx operation, its credential is a Secp256k1Credential",
        );
      });

      it("checks a burn's signatures against the owned output (the operation's own path)", () => {
        refuses(
          operationTx([{ assetId: PROP, spends: [ALICE_PROP], operation: propBurn(0, 1) }]),
          [propCred(ALICE_KEY, ALICE_KEY)],
          STATE,
          "too-many-signers",
          "input has more signers than expected: OperationTx.operations[0] gives 2 signature indices, the output's threshold is 1",
        );
      });
    });
  });
});
