/** Instructions of the native-SOL HTLC program, with the live program's data and account order. */
import { TransactionInstruction, type PublicKey } from "@solana/web3.js";
import { instructionDiscriminator } from "./anchor.js";
import { BorshWriter } from "./borsh.js";
import { nativeSwapAddress } from "./pda.js";
import { SYSTEM_PROGRAM_ID } from "./program-ids.js";
import type { SwapTerms } from "./swap-terms.js";

export interface NativeInitiateParams {
  programId: PublicKey;
  terms: SwapTerms;
  /** Pays the swap amount; signs. */
  funder: PublicKey;
  /** Pays the swap account's rent and gets it back when the account closes; signs. */
  rentSponsor: PublicKey;
  destinationData?: Uint8Array;
}

/** Borsh arguments shared by both programs' initiate. */
export function initiateData(terms: SwapTerms, destinationData: Uint8Array | undefined): Buffer {
  const data = new BorshWriter()
    .bytes(instructionDiscriminator("initiate"))
    .pubkey(terms.redeemer)
    .pubkey(terms.refundee)
    .fixed(terms.secretHash, 32, "secretHash")
    .u64(terms.swapAmount, "swapAmount")
    .u64(terms.timelock, "timelock")
    .optionBytes(destinationData)
    .toBytes();
  return Buffer.from(data);
}

export function redeemData(secret: Uint8Array): Buffer {
  return Buffer.from(
    new BorshWriter().bytes(instructionDiscriminator("redeem")).fixed(secret, 32, "secret").toBytes(),
  );
}

export function nativeInitiateInstruction(p: NativeInitiateParams): TransactionInstruction {
  const swapAccount = nativeSwapAddress(p.programId, p.terms).address;
  return new TransactionInstruction({
    programId: p.programId,
    keys: [
      { pubkey: swapAccount, isSigner: false, isWritable: true },
      { pubkey: p.funder, isSigner: true, isWritable: true },
      { pubkey: p.rentSponsor, isSigner: true, isWritable: true },
      { pubkey: SYSTEM_PROGRAM_ID, isSigner: false, isWritable: false },
    ],
    data: initiateData(p.terms, p.destinationData),
  });
}

export interface NativeRedeemParams {
  programId: PublicKey;
  swapAccount: PublicKey;
  redeemer: PublicKey;
  rentSponsor: PublicKey;
  secret: Uint8Array;
}

/** Anyone may send it: the amount goes to the stored redeemer, the rent to the stored rent sponsor. */
export function nativeRedeemInstruction(p: NativeRedeemParams): TransactionInstruction {
  return new TransactionInstruction({
    programId: p.programId,
    keys: [
      { pubkey: p.swapAccount, isSigner: false, isWritable: true },
      { pubkey: p.redeemer, isSigner: false, isWritable: true },
      { pubkey: p.rentSponsor, isSigner: false, isWritable: true },
    ],
    data: redeemData(p.secret),
  });
}

export interface NativeRefundParams {
  programId: PublicKey;
  swapAccount: PublicKey;
  refundee: PublicKey;
  rentSponsor: PublicKey;
}

/** Valid once the current slot is past the swap's expiry slot; anyone may send it. */
export function nativeRefundInstruction(p: NativeRefundParams): TransactionInstruction {
  return new TransactionInstruction({
    programId: p.programId,
    keys: [
      { pubkey: p.swapAccount, isSigner: false, isWritable: true },
      { pubkey: p.refundee, isSigner: false, isWritable: true },
      { pubkey: p.rentSponsor, isSigner: false, isWritable: true },
    ],
    data: Buffer.from(instructionDiscriminator("refund")),
  });
}

/** Refund before expiry, signed by the redeemer. */
export function nativeInstantRefundInstruction(
  p: NativeRefundParams & { redeemer: PublicKey },
): TransactionInstruction {
  return new TransactionInstruction({
    programId: p.programId,
    keys: [
      { pubkey: p.swapAccount, isSigner: false, isWritable: true },
      { pubkey: p.refundee, isSigner: false, isWritable: true },
      { pubkey: p.redeemer, isSigner: true, isWritable: false },
      { pubkey: p.rentSponsor, isSigner: false, isWritable: true },
    ],
    data: Buffer.from(instructionDiscriminator("instant_refund")),
  });
}
