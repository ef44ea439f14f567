/**
 * Identifiers of the reference node's local network (network ID 12345), which SDK defaults and
 * public tutorials use: with them, tutorial code for local networks works against the simulator.
 */
export interface NetworkIdentifiers {
  networkId: number;
  /** bech32 human-readable part of exchange-chain addresses. */
  hrp: string;
  /** 32-byte blockchain IDs (cb58). */
  xChainId: string;
  cChainId: string;
  /** The native asset: its ID (cb58), alias, name, symbol and denomination on the exchange chain. */
  nativeAsset: { id: string; alias: string; name: string; symbol: string; denomination: number };
  /** Exchange-chain fees in the native asset's smallest unit. */
  txFee: bigint;
  createAssetTxFee: bigint;
  /** EVM chain ID of the contract chain. */
  evmChainId: number;
}

export const LOCAL_NETWORK: NetworkIdentifiers = {
  networkId: 12345,
  hrp: "local",
  xChainId: "2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed",
  cChainId: "2CA6j5zYzasynPsFeNoqWkmTCt3VScMvXUZHbfDJ8k3oGzAPtU",
  nativeAsset: { id: "2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe", alias: "AVAX", name: "Avalanche", symbol: "AVAX", denomination: 9 },
  txFee: 1_000_000n,
  createAssetTxFee: 1_000_000n,
  evmChainId: 43112,
};

/**
 * The widely published local-network test key ("ewoq"): funded on both chains at genesis.
 * Public: never use it anywhere but a local network.
 */
export const LOCAL_TEST_KEY = "PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN";
/** Its funds at genesis: 300 000 000 native coin on the exchange chain (9 decimals)… */
export const LOCAL_TEST_KEY_X_BALANCE = 300_000_000n * 10n ** 9n;
/** …and 50 000 000 on the contract chain (18 decimals), at 0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC. */
export const LOCAL_TEST_KEY_C_BALANCE = 50_000_000n * 10n ** 18n;
