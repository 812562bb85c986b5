/**
 * Signing one Solana transaction: the compute budget (unit limit and price) first, then the action's
 * instructions, paid and signed by the solver, over a recent blockhash. The journal keeps the wire
 * bytes as hex and the first signature (base58) as the transaction's id.
 */
import {
  ComputeBudgetProgram,
  TransactionMessage,
  VersionedTransaction,
  type Keypair,
  type TransactionInstruction,
} from "@solana/web3.js";
import type { SignedTx } from "../chain.js";
import { base58Encode } from "./base58.js";
import { transactionFeeLamports } from "./priority-fee.js";

export interface TxDraft {
  instructions: TransactionInstruction[];
  blockhash: string;
  lastValidBlockHeight: bigint;
  computeUnitPriceMicroLamports: bigint;
  computeUnitLimit: bigint;
}

export function signDraft(chain: string, draft: TxDraft, payer: Keypair): SignedTx {
  const message = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: draft.blockhash,
    instructions: [
      ComputeBudgetProgram.setComputeUnitLimit({ units: Number(draft.computeUnitLimit) }),
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: draft.computeUnitPriceMicroLamports }),
      ...draft.instructions,
    ],
  }).compileToLegacyMessage();
  const tx = new VersionedTransaction(message);
  tx.sign([payer]);
  const signature = tx.signatures[0];
  if (signature === undefined) throw new Error("a signed transaction has no signature");
  return {
    chain,
    txHash: base58Encode(signature),
    raw: Buffer.from(tx.serialize()).toString("hex"),
    nonce: null,
    terms: {
      family: "solana",
      blockhash: draft.blockhash,
      lastValidBlockHeight: draft.lastValidBlockHeight,
      computeUnitPriceMicroLamports: draft.computeUnitPriceMicroLamports,
      computeUnitLimit: draft.computeUnitLimit,
      feeLamports: transactionFeeLamports(
        message.header.numRequiredSignatures,
        draft.computeUnitPriceMicroLamports,
        draft.computeUnitLimit,
      ),
    },
  };
}

/** The wire bytes of a journaled attempt. */
export function wireOf(raw: string): Uint8Array {
  return new Uint8Array(Buffer.from(raw, "hex"));
}

/** The index, among a signed transaction's instructions, of the first action instruction. */
export const FIRST_ACTION_INSTRUCTION = 2;
