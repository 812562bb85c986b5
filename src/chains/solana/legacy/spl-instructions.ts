/**
 * Instructions of the legacy SPL-token HTLC program (IDL v0.4.0). Its identity (seeds []) and vaults
 * (seeds [mint]) are derived as the current program's; the swap data is at [initiator, secret_hash].
 */
import { TransactionInstruction, type AccountMeta, type PublicKey } from "@solana/web3.js";
import { instructionDiscriminator } from "../anchor.js";
import { BorshWriter } from "../borsh.js";
import { splIdentityAddress, splVaultAddress } from "../pda.js";
import { SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../program-ids.js";
import type { SwapTerms } from "../swap-terms.js";
import {
  splInstantRefundInstruction,
  splRedeemInstruction,
  splRefundInstruction,
  type SplSettleParams,
} from "../spl-instructions.js";
import { legacySplSwapAddress } from "./pda.js";

const readonly = (pubkey: PublicKey): AccountMeta => ({ pubkey, isSigner: false, isWritable: false });
const writable = (pubkey: PublicKey): AccountMeta => ({ pubkey, isSigner: false, isWritable: true });

/** initiate(expires_in_slots u64, redeemer, secret_hash, swap_amount u64, destination_data Option<bytes>). */
export function legacySplInitiateData(terms: SwapTerms, destinationData: Uint8Array | undefined): Buffer {
  const data = new BorshWriter()
    .bytes(instructionDiscriminator("initiate"))
    .u64(terms.timelock, "timelock")
    .pubkey(terms.redeemer)
    .fixed(terms.secretHash, 32, "secretHash")
    .u64(terms.swapAmount, "swapAmount")
    .optionBytes(destinationData)
    .toBytes();
  return Buffer.from(data);
}

export interface LegacySplInitiateParams {
  programId: PublicKey;
  mint: PublicKey;
  /** `refundee` is the initiator: it signs and owns `initiatorTokenAccount`. */
  terms: SwapTerms;
  initiatorTokenAccount: PublicKey;
  /** Pays the swap data's rent (and the vault's on a mint's first swap), gets it back on close; signs. */
  sponsor: PublicKey;
  destinationData?: Uint8Array;
}

export function legacySplInitiateInstruction(p: LegacySplInitiateParams): TransactionInstruction {
  return new TransactionInstruction({
    programId: p.programId,
    keys: [
      writable(splIdentityAddress(p.programId).address),
      writable(legacySplSwapAddress(p.programId, p.terms.refundee, p.terms.secretHash).address),
      writable(splVaultAddress(p.programId, p.mint).address),
      { pubkey: p.terms.refundee, isSigner: true, isWritable: false },
      writable(p.initiatorTokenAccount),
      readonly(p.mint),
      { pubkey: p.sponsor, isSigner: true, isWritable: true },
      readonly(TOKEN_PROGRAM_ID),
      readonly(SYSTEM_PROGRAM_ID),
    ],
    data: legacySplInitiateData(p.terms, p.destinationData),
  });
}

export interface LegacySplSettleParams {
  programId: PublicKey;
  mint: PublicKey;
  swapData: PublicKey;
  /** Receives the tokens: the stored redeemer's (redeem) or initiator's (refunds) token account of the mint. */
  payeeTokenAccount: PublicKey;
  /** The stored sponsor: receives the swap data's rent on close. */
  sponsor: PublicKey;
}

/** The settle instructions' accounts and data are the current SPL program's: only the sponsor's name differs. */
const current = (p: LegacySplSettleParams): SplSettleParams => ({
  programId: p.programId,
  mint: p.mint,
  swapData: p.swapData,
  payeeTokenAccount: p.payeeTokenAccount,
  rentSponsor: p.sponsor,
});

export function legacySplRedeemInstruction(
  p: LegacySplSettleParams & { secret: Uint8Array },
): TransactionInstruction {
  return splRedeemInstruction({ ...current(p), secret: p.secret });
}

export function legacySplRefundInstruction(p: LegacySplSettleParams): TransactionInstruction {
  return splRefundInstruction(current(p));
}

export function legacySplInstantRefundInstruction(
  p: LegacySplSettleParams & { redeemer: PublicKey },
): TransactionInstruction {
  return splInstantRefundInstruction({ ...current(p), redeemer: p.redeemer });
}
