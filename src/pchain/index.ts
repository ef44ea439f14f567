/** The platform chain (/ext/bc/P): codec, state machine, genesis and JSON-RPC API. */
export * from "./codec";
export * from "./vm";
export * from "./api";
export * from "./fees";
export { platformGenesis, parsePlatformGenesisJson, GenesisError, LOCAL_TEST_KEY_P_UTXOS, type PlatformGenesis, type PlatformGenesisOptions, type InitialMultisigAlias } from "./genesis";
