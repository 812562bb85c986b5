/** The SPL Token program's CloseAccount: an empty token account closed, its rent to `owner`. */
import { TransactionInstruction, type PublicKey } from "@solana/web3.js";
import { TOKEN_PROGRAM_ID } from "../../src/chains/solana/program-ids.js";

const CLOSE_ACCOUNT = 9;

export function closeTokenAccount(account: PublicKey, owner: PublicKey): TransactionInstruction {
  return new TransactionInstruction({
    programId: TOKEN_PROGRAM_ID,
    keys: [
      { pubkey: account, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: true, isWritable: false },
    ],
    data: Buffer.from([CLOSE_ACCOUNT]),
  });
}
