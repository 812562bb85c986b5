/**
 * What a journaled Solana transaction takes from the solver once it lands, read from its own bytes
 * (pure): lamports for its fee, for every native swap it initiates (amount and the swap account's rent)
 * and for every account it creates (SPL swap data, associated token accounts); tokens of a mint for
 * every SPL swap of that mint it initiates. Redeems and refunds bring value in and count for nothing.
 */
import { VersionedTransaction, type PublicKey } from "@solana/web3.js";
import type { SolanaTxTerms } from "./tx-terms.js";
import type { SolanaHtlcInterface } from "./htlc-interface.js";
import { ASSOCIATED_TOKEN_PROGRAM_ID } from "./program-ids.js";
import { wireOf } from "./signed-tx.js";

/** Rent-exempt minimums of the accounts a transaction may create, lamports. */
export interface RentTable {
  nativeSwap: bigint;
  splSwap: bigint;
  tokenAccount: bigint;
}

export interface HtlcPrograms {
  native: PublicKey;
  spl: PublicKey;
}

/** Position of the mint among the SPL initiate's accounts (both versions). */
const SPL_MINT_ACCOUNT = 5;

/** Cost of one attempt: `mint` null asks for lamports, a mint for that token's units. */
export function attemptCost(
  attempt: { raw: string; terms: SolanaTxTerms },
  mint: PublicKey | null,
  programs: HtlcPrograms,
  rent: RentTable,
  htlc: Pick<SolanaHtlcInterface, "initiateAmount">,
): bigint {
  const message = VersionedTransaction.deserialize(wireOf(attempt.raw)).message;
  const keys = message.staticAccountKeys;
  let cost = mint === null ? attempt.terms.feeLamports : 0n;
  for (const ix of message.compiledInstructions) {
    const program = keys[ix.programIdIndex];
    if (program === undefined) continue;
    const native = program.equals(programs.native);
    const amount =
      native || program.equals(programs.spl) ? htlc.initiateAmount(native ? "native" : "spl", ix.data) : null;
    if (native && amount !== null && mint === null) {
      cost += amount + rent.nativeSwap;
    } else if (program.equals(programs.spl) && amount !== null) {
      const ixMint = keys[ix.accountKeyIndexes[SPL_MINT_ACCOUNT] ?? -1];
      if (mint === null) cost += rent.splSwap;
      else if (ixMint !== undefined && ixMint.equals(mint)) cost += amount;
    } else if (program.equals(ASSOCIATED_TOKEN_PROGRAM_ID) && mint === null) {
      // Idempotent creation: counted as if it creates, the conservative side.
      cost += rent.tokenAccount;
    }
  }
  return cost;
}
