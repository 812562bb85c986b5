import { z } from "zod";
import { type Order, type OrderPage, type QuoteItem } from "./types.js";

/** Schemas for what the service sends: untrusted input, checked field by field before any use. */

const decimalAmount = z.string().regex(/^\d+$/, "must be an integer amount in smallest units");
const numericString = z.string().regex(/^\d+$/, "must be a numeric string");
const hex64 = z.string().regex(/^[0-9a-fA-F]{64}$/, "must be 64 hexadecimal characters");
const anyHex = z.string().regex(/^([0-9a-fA-F]{2})*$/, "must be hexadecimal without 0x");
const assetId = z.string().regex(/^[a-z0-9_]+:[A-Za-z0-9_.-]+$/, "must be <chain>:<asset>");
const isoTimestamp = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "must be an ISO 8601 timestamp");

export const swapRecordSchema = z.object({
  created_at: isoTimestamp,
  swap_id: z.string().min(1),
  chain: z.string().min(1),
  asset: assetId,
  initiator: z.string(),
  redeemer: z.string(),
  delegate: z.string().optional(),
  timelock: z.number().int().positive(),
  filled_amount: decimalAmount,
  amount: decimalAmount,
  asset_price: z.number(),
  // Length is a safety rule checked by the planner, which must journal the refusal, so only the form is checked here.
  secret_hash: anyHex,
  secret: anyHex,
  instant_refund_tx: z.string().optional(),
  initiate_tx_hash: z.string(),
  redeem_tx_hash: z.string(),
  refund_tx_hash: z.string(),
  initiate_block_number: numericString,
  redeem_block_number: numericString,
  refund_block_number: numericString,
  required_confirmations: z.number().int().nonnegative(),
  current_confirmations: z.number().int().nonnegative(),
  initiate_timestamp: isoTimestamp.nullable(),
  redeem_timestamp: isoTimestamp.nullable(),
  refund_timestamp: isoTimestamp.nullable(),
});

export const orderSchema = z.object({
  created_at: isoTimestamp,
  order_id: hex64,
  status: z.string().min(1),
  source_swap: swapRecordSchema,
  destination_swap: swapRecordSchema,
  nonce: numericString,
  solver_id: z.string(),
  affiliate_fees: z.array(
    z.object({ address: z.string(), chain: z.string(), asset: z.string(), fee: z.number() }),
  ),
  additional_data: z.object({
    deadline: z.number().int(),
    input_token_price: z.number(),
    output_token_price: z.number(),
    user_secret: z.boolean(),
  }),
  version: z.literal("v2"),
}) satisfies z.ZodType<Order>;

export const orderPageSchema = z.object({
  data: z.array(z.unknown()),
  page: z.number().int().positive(),
  per_page: z.number().int().positive(),
  total_items: z.number().int().nonnegative(),
  total_pages: z.number().int().nonnegative(),
}) satisfies z.ZodType<Omit<OrderPage, "data"> & { data: unknown[] }>;

const assetAmountSchema = z.object({
  asset: assetId,
  amount: decimalAmount,
  display: z.string(),
  value: z.string(),
});

export const quoteItemSchema = z.object({
  source: assetAmountSchema,
  destination: assetAmountSchema,
  solver_id: z.string(),
  estimated_time: z.number(),
  slippage: z.number(),
  fee: z.number(),
  fixed_fee: z.string(),
}) satisfies z.ZodType<QuoteItem>;

export const envelopeSchema = z.discriminatedUnion("status", [
  z.object({ status: z.literal("Ok"), result: z.unknown() }),
  z.object({ status: z.literal("Error"), error: z.string() }),
]);

/** Formats zod issues as `path: message` lines so an operator sees which field the service got wrong. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ");
}
