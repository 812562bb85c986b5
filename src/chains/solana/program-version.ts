/**
 * Which generation of the HTLC programs a chain's program ids run: `current` (seeds commit to every term,
 * a rent sponsor, a stored timelock) or `legacy` (the older programs: seeds `[initiator, secret_hash]`,
 * expiry in slots from initiation). docs/solana-programs.md describes both.
 */
export const SOLANA_PROGRAM_VERSIONS = ["current", "legacy"] as const;
export type SolanaProgramVersion = (typeof SOLANA_PROGRAM_VERSIONS)[number];
