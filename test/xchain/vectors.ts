/**
 * Byte vectors from the reference implementation and its public documentation. Each entry
 * says where it comes from (repository, path, commit); hex strings are the bytes shown there.
 *
 *   [AG] ava-labs/avalanchego @ 1cf1fc3d1711a09fde7319d2b48609c8cba93680
 *   [AD] ava-labs/avalanche-docs @ 004e2c420582fedb702c01a65f2973a3857d743b,
 *        build/references/avm-transaction-serialization.md
 *   [AJ] ava-labs/avalanchejs @ 5c96245896b5c9b81d559bfbeae0028f49f3bd4f
 */

/** secp256k1.TestKeys() of [AG] utils/crypto/secp256k1/test_keys.go (cb58 bodies). */
export const AG_TEST_KEYS = [
  "24jUJ9vZexUM6expyMcT48LBx27k1m7xpraoV62oSQAHdziao5",
  "2MMvUMsxx6zsHSNXJdFD8yc5XkancvwyKPwpw4xUK3TCGDuNBY",
  "cxb7KpGWhDMALTjNNSJ7UQkkomPesyWAPUaWRGdyeBNzR6f35",
  "ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN",
  "2RWLv6YVEXDiWLpaCbXhhqxtLbnFaKQsWPSSMSPhpWo47uJAeV",
] as const;

/** [AG] utils/crypto/secp256k1/secp256k1_test.go TestExportedMethods: address of TestKeys()[0]. */
export const AG_KEY0_ADDRESS_CB58 = "Q4MzFZZDPHRPAHFeDs3NiyyaZDvxHKivf";

/**
 * [AG] utils/crypto/secp256k1/secp256k1_test.go TestSigning (same values in [AJ]
 * src/crypto/secp256k1.test.ts): TestKeys()[0] signing sha256(message), [r || s || v].
 */
export const AG_SIGNING_VECTORS = [
  {
    message: "hello world",
    signature:
      "178cb6096b3ca5820a4c6ecedf15b68b6f50e252c2b64f3774888602cc9fa08c5d019d82fdde95fdf234aa2d12ad79b5abb345fe953a9f72f70914fd3139063b00",
  },
  {
    message: "scooby doo",
    signature:
      "c2573f29b0d17ae7009a9f17a4558d32462e5b8d059e3832ecb032541abc7daf5751f96b8571bcb718d26be8ed8d59b0d60369ab57acc0f7133b219456038ec701",
  },
  {
    message: "a really long string",
    signature:
      "1bf561c36007d2a61268e9e13a902a9c2ba43e28f8d47554215711dcdcc6d35e784318f62291373c95779f6794910a4416bfa3ae9f25fa34a014ea9c6fe0203700",
  },
] as const;

/**
 * [AG] vms/avm/txs/base_tx_test.go TestBaseTxSerialization: the signed tx with no credentials
 * (`expected`), its ID, the two credentials of keys[0] x2 (`credBytes`) and the ID after signing.
 */
export const AG_BASE_TX = {
  signedNoCredentials:
    "0000000000000000000a050403020100000000000000000000000000000000000000000000000000000000000001010203000000000000000000000000000000000000000000000000000000000000000007000000000000303900000000000000000000000100000001fceda8f90fcb5d30614b99d79fc4baa29307762600000001fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0efeeedecebeae9e8e7e6e5e4e3e2e1e000000001010203000000000000000000000000000000000000000000000000000000000000000005000000000000d4310000000100000002000000040001020300000000",
  idNoCredentials: "zeqT8FTnRAxes7QQQYkaWhNkHavd9d6aCdH8TQu2Mx5KEydEz",
  credentials:
    "00000009000000027d898ee98af8335d37e6fada0cbb44a14405d3bb940dfc0d99a6d3ff5c715aff26d18484f29b289644968fedffeb23e030665d736d94fc80bc735f51c806d743007d898ee98af8335d37e6fada0cbb44a14405d3bb940dfc0d99a6d3ff5c715aff26d18484f29b289644968fedffeb23e030665d736d94fc80bc735f51c806d7430000000009000000027d898ee98af8335d37e6fada0cbb44a14405d3bb940dfc0d99a6d3ff5c715aff26d18484f29b289644968fedffeb23e030665d736d94fc80bc735f51c806d743007d898ee98af8335d37e6fada0cbb44a14405d3bb940dfc0d99a6d3ff5c715aff26d18484f29b289644968fedffeb23e030665d736d94fc80bc735f51c806d74300",
  idSigned: "QnTUuie2qe6BKyYrC2jqd73bJ828QNhYnZbdA2HWsnVRPjBfV",
} as const;

