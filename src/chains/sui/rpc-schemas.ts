/**
 * The shapes of the Sui JSON-RPC answers the solver reads (@mysten/sui 1.45.2,
 * jsonRpc/types/generated.d.ts), checked before use: amounts and versions become bigints only when they
 * are decimal strings, addresses only in their full form, so a node that lies gets a clear error naming
 * the method and field, never a wrong number.
 */
import { z } from "zod";

export const u64Text = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,19})$/, "is not a decimal u64")
  .transform((value) => BigInt(value))
  .refine((value) => value < 2n ** 64n, "is past u64");

/** A u256 as Move's JSON prints it: a decimal string. */
export const u256Text = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,77})$/, "is not a decimal u256")
  .transform((value) => BigInt(value))
  .refine((value) => value < 2n ** 256n, "is past u256");

export const addressText = z.string().regex(/^0x[0-9a-f]{64}$/, "is not a full Sui address");

export const digestText = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, "is not a base58 digest");

const byteList = z.array(z.number().int().min(0).max(255));

export const objectRefSchema = z.object({ objectId: addressText, version: u64Text, digest: digestText });

const ownerSchema = z.union([
  z.object({ AddressOwner: addressText }),
  z.object({ ObjectOwner: addressText }),
  z.object({ Shared: z.object({ initial_shared_version: z.union([z.number().int().positive(), u64Text]) }) }),
  z.literal("Immutable"),
]);

/** `sui_getObject` / `suix_getDynamicFieldObject`: the object, or null when the node says it is absent. */
export const objectResponseSchema = z.union([
  z.object({
    data: z.object({
      objectId: addressText,
      version: u64Text,
      digest: digestText,
      type: z.string().optional(),
      owner: ownerSchema.optional(),
      previousTransaction: digestText.optional(),
      content: z
        .object({
          dataType: z.literal("moveObject"),
          type: z.string(),
          fields: z.record(z.string(), z.unknown()),
        })
        .optional(),
    }),
  }),
  z.object({ error: z.object({ code: z.enum(["notExists", "dynamicFieldNotFound", "deleted"]) }) }),
]);
export type ObjectResponse = z.output<typeof objectResponseSchema>;

/** The `Order<T>` value a registry field holds (`content.fields.value`). */
export const orderFieldSchema = z.object({
  name: byteList,
  value: z.object({
    type: z.string(),
    fields: z.object({
      is_fulfilled: z.boolean(),
      initiator: addressText,
      redeemer: addressText,
      amount: u64Text,
      initiated_at: u256Text,
      timelock: u256Text,
    }),
  }),
});
export type OrderField = z.output<typeof orderFieldSchema>;

/** The clock object `0x6`'s fields. */
export const clockFieldsSchema = z.object({ timestamp_ms: u64Text });

const statusSchema = z.object({ status: z.enum(["success", "failure"]), error: z.string().optional() });

export const gasCostSchema = z.object({
  computationCost: u64Text,
  storageCost: u64Text,
  storageRebate: u64Text,
  nonRefundableStorageFee: u64Text,
});
export type GasCost = z.output<typeof gasCostSchema>;

const effectsSchema = z.object({
  status: statusSchema,
  gasUsed: gasCostSchema,
  transactionDigest: digestText,
});

const eventSchema = z.object({
  id: z.object({ txDigest: digestText, eventSeq: u64Text }),
  packageId: addressText,
  transactionModule: z.string(),
  type: z.string(),
  parsedJson: z.unknown(),
});
export type SuiEvent = z.output<typeof eventSchema>;

export const transactionResponseSchema = z.object({
  digest: digestText,
  effects: effectsSchema.optional(),
  events: z.array(eventSchema).optional(),
  checkpoint: u64Text.optional().nullable(),
  timestampMs: u64Text.optional().nullable(),
});
export type TransactionResponse = z.output<typeof transactionResponseSchema>;

export const dryRunSchema = z.object({ effects: effectsSchema });

export const coinPageSchema = z.object({
  data: z.array(
    z.object({
      coinType: z.string(),
      coinObjectId: addressText,
      version: u64Text,
      digest: digestText,
      balance: u64Text,
    }),
  ),
  nextCursor: z.string().nullable().optional(),
  hasNextPage: z.boolean(),
});
export type CoinPage = z.output<typeof coinPageSchema>;

export const balanceSchema = z.object({ coinType: z.string(), totalBalance: u64Text });

/** The `Redeemed` event's fields (vector<u8> as arrays of numbers). */
export const redeemedJsonSchema = z.object({ order_id: byteList, secret_hash: byteList, secret: byteList });
export const refundedJsonSchema = z.object({ order_id: byteList });
