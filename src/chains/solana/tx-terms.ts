/**
 * What a Solana transaction was signed with: the recent blockhash it carries and the last block height
 * at which it can still land (past it, a transaction the cluster never saw can never land: the attempt
 * is dead), its priority fee terms (compute unit price in micro-lamports per unit, and unit limit), and
 * the fee it pays when it lands, lamports (signatures plus price times limit).
 */
import type { TermsCodec } from "../family-module.js";

export interface SolanaTxTerms {
  family: "solana";
  blockhash: string;
  lastValidBlockHeight: bigint;
  computeUnitPriceMicroLamports: bigint;
  computeUnitLimit: bigint;
  feeLamports: bigint;
}

/** Solana's terms were typed from its first journaled transaction: no older form to read. */
export const solanaTermsCodec: TermsCodec<SolanaTxTerms> = {};
