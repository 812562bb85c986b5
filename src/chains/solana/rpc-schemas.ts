/**
 * The shapes of the Solana RPC answers the solver reads, checked field by field. u64 values arrive as
 * JSON numbers: they are exact only up to 2^53, so a larger one is refused rather than rounded (no
 * balance, fee or slot the solver reads comes near it; token amounts arrive as strings).
 */
import { z } from "zod";

/** A JSON number that is an exact non-negative integer, as a bigint. */
export const u64Number = z
  .number()
  .int()
  .nonnegative()
  .refine(Number.isSafeInteger, "is above 2^53 and cannot be read exactly")
  .transform((n) => BigInt(n));

const context = z.object({ slot: u64Number });

export function withContext<T extends z.ZodType>(value: T) {
  return z.object({ context, value });
}

export const accountInfoSchema = withContext(
  z
    .object({
      lamports: u64Number,
      owner: z.string(),
      data: z.tuple([z.string(), z.literal("base64")]),
      executable: z.boolean(),
    })
    .nullable(),
);

export const latestBlockhashSchema = withContext(
  z.object({ blockhash: z.string().min(32), lastValidBlockHeight: u64Number }),
);

export const signatureInfoSchema = z.object({
  signature: z.string(),
  slot: u64Number,
  err: z.unknown(),
  blockTime: z.number().nullable().optional(),
  confirmationStatus: z.enum(["processed", "confirmed", "finalized"]).nullable().optional(),
});

export const signatureStatusSchema = z
  .object({
    slot: u64Number,
    confirmations: z.number().nullable(),
    err: z.unknown(),
    confirmationStatus: z.enum(["processed", "confirmed", "finalized"]).nullable().optional(),
  })
  .nullable();

export const signatureStatusesSchema = withContext(z.array(signatureStatusSchema));

/** An instruction as the JSON encoding gives it: indexes into the transaction's keys, data in base58. */
const compiledInstructionSchema = z.object({
  programIdIndex: z.number().int().nonnegative(),
  accounts: z.array(z.number().int().nonnegative()),
  data: z.string(),
});

export const transactionSchema = z
  .object({
    slot: u64Number,
    blockTime: z.number().nullable().optional(),
    transaction: z.object({
      signatures: z.array(z.string()),
      message: z.object({
        accountKeys: z.array(z.string()),
        instructions: z.array(compiledInstructionSchema),
      }),
    }),
    meta: z
      .object({
        err: z.unknown(),
        fee: u64Number,
        logMessages: z.array(z.string()).nullable().optional(),
        computeUnitsConsumed: u64Number.optional(),
        /** The programs' calls into other programs (CPIs), per top-level instruction. */
        innerInstructions: z
          .array(z.object({ index: z.number().int(), instructions: z.array(compiledInstructionSchema) }))
          .nullable()
          .optional(),
        /** Keys a version 0 transaction loaded from lookup tables: indexes past the static keys name them. */
        loadedAddresses: z
          .object({ writable: z.array(z.string()), readonly: z.array(z.string()) })
          .nullable()
          .optional(),
      })
      .nullable(),
  })
  .nullable();

export const simulationSchema = withContext(
  z.object({
    err: z.unknown(),
    logs: z.array(z.string()).nullable().optional(),
    unitsConsumed: u64Number.optional(),
  }),
);

export const prioritizationFeesSchema = z.array(z.object({ slot: u64Number, prioritizationFee: u64Number }));

export const balanceSchema = withContext(u64Number);

export type AccountInfoAnswer = z.infer<typeof accountInfoSchema>;
export type SignatureInfo = z.infer<typeof signatureInfoSchema>;
export type SignatureStatus = z.infer<typeof signatureStatusSchema>;
export type TransactionAnswer = NonNullable<z.infer<typeof transactionSchema>>;
export type CompiledInstruction = z.infer<typeof compiledInstructionSchema>;
export type SimulationAnswer = z.infer<typeof simulationSchema>["value"];
