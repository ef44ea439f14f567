/**
 * Vectors for the contract chain's atomic transactions, from the reference implementation and
 * its documentation. Hex strings are the bytes shown there.
 *
 *   [DOC] ava-labs/avalanche-docs @ 916d2d1160ef76a46f023dcf392475f3c2d4635c,
 *         docs/specs/coreth-atomic-transaction-serialization.md (byte arrays of the examples;
 *         the prose around them has typos, the arrays are self-consistent)
 *   [CT]  ava-labs/coreth @ cde9154e68214f6a0763801436bc5bb76a26a50a,
 *         plugin/evm/atomic/vm/import_tx_test.go TestImportTxGasCost,
 *         plugin/evm/atomic/vm/export_tx_test.go TestExportTxGasCost,
 *         plugin/evm/atomic/vm/tx_test.go TestCalculateDynamicFee
 *   [AJ]  ava-labs/avalanchejs @ 5c96245896b5c9b81d559bfbeae0028f49f3bd4f,
 *         src/vms/evm/builder.test.ts ("exportTx")
 *   [AG]  ava-labs/avalanchego @ 1cf1fc3d1711a09fde7319d2b48609c8cba93680,
 *         utils/crypto/secp256k1/test_keys.go (the keys coreth's tests sign with)
 */

/** [DOC] "EVM Input Example": address 0x8db9…52fc, amount 2 000 000, asset 0xdbcf…f2db, nonce 0. */
export const DOC_EVM_INPUT =
  "8db97c7cece249c2b98bdc0226cc4c2a57bf52fc00000000001e8480dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db0000000000000000";

/** [DOC] "EVM Output Example": address 0xc334…0859, amount 500 000 000 000, asset 0xdbcf…f2db. */
export const DOC_EVM_OUTPUT =
  "c3344128e060128ede3523a24a461c8943ab0859000000746a528800dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db";

/** [DOC] "ExportTx Example" (unsigned, without the codec version; network ID 4 in the bytes). */
export const DOC_EXPORT_TX =
  "000000010000000491060eabfb5a571720109b5896e5ff00010a1cfe6b103d585e6ebf27b97a1735d891ad56056d9c01f18f43f58b5c784ad07a4a49cf3d1f11623804b5cba2c6bf000000018db97c7cece249c2b98bdc0226cc4c2a57bf52fc00000000001e8480dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db000000000000000000000001dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db0000000700000000000f42400000000000000000000000010000000166f90db6137a78f76b3693f7f2bc507956dae563";

/** [DOC] "ImportTx Example" (unsigned, without the codec version; network ID 4 in the bytes). */
export const DOC_IMPORT_TX =
  "000000000000000491060eabfb5a571720109b5896e5ff00010a1cfe6b103d585e6ebf27b97a1735d891ad56056d9c01f18f43f58b5c784ad07a4a49cf3d1f11623804b5cba2c6bf000000016613a40dcdd8d22ea4aa99a4c84349056317cf550b6685e045e459954f258e5900000001dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db00000005000000746a5288000000000100000000000000010eb5ccb85c29009b6060decb353a38ea3b52cd20000000746a528800dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db";

/** [DOC] "Signed Transaction Example": codec version, the ImportTx (network 12345), one credential. */
export const DOC_SIGNED_IMPORT_TX =
  "0000000000000000303991060eabfb5a571720109b5896e5ff00010a1cfe6b103d585e6ebf27b97a1735d891ad56056d9c01f18f43f58b5c784ad07a4a49cf3d1f11623804b5cba2c6bf000000016613a40dcdd8d22ea4aa99a4c84349056317cf550b6685e045e459954f258e5900000001dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db00000005000000746a5288000000000100000000000000010eb5ccb85c29009b6060decb353a38ea3b52cd20000000746a528800dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db0000000100000009000000010acccf47a820549a84428440e2421975138790e41be262f7197f3d93faa26cc8741060d743ffaf025782c8c86b862d2b9febebe7d352f0b4591afbd1a737f8a300";

/** [DOC] "UTXO Example": an atomic UTXO as shared memory holds it (same layout on both chains). */
export const DOC_UTXO =
  "0000f966750f438867c3c9828ddcdbe660e21ccdbb36a9276958f011ba472f75d4e700000000000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f000000070000000000003039000000000000d4310000000100000002000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222324252627";

/** [AG] secp256k1.TestKeys(): the exchange chain's vectors hold them. */
export { AG_TEST_KEYS } from "../xchain/vectors";

/** [CT] TestCalculateDynamicFee: (gas, base fee in wei) -> fee in nAVAX. */
export const CT_DYNAMIC_FEES = [
  { gas: 1n, baseFee: 1_000_000_000n, fee: 1n },
  { gas: 21_000n, baseFee: 25_000_000_000n, fee: 525_000n },
] as const;

/**
 * [CT] TestExportTxGasCost / TestImportTxGasCost (5 000 000 exported/imported per input, one
 * signature per input unless noted): gas without the intrinsic part, with it, and the fees.
 */
export const CT_GAS_COSTS = {
  simpleExport: { inputs: 1, gas: 1230n, gasFixed: 11230n, fees: [{ baseFee: 1n, fee: 1n }, { baseFee: 25_000_000_000n, fee: 30750n }, { baseFee: 225_000_000_000n, fee: 276750n }] },
  complexExport: { inputs: 3, gas: 3366n, fees: [{ baseFee: 25_000_000_000n, fee: 84150n }, { baseFee: 225_000_000_000n, fee: 757350n }] },
  simpleImport: { gas: 1230n, gasFixed: 11230n, fee25: 30750n },
  antImport: { gas: 2318n, fee25: 57950n },
  complexAntImport: { gas: 2378n, fee25: 59450n },
  multisigImport: { gas: 2234n, fee25: 55850n },
  largeImport: { inputs: 10, gas: 11022n, fee25: 275550n },
} as const;

/** [AJ] exporting 1 AVAX at base fee 25 (nAVAX per gas) from one account with nonce 3: the input spends 1 000 280 750. */
export const AJ_EXPORT = { amount: 1_000_000_000n, baseFeeGwei: 25n, nonce: 3n, inputAmount: 1_000_280_750n } as const;
