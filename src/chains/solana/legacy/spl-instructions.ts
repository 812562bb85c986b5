/**
 * Instructions of the legacy SPL-token HTLC program (IDL v0.4.0). Its identity (seeds []) and vaults
 * (seeds [mint]) are derived as the current program's; the swap data is at [initiator, secret_hash].
 */
import { TransactionInstruction, type AccountMeta, type PublicKey } from "@solana/web3.js";
import { instructionDiscriminator } from "../anchor.js";
import { BorshWriter } from "../borsh.js";
import { redeemData } from "../native-instructions.js";
import { splIdentityAddress, splVaultAddress } from "../pda.js";
import { SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../program-ids.js";
import type { SwapTerms } from "../swap-terms.js";
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

function settleKeys(p: LegacySplSettleParams, redeemer: PublicKey | undefined): AccountMeta[] {
  const keys = [
    readonly(splIdentityAddress(p.programId).address),
    writable(p.swapData),
    writable(splVaultAddress(p.programId, p.mint).address),
    writable(p.payeeTokenAccount),
  ];
  if (redeemer !== undefined) keys.push({ pubkey: redeemer, isSigner: true, isWritable: true });
  keys.push(writable(p.sponsor), readonly(TOKEN_PROGRAM_ID));
  return keys;
}

export function legacySplRedeemInstruction(
  p: LegacySplSettleParams & { secret: Uint8Array },
): TransactionInstruction {
  return new TransactionInstruction({
    programId: p.programId,
    keys: settleKeys(p, undefined),
    data: redeemData(p.secret),
  });
}

export function legacySplRefundInstruction(p: LegacySplSettleParams): TransactionInstruction {
  return new TransactionInstruction({
    programId: p.programId,
    keys: settleKeys(p, undefined),
    data: Buffer.from(instructionDiscriminator("refund")),
  });
}

export function legacySplInstantRefundInstruction(
  p: LegacySplSettleParams & { redeemer: PublicKey },
): TransactionInstruction {
  return new TransactionInstruction({
    programId: p.programId,
    keys: settleKeys(p, p.redeemer),
    data: Buffer.from(instructionDiscriminator("instant_refund")),
  });
}
