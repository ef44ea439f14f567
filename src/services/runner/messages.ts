/** The runner's messages: defined beside its client (src/clients/runner-messages.ts), which both sides share. */
export type * from "../../clients/runner-messages";