/** [AG] vms/avm/txs/export_tx_test.go TestExportTxSerialization (same layout as AG_BASE_TX). */
export const AG_EXPORT_TX = {
  signedNoCredentials:
    "00000000000400000002ffffffffeeeeeeeeddddddddccccccccbbbbbbbbaaaaaaaa999999998888888800000000000000010f2f4f6f8eaeceee0d2d4d6d8cacccec0b2b4b6b8aaacaea0929496988a8c8e8000000001f3f5f7f9ebedefe1d3d5d7d9cbcdcfc1b3b5b7b9abadafa1939597998b8d8f80000000500000000000003e8000000010000000000000004000102031f8f9f0f1e8e9e0e2d7dadfd2c7cacfc3b6bbbeb3a6abaea4959c9d94858c8d80000000000000000",
  idNoCredentials: "2PKJE4TrKYpgynBFCpNPpV3GHK7d9QTgrL5mpYG6abHKDvNBG3",
  credentials:
    "000000090000000261dd9bffc049956ed7f8cd92ecda036eacb8169e5383c03a2e885b5fc6ef2ebe5059728d0fa65966932888b4563b777c59a58fe02af3cc3132effe7d3d9f14940161dd9bffc049956ed7f8cd92ecda036eacb8169e5383c03a2e885b5fc6ef2ebe5059728d0fa65966932888b4563b777c59a58fe02af3cc3132effe7d3d9f149401000000090000000261dd9bffc049956ed7f8cd92ecda036eacb8169e5383c03a2e885b5fc6ef2ebe5059728d0fa65966932888b4563b777c59a58fe02af3cc3132effe7d3d9f14940161dd9bffc049956ed7f8cd92ecda036eacb8169e5383c03a2e885b5fc6ef2ebe5059728d0fa65966932888b4563b777c59a58fe02af3cc3132effe7d3d9f149401",
  idSigned: "2oG52e7Cb7XF1yUzv3pRFndAypgbpswWRcSAKD5SH5VgaiTm5D",
} as const;

/** [AG] vms/avm/txs/import_tx_test.go TestImportTxSerialization (same layout as AG_BASE_TX). */
export const AG_IMPORT_TX = {
  signedNoCredentials:
    "00000000000300000002ffffffffeeeeeeeeddddddddccccccccbbbbbbbbaaaaaaaa9999999988888888000000000000000000000004000102031f8f9f0f1e8e9e0e2d7dadfd2c7cacfc3b6bbbeb3a6abaea4959c9d94858c8d8000000010f2f4f6f8eaeceee0d2d4d6d8cacccec0b2b4b6b8aaacaea0929496988a8c8e8000000001f3f5f7f9ebedefe1d3d5d7d9cbcdcfc1b3b5b7b9abadafa1939597998b8d8f80000000500000000000003e8000000010000000000000000",
  idNoCredentials: "9wdPb5rsThXYLX4WxkNeyYrNMfDE5cuWLgifSjxKiA2dCmgCZ",
  credentials:
    "00000009000000028cc7dc8c11d3759e16a59fd29c64d71f9bad1a623398c7af6702c5e0758e62cf156d99f54e71b8f48b5bbf0c59627934971a1f499b0a4fbf95fc3139464ea1af008cc7dc8c11d3759e16a59fd29c64d71f9bad1a623398c7af6702c5e0758e62cf156d99f54e71b8f48b5bbf0c59627934971a1f499b0a4fbf95fc3139464ea1af0000000009000000028cc7dc8c11d3759e16a59fd29c64d71f9bad1a623398c7af6702c5e0758e62cf156d99f54e71b8f48b5bbf0c59627934971a1f499b0a4fbf95fc3139464ea1af008cc7dc8c11d3759e16a59fd29c64d71f9bad1a623398c7af6702c5e0758e62cf156d99f54e71b8f48b5bbf0c59627934971a1f499b0a4fbf95fc3139464ea1af00",
  idSigned: "pCW7sVBytzdZ1WrqzGY1DvA2S9UaMr72xpUMxVyx1QHBARNYx",
} as const;

