/** Builds the two swap records and the order from a validated plan (pure apart from the given clock). */
import type { Order, SwapRecord } from "htlc-solver/orderbook/types.js";
import type { SwapTerms } from "../chains/service-chain.js";
import { normalizeSolverId } from "../registry.js";
import type { OrderKey } from "../store/key-store.js";
import { serviceOrderId } from "./order-id.js";
import type { OrderPlan, PlannedSide } from "./order-request.js";

export interface BuildOrderInputs {
  plan: OrderPlan;
  secretHash: string;
  userSecret: boolean;
  nowMs: number;
  initiateConfirmSeconds: number;
}

export interface BuiltOrder {
  order: Order;
  sourceTerms: SwapTerms;
  destinationTerms: SwapTerms;
  /** Keys the service made for this order's Bitcoin HTLCs, to be stored with it. */
  keys: OrderKey[];
}

export function buildOrder(input: BuildOrderInputs): BuiltOrder {
  const { plan, secretHash } = input;
  const createdAt = new Date(input.nowMs).toISOString();
  const sourceTerms: SwapTerms = {
    side: "source",
    asset: plan.source.asset,
    initiator: plan.source.owner,
    redeemer: plan.source.solverAddress,
    timelock: plan.source.asset.chain.sourceTimelock,
    amount: plan.source.amount,
    secretHash,
    delegate: plan.source.delegate,
  };
  const destinationTerms: SwapTerms = {
    side: "destination",
    asset: plan.destination.asset,
    initiator: plan.destination.solverAddress,
    redeemer: plan.destination.owner,
    timelock: plan.destination.asset.chain.destinationTimelock,
    amount: plan.destination.amount,
    secretHash,
    delegate: plan.destination.delegate,
  };
  const source = swapRecord(plan.source, sourceTerms, createdAt);
  const destination = swapRecord(plan.destination, destinationTerms, createdAt);
  const order: Order = {
    created_at: createdAt,
    order_id: serviceOrderId(source.swap_id, destination.swap_id, plan.nonce),
    status: "Created",
    source_swap: source,
    destination_swap: destination,
    nonce: plan.nonce,
    solver_id: normalizeSolverId(plan.solver.id),
    affiliate_fees: [],
    additional_data: {
      deadline: Math.floor(input.nowMs / 1000) + input.initiateConfirmSeconds,
      input_token_price: Number(plan.source.asset.config.priceUsd),
      output_token_price: Number(plan.destination.asset.config.priceUsd),
      user_secret: input.userSecret,
    },
    version: "v2",
  };
  const keys: OrderKey[] = [];
  if (plan.source.delegateKey !== null) {
    keys.push({ side: "source", swapId: source.swap_id, privateKey: plan.source.delegateKey });
  }
  if (plan.destination.delegateKey !== null) {
    keys.push({ side: "destination", swapId: destination.swap_id, privateKey: plan.destination.delegateKey });
  }
  return { order, sourceTerms, destinationTerms, keys };
}

function swapRecord(side: PlannedSide, terms: SwapTerms, createdAt: string): SwapRecord {
  return {
    created_at: createdAt,
    swap_id: side.chain.swapId(terms),
    chain: side.chain.config.name,
    asset: side.asset.id,
    initiator: terms.initiator,
    redeemer: terms.redeemer,
    ...(terms.delegate === null ? {} : { delegate: terms.delegate }),
    timelock: terms.timelock,
    filled_amount: "0",
    amount: terms.amount.toString(),
    asset_price: Number(side.asset.config.priceUsd),
    secret_hash: terms.secretHash,
    secret: "",
    initiate_tx_hash: "",
    redeem_tx_hash: "",
    refund_tx_hash: "",
    initiate_block_number: "0",
    redeem_block_number: "0",
    refund_block_number: "0",
    required_confirmations: side.chain.config.requiredConfirmations,
    current_confirmations: 0,
    initiate_timestamp: null,
    redeem_timestamp: null,
    refund_timestamp: null,
  };
}
