/** The SPL Token pieces the HTLC code needs: associated token addresses and token account decoding. */
import { PublicKey, TransactionInstruction } from "@solana/web3.js";
import { BorshReader } from "./borsh.js";
import { SolanaDecodeError } from "./errors.js";
import { ASSOCIATED_TOKEN_PROGRAM_ID, SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID } from "./program-ids.js";

export const TOKEN_ACCOUNT_SIZE = 165;
export const MINT_SIZE = 82;

/** The associated token account of `owner` for `mint` (seeds [owner, token program, mint]). */
export function associatedTokenAddress(owner: PublicKey, mint: PublicKey): PublicKey {
  return PublicKey.findProgramAddressSync(
    [owner.toBytes(), TOKEN_PROGRAM_ID.toBytes(), mint.toBytes()],
    ASSOCIATED_TOKEN_PROGRAM_ID,
  )[0];
}

/** CreateIdempotent of the associated token account program: a no-op when the account exists. */
export function createAssociatedTokenAccountIdempotentInstruction(
  payer: PublicKey,
  owner: PublicKey,
  mint: PublicKey,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: ASSOCIATED_TOKEN_PROGRAM_ID,
    keys: [
      { pubkey: payer, isSigner: true, isWritable: true },
      { pubkey: associatedTokenAddress(owner, mint), isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: false, isWritable: false },
      { pubkey: mint, isSigner: false, isWritable: false },
      { pubkey: SYSTEM_PROGRAM_ID, isSigner: false, isWritable: false },
      { pubkey: TOKEN_PROGRAM_ID, isSigner: false, isWritable: false },
    ],
    data: Buffer.of(1),
  });
}

export interface TokenAccount {
  mint: PublicKey;
  owner: PublicKey;
  amount: bigint;
}

export function decodeTokenAccount(data: Uint8Array): TokenAccount {
  if (data.length !== TOKEN_ACCOUNT_SIZE) {
    throw new SolanaDecodeError(`a token account has ${TOKEN_ACCOUNT_SIZE} bytes, got ${data.length}`);
  }
  const r = new BorshReader(data, 0, "token account");
  return { mint: r.pubkey(), owner: r.pubkey(), amount: r.u64() };
}

export interface Mint {
  supply: bigint;
  decimals: number;
}

export function decodeMint(data: Uint8Array): Mint {
  if (data.length !== MINT_SIZE)
    throw new SolanaDecodeError(`a mint has ${MINT_SIZE} bytes, got ${data.length}`);
  const r = new BorshReader(data, 36, "mint");
  return { supply: r.u64(), decimals: r.u8() };
}
