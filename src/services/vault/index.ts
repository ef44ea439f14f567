/** The multisig vault service (`/v1/multisig`): pending multisig transactions, their owners' signatures, issuing through a node. */
export { openVaultService, startVaultServer, type VaultService, type VaultServiceOptions, type VaultServer } from "./service";
export { Vault, DEFAULT_EXPIRATION_SECONDS, DEFAULT_SIGNED_TIMESTAMP_WINDOW_SECONDS, ISSUE_CLAIM_STALE_SECONDS, type PlatformApi, type CreateRequest } from "./vault";
export { VaultError, VaultErrorCode } from "./errors";
export { VAULT_PATH_PREFIX, type HttpHandler } from "./http-api";
export type { MultisigTxView } from "./view";
export type { VaultEvent, VaultEventType } from "./events";
export type { SqlDatabase } from "../sql/database";
