/**
 * The operator's Solana payments: SOL by the system program's transfer, an SPL token by the token
 * program's transfer into the recipient's associated token account (created first when it does not exist,
 * at the solver's cost in rent).
 */
import { SystemProgram, TransactionInstruction, type PublicKey } from "@solana/web3.js";
import { solanaAddressProblem } from "./address.js";
import type { SolanaAsset } from "./assets.js";
import { TOKEN_PROGRAM_ID } from "./program-ids.js";
import { associatedTokenAddress, createAssociatedTokenAccountIdempotentInstruction } from "./spl-token.js";

/** The token program's `Transfer` (instruction 3): amount as u64 little-endian. */
function tokenTransferInstruction(
  source: PublicKey,
  destination: PublicKey,
  owner: PublicKey,
  amount: bigint,
) {
  const data = Buffer.alloc(9);
  data.writeUInt8(3, 0);
  data.writeBigUInt64LE(amount, 1);
  return new TransactionInstruction({
    programId: TOKEN_PROGRAM_ID,
    keys: [
      { pubkey: source, isSigner: false, isWritable: true },
      { pubkey: destination, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: true, isWritable: false },
    ],
    data,
  });
}

export function solanaRecipientProblem(to: string): string | null {
  const problem = solanaAddressProblem(to);
  return problem === null ? null : `${JSON.stringify(to)} ${problem}`;
}

/**
 * The instructions paying `amount` of `asset` from `from` to `to`; `recipientAccountExists` tells whether
 * the recipient's token account is there already (ignored for SOL).
 */
export function transferInstructions(
  asset: SolanaAsset,
  from: PublicKey,
  to: PublicKey,
  amount: bigint,
  recipientAccountExists: boolean,
): TransactionInstruction[] {
  if (asset.mint === null)
    return [SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports: amount })];
  const destination = associatedTokenAddress(to, asset.mint);
  return [
    ...(recipientAccountExists
      ? []
      : [createAssociatedTokenAccountIdempotentInstruction(from, to, asset.mint)]),
    tokenTransferInstruction(associatedTokenAddress(from, asset.mint), destination, from, amount),
  ];
}
