import { UtxoChainParams } from "../../xchain/api/chain-params";

/** The platform chain's addresses and chains as its API calls name them; failures are -32602 naming the field. */
export class PlatformParams extends UtxoChainParams {}
