/**
 * The legacy programs behind the version seam (htlc-interface.ts). The initiator of a swap is the order's
 * initiator (the terms' refundee); the native program returns the rent to it, the SPL program to the
 * sponsor. Neither account stores the timelock, so `timelock` is left to the initiation's transaction.
 */
import type { PublicKey } from "@solana/web3.js";
import type { SolanaHtlcInterface } from "../htlc-interface.js";
import { amountAt } from "../initiate-data.js";
import { associatedTokenAddress } from "../spl-token.js";
import {
  legacyNativeInitiateInstruction,
  legacyNativeInstantRefundInstruction,
  legacyNativeRedeemInstruction,
  legacyNativeRefundInstruction,
} from "./native-instructions.js";
import { legacyNativeSwapAddress, legacySplSwapAddress } from "./pda.js";
import {
  legacySplInitiateInstruction,
  legacySplInstantRefundInstruction,
  legacySplRedeemInstruction,
  legacySplRefundInstruction,
  type LegacySplSettleParams,
} from "./spl-instructions.js";
import { decodeLegacyNativeSwapAccount, decodeLegacySplSwapAccount } from "./swap-account.js";

/** Offsets of the amount in initiate's data: native right after the prefix; SPL after expiry, redeemer, hash. */
const NATIVE_AMOUNT_OFFSET = 8;
const SPL_AMOUNT_OFFSET = 8 + 8 + 32 + 32;

function splSettle(
  programId: PublicKey,
  mint: PublicKey,
  swap: { address: PublicKey; rentSponsor: PublicKey },
  payee: PublicKey,
): LegacySplSettleParams {
  return {
    programId,
    mint,
    swapData: swap.address,
    payeeTokenAccount: associatedTokenAddress(payee, mint),
    sponsor: swap.rentSponsor,
  };
}

export const legacyHtlcInterface: SolanaHtlcInterface = {
  version: "legacy",
  swapAddress(asset, terms) {
    return asset.mint === null
      ? legacyNativeSwapAddress(asset.programId, terms.refundee, terms.secretHash).address
      : legacySplSwapAddress(asset.programId, terms.refundee, terms.secretHash).address;
  },
  decodeSwap(asset, address, account) {
    if (!account.owner.equals(asset.programId) || account.data.length === 0) return null;
    if (asset.mint === null) {
      const swap = decodeLegacyNativeSwapAccount(account.data);
      return {
        address,
        expirySlot: swap.expirySlot,
        redeemer: swap.redeemer,
        refundee: swap.initiator,
        rentSponsor: swap.initiator,
        swapAmount: swap.swapAmount,
        timelock: null,
      };
    }
    const swap = decodeLegacySplSwapAccount(account.data);
    return {
      address,
      expirySlot: swap.expirySlot,
      redeemer: swap.redeemer,
      refundee: swap.initiator,
      rentSponsor: swap.sponsor,
      swapAmount: swap.swapAmount,
      timelock: null,
    };
  },
  swapSpace: (kind) => (kind === "native" ? 120 : 153),
  initiateAmount: (kind, data) =>
    amountAt(data, kind === "native" ? NATIVE_AMOUNT_OFFSET : SPL_AMOUNT_OFFSET),
  fill(asset, terms, solver) {
    if (asset.mint === null) return legacyNativeInitiateInstruction(asset.programId, terms);
    return legacySplInitiateInstruction({
      programId: asset.programId,
      mint: asset.mint,
      terms,
      initiatorTokenAccount: associatedTokenAddress(solver, asset.mint),
      sponsor: solver,
    });
  },
  redeem(asset, swap, secret) {
    if (asset.mint === null) {
      return legacyNativeRedeemInstruction({
        programId: asset.programId,
        swapAccount: swap.address,
        initiator: swap.refundee,
        redeemer: swap.redeemer,
        secret,
      });
    }
    return legacySplRedeemInstruction({
      ...splSettle(asset.programId, asset.mint, swap, swap.redeemer),
      secret,
    });
  },
  refund(asset, swap) {
    if (asset.mint === null) {
      return legacyNativeRefundInstruction({
        programId: asset.programId,
        swapAccount: swap.address,
        initiator: swap.refundee,
      });
    }
    return legacySplRefundInstruction(splSettle(asset.programId, asset.mint, swap, swap.refundee));
  },
  instantRefund(asset, swap) {
    if (asset.mint === null) {
      return legacyNativeInstantRefundInstruction({
        programId: asset.programId,
        swapAccount: swap.address,
        initiator: swap.refundee,
        redeemer: swap.redeemer,
      });
    }
    return legacySplInstantRefundInstruction({
      ...splSettle(asset.programId, asset.mint, swap, swap.refundee),
      redeemer: swap.redeemer,
    });
  },
};
