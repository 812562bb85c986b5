/**
 * Instructions of the legacy native-SOL HTLC program (IDL v0.3.0): the initiator signs, pays the amount
 * and the swap account's rent, and receives the rent back when the account closes.
 */
import { TransactionInstruction, type PublicKey } from "@solana/web3.js";
import { instructionDiscriminator } from "../anchor.js";
import { BorshWriter } from "../borsh.js";
import { redeemData } from "../native-instructions.js";
import { SYSTEM_PROGRAM_ID } from "../program-ids.js";
import type { SwapTerms } from "../swap-terms.js";
import { legacyNativeSwapAddress } from "./pda.js";

/** initiate(amount_lamports u64, expires_in_slots u64, redeemer, secret_hash): 88 bytes. */
export function legacyNativeInitiateData(terms: SwapTerms): Buffer {
  const data = new BorshWriter()
    .bytes(instructionDiscriminator("initiate"))
    .u64(terms.swapAmount, "swapAmount")
    .u64(terms.timelock, "timelock")
    .pubkey(terms.redeemer)
    .fixed(terms.secretHash, 32, "secretHash")
    .toBytes();
  return Buffer.from(data);
}

/** The terms' refundee is the initiator: it signs, funds and pays the rent. */
export function legacyNativeInitiateInstruction(
  programId: PublicKey,
  terms: SwapTerms,
): TransactionInstruction {
  const swapAccount = legacyNativeSwapAddress(programId, terms.refundee, terms.secretHash).address;
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: swapAccount, isSigner: false, isWritable: true },
      { pubkey: terms.refundee, isSigner: true, isWritable: true },
      { pubkey: SYSTEM_PROGRAM_ID, isSigner: false, isWritable: false },
    ],
    data: legacyNativeInitiateData(terms),
  });
}

export interface LegacyNativeSettleParams {
  programId: PublicKey;
  swapAccount: PublicKey;
  /** The stored initiator: receives the rent on close (and the amount on refunds). */
  initiator: PublicKey;
}

/** Anyone may send it: the amount goes to the stored redeemer, the rent back to the initiator. */
export function legacyNativeRedeemInstruction(
  p: LegacyNativeSettleParams & { redeemer: PublicKey; secret: Uint8Array },
): TransactionInstruction {
  return new TransactionInstruction({
    programId: p.programId,
    keys: [
      { pubkey: p.swapAccount, isSigner: false, isWritable: true },
      { pubkey: p.initiator, isSigner: false, isWritable: true },
      { pubkey: p.redeemer, isSigner: false, isWritable: true },
    ],
    data: redeemData(p.secret),
  });
}

/** Valid once the current slot is past the stored expiry slot; anyone may send it. */
export function legacyNativeRefundInstruction(p: LegacyNativeSettleParams): TransactionInstruction {
  return new TransactionInstruction({
    programId: p.programId,
    keys: [
      { pubkey: p.swapAccount, isSigner: false, isWritable: true },
      { pubkey: p.initiator, isSigner: false, isWritable: true },
    ],
    data: Buffer.from(instructionDiscriminator("refund")),
  });
}

/** Refund before expiry, signed by the redeemer. */
export function legacyNativeInstantRefundInstruction(
  p: LegacyNativeSettleParams & { redeemer: PublicKey },
): TransactionInstruction {
  return new TransactionInstruction({
    programId: p.programId,
    keys: [
      { pubkey: p.swapAccount, isSigner: false, isWritable: true },
      { pubkey: p.initiator, isSigner: false, isWritable: true },
      { pubkey: p.redeemer, isSigner: true, isWritable: false },
    ],
    data: Buffer.from(instructionDiscriminator("instant_refund")),
  });
}
