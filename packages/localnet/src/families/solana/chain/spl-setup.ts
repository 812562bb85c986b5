/**
 * SPL Token instructions a local chain needs to set up tokens (create a mint, mint to an account). The
 * HTLC client code does not need them; they live with the localnet.
 */
import type { PublicKey } from "@solana/web3.js";
import { SystemProgram, TransactionInstruction } from "@solana/web3.js";
import { BorshWriter } from "htlc-solver/chains/solana/borsh.js";
import { TOKEN_PROGRAM_ID } from "htlc-solver/chains/solana/program-ids.js";
import { MINT_SIZE } from "htlc-solver/chains/solana/spl-token.js";

const INITIALIZE_MINT2 = 20;
const MINT_TO = 7;

/** Creates the mint account (rent paid by `payer`) and initializes it with `authority` and no freeze authority. */
export function createMintInstructions(
  payer: PublicKey,
  mint: PublicKey,
  authority: PublicKey,
  decimals: number,
  rentLamports: bigint,
): TransactionInstruction[] {
  const data = new BorshWriter()
    .bytes(Uint8Array.of(INITIALIZE_MINT2, decimals))
    .pubkey(authority)
    .bytes(Uint8Array.of(0))
    .toBytes();
  return [
    SystemProgram.createAccount({
      fromPubkey: payer,
      newAccountPubkey: mint,
      lamports: Number(rentLamports),
      space: MINT_SIZE,
      programId: TOKEN_PROGRAM_ID,
    }),
    new TransactionInstruction({
      programId: TOKEN_PROGRAM_ID,
      keys: [{ pubkey: mint, isSigner: false, isWritable: true }],
      data: Buffer.from(data),
    }),
  ];
}

export function mintToInstruction(
  mint: PublicKey,
  destination: PublicKey,
  authority: PublicKey,
  amount: bigint,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: TOKEN_PROGRAM_ID,
    keys: [
      { pubkey: mint, isSigner: false, isWritable: true },
      { pubkey: destination, isSigner: false, isWritable: true },
      { pubkey: authority, isSigner: true, isWritable: false },
    ],
    data: Buffer.from(new BorshWriter().bytes(Uint8Array.of(MINT_TO)).u64(amount, "amount").toBytes()),
  });
}