/** [AG] vms/avm/txs/create_asset_tx_test.go TestCreateAssetTxSerialization (`expected`: signed, no credentials). */
export const AG_CREATE_ASSET_TX =
  "00000000000100000002ffffffffeeeeeeeeddddddddccccccccbbbbbbbbaaaaaaaa999999998888888800000001000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f000000070000000000003039000000000000d431000000010000000251025c61fbcfc078f69334f834be6dd26d55a955c3344128e060128ede3523a24a461c8943ab085900000001f1e1d1c1b1a191817161514131211101f0e0d0c0b0a09080706050403020100000000005000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f0000000500000000075bcd1500000002000000030000000700000004000102030010566f6c6174696c69747920496e646578000356495802000000010000000000000001000000070000000000003039000000000000d431000000010000000251025c61fbcfc078f69334f834be6dd26d55a955c3344128e060128ede3523a24a461c8943ab085900000000";

/** [AG] vms/avm/txs/create_asset_tx_test.go TestCreateAssetTxSerializationAgain (signed, no credentials). */
export const AG_CREATE_ASSET_TX_AGAIN =
  "0000000000010000000a050403020100000000000000000000000000000000000000000000000000000000000003010203000000000000000000000000000000000000000000000000000000000000000007000012309ce5400000000000000000000000000100000001fceda8f90fcb5d30614b99d79fc4baa293077626010203000000000000000000000000000000000000000000000000000000000000000007000012309ce54000000000000000000000000001000000016ead693c17abb1be422bb50b30b9711ff98d667e010203000000000000000000000000000000000000000000000000000000000000000007000012309ce5400000000000000000000000000100000001f2420846876e69f473dda256172967e992f0ee3100000000000000040001020300046e616d65000473796d62000000000100000000000000010000000600000000000000000000000100000001fceda8f90fcb5d30614b99d79fc4baa29307762600000000";

/** The two addresses of many [AG]/[AD] examples. */
export const ADDR_A = "51025c61fbcfc078f69334f834be6dd26d55a955";
export const ADDR_B = "c3344128e060128ede3523a24a461c8943ab0859";

/** [AD] "NFT Transfer Output Example": group 12345, payload 0x431100, locktime 54321, threshold 1, [A, B]. */
export const AD_NFT_TRANSFER_OUTPUT = `0000000b 00003039 00000003 431100 000000000000d431 00000001 00000002 ${ADDR_A} ${ADDR_B}`;

/** [AD] "NFT Mint Output Example": group 12345, locktime 54321, threshold 1, [A, B]. */
export const AD_NFT_MINT_OUTPUT = `0000000a 00003039 000000000000d431 00000001 00000002 ${ADDR_A} ${ADDR_B}`;

/** [AD] "SECP256K1 Transfer Output Example" (also [AG] vms/secp256k1fx/transfer_output_test.go with type ID 7). */
export const AD_SECP_TRANSFER_OUTPUT = `00000007 0000000000003039 000000000000d431 00000001 00000002 ${ADDR_A} ${ADDR_B}`;

/** [AD] "SECP256K1 Mint Output Example". */
export const AD_SECP_MINT_OUTPUT = `00000006 000000000000d431 00000001 00000002 ${ADDR_A} ${ADDR_B}`;

/** [AD] "SECP256K1 Transfer Input Example" (amount 123456789, indices [7, 3] as the document gives them). */
export const AD_SECP_TRANSFER_INPUT = "00000005 00000000075bcd15 00000002 00000007 00000003";

/** [AD] "Transferable Output Example". */
export const AD_TRANSFERABLE_OUTPUT = `000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f ${AD_SECP_TRANSFER_OUTPUT}`;

/** [AD] "Transferable Input Example". */
export const AD_TRANSFERABLE_INPUT = `f1e1d1c1b1a191817161514131211101f0e0d0c0b0a090807060504030201000 00000005 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f ${AD_SECP_TRANSFER_INPUT}`;

