/** Solana HTLC client encoders: pure functions, no RPC. */
export * from "./anchor.js";
export * from "./errors.js";
export * from "./events.js";
export * from "./native-instructions.js";
export * from "./pda.js";
export * from "./program-ids.js";
export * from "./spl-instructions.js";
export * from "./spl-token.js";
export * from "./swap-account.js";
export * from "./swap-id.js";
export type * from "./swap-terms.js";
export * from "./legacy/events.js";
export * from "./legacy/native-instructions.js";
export * from "./legacy/pda.js";
export * from "./legacy/spl-instructions.js";
export * from "./legacy/swap-account.js";
export * from "./program-version.js";
export * from "./legacy/initiation.js";
