/**
 * The HTLC instructions of each action (pure), from the swap as the chain stores it: every party and
 * the rent sponsor are the stored ones, so the instruction passes the programs' checks, and the solver
 * only signs what it is the party of (funder and rent sponsor of its fill, redeemer of an instant refund).
 */
import type { PublicKey, TransactionInstruction } from "@solana/web3.js";
import type { SolanaAsset } from "./assets.js";
import {
  nativeInitiateInstruction,
  nativeInstantRefundInstruction,
  nativeRedeemInstruction,
  nativeRefundInstruction,
} from "./native-instructions.js";
import {
  splInitiateInstruction,
  splInstantRefundInstruction,
  splRedeemInstruction,
  splRefundInstruction,
} from "./spl-instructions.js";
import { associatedTokenAddress } from "./spl-token.js";
import type { SwapTerms } from "./swap-terms.js";

/** A live swap's stored parties, as the closing instructions need them. */
export interface StoredParties {
  address: PublicKey;
  redeemer: PublicKey;
  refundee: PublicKey;
  rentSponsor: PublicKey;
}

/** The solver funds its fill and sponsors its rent, from its own account (SPL: its associated token account). */
export function fillInstruction(
  asset: SolanaAsset,
  terms: SwapTerms,
  solver: PublicKey,
): TransactionInstruction {
  if (asset.mint === null) {
    return nativeInitiateInstruction({
      programId: asset.programId,
      terms,
      funder: solver,
      rentSponsor: solver,
    });
  }
  return splInitiateInstruction({
    programId: asset.programId,
    mint: asset.mint,
    terms,
    funder: solver,
    funderTokenAccount: associatedTokenAddress(solver, asset.mint),
    rentSponsor: solver,
  });
}

/** Pays the stored redeemer (SPL: its associated token account of the mint). */
export function redeemInstruction(
  asset: SolanaAsset,
  swap: StoredParties,
  secret: Uint8Array,
): TransactionInstruction {
  if (asset.mint === null) {
    return nativeRedeemInstruction({
      programId: asset.programId,
      swapAccount: swap.address,
      redeemer: swap.redeemer,
      rentSponsor: swap.rentSponsor,
      secret,
    });
  }
  return splRedeemInstruction({
    programId: asset.programId,
    mint: asset.mint,
    swapData: swap.address,
    payeeTokenAccount: associatedTokenAddress(swap.redeemer, asset.mint),
    rentSponsor: swap.rentSponsor,
    secret,
  });
}

/** Pays the stored refundee back, once the swap expired. */
export function refundInstruction(asset: SolanaAsset, swap: StoredParties): TransactionInstruction {
  if (asset.mint === null) {
    return nativeRefundInstruction({
      programId: asset.programId,
      swapAccount: swap.address,
      refundee: swap.refundee,
      rentSponsor: swap.rentSponsor,
    });
  }
  return splRefundInstruction({
    programId: asset.programId,
    mint: asset.mint,
    swapData: swap.address,
    payeeTokenAccount: associatedTokenAddress(swap.refundee, asset.mint),
    rentSponsor: swap.rentSponsor,
  });
}

/** Pays the stored refundee back at once, signed by the redeemer. */
export function instantRefundInstruction(asset: SolanaAsset, swap: StoredParties): TransactionInstruction {
  if (asset.mint === null) {
    return nativeInstantRefundInstruction({
      programId: asset.programId,
      swapAccount: swap.address,
      refundee: swap.refundee,
      redeemer: swap.redeemer,
      rentSponsor: swap.rentSponsor,
    });
  }
  return splInstantRefundInstruction({
    programId: asset.programId,
    mint: asset.mint,
    swapData: swap.address,
    payeeTokenAccount: associatedTokenAddress(swap.refundee, asset.mint),
    rentSponsor: swap.rentSponsor,
    redeemer: swap.redeemer,
  });
}