/** [AD] "NFT Mint Op Example": indices [7, 3], group 12345, payload 0x431100, one owner set (locktime 54321, threshold 1, [B]). */
export const AD_NFT_MINT_OP = `0000000c 00000002 00000007 00000003 00003039 00000003 431100 00000001 000000000000d431 00000001 00000001 ${ADDR_B}`;

/** [AD] "NFT Transfer Op Example": indices [7, 3], then the NFT transfer output without its type ID. */
export const AD_NFT_TRANSFER_OP = `0000000d 00000002 00000007 00000003 00003039 00000003 431100 000000000000d431 00000001 00000002 ${ADDR_A} ${ADDR_B}`;

/** [AD] "Initial State Example": fx 0, one secp256k1 transfer output. */
export const AD_INITIAL_STATE = `00000000 00000001 ${AD_SECP_TRANSFER_OUTPUT}`;

/** [AD] "SECP256K1 Credential Example" (same signatures as [AG] vms/secp256k1fx/credential_test.go). */
export const AD_SIG_0 = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1e1d1f202122232425262728292a2b2c2e2d2f303132333435363738393a3b3c3d3e3f00";
export const AD_SIG_1 = "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5e5d5f606162636465666768696a6b6c6e6d6f707172737475767778797a7b7c7d7e7f00";
export const AD_CREDENTIAL = `00000009 00000002 ${AD_SIG_0} ${AD_SIG_1}`;

/**
 * [AD] "UTXO Example" (also [AG] vms/components/avax/utxo_test.go TestUTXOSerialize, where a
 * test-only codec numbers TransferOutput 1 instead of the exchange chain's 7).
 */
export const AD_UTXO =
  "0000 f966750f438867c3c9828ddcdbe660e21ccdbb36a9276958f011ba472f75d4e7 00000000 " +
  "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f " +
  "00000007 0000000000003039 000000000000d431 00000001 00000002 " +
  "000102030405060708090a0b0c0d0e0f10111213 1415161718191a1b1c1d1e1f2021222324252627";

/** [AD] "Base Tx Example": unsigned BaseTx (type ID 0, network 4) without the codec version. */
export const AD_BASE_TX =
  "00000000 00000004 ffffffffeeeeeeeeddddddddccccccccbbbbbbbbaaaaaaaa9999999988888888 " +
  `00000001 ${AD_TRANSFERABLE_OUTPUT} 00000001 ${AD_TRANSFERABLE_INPUT} 00000004 00010203`;

/** [AJ] src/serializable/avax/utxoId.test.ts: UTXO IDs (cb58) of (txID, output index). */
export const AJ_UTXO_IDS = [
  { txId: "0400000000000000000000000000000000000000000000000000000000000000", outputIndex: 0, utxoId: "HBD3fiEVpzFy569fjPgGKa7GZayj1K1tSWcRs2QWE3ZfjNzWv" },
  { txId: "0500000000000000000000000000000000000000000000000000000000000000", outputIndex: 4, utxoId: "ZsXUqJ1rFapUSA7mRGJqGMFPjWtx1YHdb4csN6GWL9zZZ7sGs" },
] as const;

/**
 * [AG] genesis/genesis_test.go TestAVAXAssetID: the native asset ID of the local network, i.e.
 * the ID of the genesis CreateAssetTx that genesis/genesis.go FromConfig and
 * vms/avm/genesis.go NewGenesis build from genesis/genesis_local.json: network 12345, empty
 * blockchain ID, memo = the ethAddr of each X allocation, "Avalanche"/"AVAX"/9, one
 * secp256k1fx initial state holding the allocations with initialAmount > 0 (sorted).
 */
export const AG_LOCAL_GENESIS = {
  networkId: 12345,
  ethAddr: "b3d82b1367d362de99ab59a658165aff520cbd4d",
  holders: [
    { address: "X-local1ur873jhz9qnaqv5qthk5sn3e8nj3e0kmggalnu", amount: 10_000_000_000_000_000n },
    { address: "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u", amount: 300_000_000_000_000_000n },
  ],
  avaxAssetId: "2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe",
} as const;

/** [AG] genesis/genesis_local.go: PrivateKey-ewoq... => X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u. */
export const EWOQ = {
  privateKeyHex: "56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027",
  privateKey: "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN",
  xAddress: "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u",
} as const;
