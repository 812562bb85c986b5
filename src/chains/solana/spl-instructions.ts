/** Instructions of the SPL-token HTLC program, with the live program's data and account order. */
import { TransactionInstruction, type AccountMeta, type PublicKey } from "@solana/web3.js";
import { instructionDiscriminator } from "./anchor.js";
import { initiateData, redeemData } from "./native-instructions.js";
import { splIdentityAddress, splSwapAddress, splVaultAddress } from "./pda.js";
import { SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID } from "./program-ids.js";
import type { SwapTerms } from "./swap-terms.js";

export interface SplInitiateParams {
  programId: PublicKey;
  mint: PublicKey;
  terms: SwapTerms;
  /** Owner of `funderTokenAccount`; signs. */
  funder: PublicKey;
  funderTokenAccount: PublicKey;
  /** Pays the swap data's rent (and the vault's, on a mint's first swap); signs. */
  rentSponsor: PublicKey;
  destinationData?: Uint8Array;
}

const readonly = (pubkey: PublicKey): AccountMeta => ({ pubkey, isSigner: false, isWritable: false });
const writable = (pubkey: PublicKey): AccountMeta => ({ pubkey, isSigner: false, isWritable: true });

export function splInitiateInstruction(p: SplInitiateParams): TransactionInstruction {
  return new TransactionInstruction({
    programId: p.programId,
    keys: [
      readonly(splIdentityAddress(p.programId).address),
      writable(splSwapAddress(p.programId, p.mint, p.terms).address),
      writable(splVaultAddress(p.programId, p.mint).address),
      { pubkey: p.funder, isSigner: true, isWritable: false },
      writable(p.funderTokenAccount),
      readonly(p.mint),
      { pubkey: p.rentSponsor, isSigner: true, isWritable: true },
      readonly(TOKEN_PROGRAM_ID),
      readonly(SYSTEM_PROGRAM_ID),
    ],
    data: initiateData(p.terms, p.destinationData),
  });
}

export interface SplSettleParams {
  programId: PublicKey;
  mint: PublicKey;
  swapData: PublicKey;
  /** The token account that receives the tokens: owned by the stored redeemer (redeem) or refundee. */
  payeeTokenAccount: PublicKey;
  rentSponsor: PublicKey;
}

function settleKeys(p: SplSettleParams, redeemer: PublicKey | undefined): AccountMeta[] {
  const keys = [
    readonly(splIdentityAddress(p.programId).address),
    writable(p.swapData),
    writable(splVaultAddress(p.programId, p.mint).address),
    writable(p.payeeTokenAccount),
  ];
  if (redeemer !== undefined) keys.push({ pubkey: redeemer, isSigner: true, isWritable: true });
  keys.push(writable(p.rentSponsor), readonly(TOKEN_PROGRAM_ID));
  return keys;
}

export function splRedeemInstruction(p: SplSettleParams & { secret: Uint8Array }): TransactionInstruction {
  return new TransactionInstruction({
    programId: p.programId,
    keys: settleKeys(p, undefined),
    data: redeemData(p.secret),
  });
}

export function splRefundInstruction(p: SplSettleParams): TransactionInstruction {
  return new TransactionInstruction({
    programId: p.programId,
    keys: settleKeys(p, undefined),
    data: Buffer.from(instructionDiscriminator("refund")),
  });
}

export function splInstantRefundInstruction(
  p: SplSettleParams & { redeemer: PublicKey },
): TransactionInstruction {
  return new TransactionInstruction({
    programId: p.programId,
    keys: settleKeys(p, p.redeemer),
    data: Buffer.from(instructionDiscriminator("instant_refund")),
  });
}
