/**
 * The shapes of the Starknet JSON-RPC answers the solver reads (spec v0.9), checked before use: felts
 * become bigints only when they are hex felts below the prime, so a node that lies gets a clear error,
 * never a wrong number.
 */
import { z } from "zod";
import { FELT_PRIME } from "./felt.js";

export const felt = z
  .string()
  .regex(/^0x[0-9a-fA-F]{1,64}$/, "is not a hex felt")
  .transform((value) => BigInt(value))
  .refine((value) => value < FELT_PRIME, "is not below the Stark field's prime");

export const feltList = z.array(felt);

const resourcePrice = z.object({ price_in_fri: felt, price_in_wei: felt });

export const BLOCK_STATUSES = ["PRE_CONFIRMED", "ACCEPTED_ON_L2", "ACCEPTED_ON_L1", "REJECTED"] as const;

export const blockSchema = z.object({
  status: z.enum(BLOCK_STATUSES),
  block_number: z.number().int().nonnegative(),
  timestamp: z.number().int().nonnegative(),
  l1_gas_price: resourcePrice,
  l2_gas_price: resourcePrice,
  l1_data_gas_price: resourcePrice,
});
export type StarknetBlock = z.output<typeof blockSchema>;

export const blockNumberSchema = z.number().int().nonnegative();

export const feeEstimateSchema = z
  .array(
    z.object({
      l1_gas_consumed: felt,
      l1_gas_price: felt,
      l2_gas_consumed: felt,
      l2_gas_price: felt,
      l1_data_gas_consumed: felt,
      l1_data_gas_price: felt,
      overall_fee: felt,
      unit: z.literal("FRI"),
    }),
  )
  .length(1);
export type FeeEstimate = z.output<typeof feeEstimateSchema>[number];

export const addInvokeSchema = z.object({ transaction_hash: felt });

const FINALITY = ["RECEIVED", "CANDIDATE", "PRE_CONFIRMED", "ACCEPTED_ON_L2", "ACCEPTED_ON_L1"] as const;

export const txStatusSchema = z.object({
  finality_status: z.enum(FINALITY),
  execution_status: z.enum(["SUCCEEDED", "REVERTED"]).optional(),
  failure_reason: z.string().optional(),
});
export type TxStatusAnswer = z.output<typeof txStatusSchema>;

const eventSchema = z.object({ from_address: felt, keys: feltList, data: feltList });

export const receiptSchema = z.object({
  transaction_hash: felt,
  actual_fee: z.object({ amount: felt, unit: z.literal("FRI") }),
  execution_status: z.enum(["SUCCEEDED", "REVERTED"]),
  finality_status: z.enum(["PRE_CONFIRMED", "ACCEPTED_ON_L2", "ACCEPTED_ON_L1"]),
  revert_reason: z.string().optional(),
  block_number: z.number().int().nonnegative().optional(),
  events: z.array(eventSchema),
});
export type Receipt = z.output<typeof receiptSchema>;

export const eventsPageSchema = z.object({
  events: z.array(
    eventSchema.extend({
      block_number: z.number().int().nonnegative().optional(),
      transaction_hash: felt,
    }),
  ),
  continuation_token: z.string().optional(),
});
export type EventsPage = z.output<typeof eventsPageSchema>;
