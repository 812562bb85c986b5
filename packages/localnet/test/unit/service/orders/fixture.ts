import type { Order, SwapRecord } from "htlc-solver/orderbook/types.js";

export function swapRecord(overrides: Partial<SwapRecord> = {}): SwapRecord {
  return {
    created_at: "2026-01-01T00:00:00.000Z",
    swap_id: "aa".repeat(32),
    chain: "alpha",
    asset: "alpha:usdc",
    initiator: "0x00000000000000000000000000000000000000B2",
    redeemer: "0x00000000000000000000000000000000000000A1",
    timelock: 100,
    filled_amount: "0",
    amount: "1000",
    asset_price: 1,
    secret_hash: "11".repeat(32),
    secret: "",
    initiate_tx_hash: "",
    redeem_tx_hash: "",
    refund_tx_hash: "",
    initiate_block_number: "0",
    redeem_block_number: "0",
    refund_block_number: "0",
    required_confirmations: 2,
    current_confirmations: 0,
    initiate_timestamp: null,
    redeem_timestamp: null,
    refund_timestamp: null,
    ...overrides,
  };
}

/** A source locked with its confirmations. */
export const confirmedSource = (overrides: Partial<SwapRecord> = {}): SwapRecord =>
  swapRecord({
    initiate_tx_hash: "0x01",
    initiate_block_number: "10",
    filled_amount: "1000",
    current_confirmations: 2,
    ...overrides,
  });

export function order(source: SwapRecord, destination: SwapRecord, userSecret = false): Order {
  return {
    created_at: "2026-01-01T00:00:00.000Z",
    order_id: "cc".repeat(32),
    status: "Initiated",
    source_swap: source,
    destination_swap: destination,
    nonce: "1",
    solver_id: "a1",
    affiliate_fees: [],
    additional_data: { deadline: 0, input_token_price: 1, output_token_price: 1, user_secret: userSecret },
    version: "v2",
  };
}
