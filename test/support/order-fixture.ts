import type { SafetyConfig } from "../../src/config/types.js";
import { createHash } from "node:crypto";
import { absentHtlc, type HtlcLock, type HtlcState } from "../../src/chains/chain.js";
import type { Order, SwapRecord } from "../../src/orderbook/types.js";
import type { PlanInput, SideFacts } from "../../src/solver/plan-types.js";

export const SECRET = "11".repeat(32);
export const SECRET_HASH = createHash("sha256").update(Buffer.from(SECRET, "hex")).digest("hex");
export const SOLVER = "0x00000000000000000000000000000000000000a1";
export const USER = "0x00000000000000000000000000000000000000b2";
export const NOW_MS = Date.parse("2026-11-21T12:00:00Z");

function swap(overrides: Partial<SwapRecord>): SwapRecord {
  return {
    created_at: "2026-11-21T11:59:00.000Z",
    swap_id: "aa".repeat(32),
    chain: "ethereum_localnet",
    asset: "ethereum_localnet:usdc",
    initiator: USER,
    redeemer: SOLVER,
    timelock: 7200,
    filled_amount: "0",
    amount: "1000000",
    asset_price: 1,
    secret_hash: SECRET_HASH,
    secret: "",
    initiate_tx_hash: "",
    redeem_tx_hash: "",
    refund_tx_hash: "",
    initiate_block_number: "0",
    redeem_block_number: "0",
    refund_block_number: "0",
    required_confirmations: 1,
    current_confirmations: 0,
    initiate_timestamp: null,
    redeem_timestamp: null,
    refund_timestamp: null,
    ...overrides,
  };
}

export function makeOrder(
  overrides: { source?: Partial<SwapRecord>; destination?: Partial<SwapRecord> } = {},
): Order {
  return {
    created_at: "2026-11-21T11:59:00.000Z",
    order_id: "cc".repeat(32),
    status: "Initiated",
    source_swap: swap({ ...overrides.source }),
    destination_swap: swap({
      swap_id: "bb".repeat(32),
      chain: "arbitrum_localnet",
      asset: "arbitrum_localnet:usdc",
      initiator: SOLVER,
      redeemer: USER,
      timelock: 600,
      amount: "990000",
      ...overrides.destination,
    }),
    nonce: "1",
    solver_id: "ab".repeat(20),
    affiliate_fees: [],
    additional_data: {
      deadline: NOW_MS / 1000 + 3600,
      input_token_price: 1,
      output_token_price: 1,
      user_secret: false,
    },
    version: "v2",
  };
}

export function htlcState(overrides: Partial<HtlcState> = {}): HtlcState {
  return { ...absentHtlc(), ...overrides };
}

/** One lock as a test wants it: mined at `height` unless null, unspent, worth spending. */
export function lock(overrides: Partial<HtlcLock> & Pick<HtlcLock, "value">): HtlcLock {
  const height = overrides.height === undefined ? 100n : overrides.height;
  return {
    id: "aa".repeat(32),
    fundingTx: null,
    height,
    refundableAtHeight: height === null ? null : height + 7201n,
    worthSpending: true,
    spend: null,
    ...overrides,
  };
}

/** A source deposited exactly as the order says, mined at height 100 with its lock; seen at tip 105 (6 confirmations). */
export function fundedSource(order: Order): HtlcState {
  const s = order.source_swap;
  return htlcState({
    locks: [
      lock({
        id: s.swap_id,
        value: BigInt(s.amount),
        height: 100n,
        refundableAtHeight: 100n + BigInt(s.timelock) + 1n,
      }),
    ],
    onChain: {
      initiator: s.initiator,
      redeemer: s.redeemer,
      timelock: BigInt(s.timelock),
      amount: BigInt(s.amount),
    },
  });
}

/** The record of the destination's terms on an account chain, mined at `tip` (a fill if one is journaled). */
export function filledDestination(order: Order, tip = 50n): HtlcState {
  const d = order.destination_swap;
  return htlcState({
    occupied: true,
    locks: [
      lock({
        id: d.swap_id,
        value: BigInt(d.amount),
        height: tip,
        refundableAtHeight: tip + BigInt(d.timelock) + 1n,
      }),
    ],
    onChain: {
      initiator: d.initiator,
      redeemer: d.redeemer,
      timelock: BigInt(d.timelock),
      amount: BigInt(d.amount),
    },
  });
}

function side(
  order: Order,
  which: "source" | "destination",
  state: HtlcState | null,
  tip: bigint,
): SideFacts {
  const s = which === "source" ? order.source_swap : order.destination_swap;
  return {
    family: "evm",
    params: {
      chain: s.chain,
      asset: s.asset,
      swapId: s.swap_id,
      initiator: s.initiator,
      redeemer: s.redeemer,
      secretHash: s.secret_hash,
      timelock: BigInt(s.timelock),
      amount: BigInt(s.amount),
    },
    computedSwapId: s.swap_id,
    state,
    tipHeight: tip,
    readAtMs: NOW_MS,
    offersInstantRefund: false,
    secretLength: 32,
    solverParty: SOLVER,
    minBlockTimeMs: 1000,
    maxBlockTimeMs: 2000,
    minConfirmations: 1,
  };
}

/** Safety settings of the tests: ten minutes of margin on timelocks and redeem deadlines. */
export const TEST_SAFETY: SafetyConfig = {
  timelockMarginMs: 600_000,
  redeemDeadlineMarginMs: 600_000,
  priceToleranceBps: 0,
  urgentRedeemFeeBps: 100,
  allowUnenforcedSecretLength: false,
};

/** Facts for an order whose source is deposited and confirmed and whose destination is untouched. */
export function planInput(order: Order = makeOrder(), overrides: Partial<PlanInput> = {}): PlanInput {
  return {
    order,
    nowMs: NOW_MS,
    source: side(order, "source", fundedSource(order), 105n),
    destination: side(order, "destination", htlcState(), 50n),
    actions: {},
    fillTxids: [],
    sourceBacksOrder: null,
    refundAddress: order.source_swap.initiator,
    quoteCheck: { ok: true },
    safety: TEST_SAFETY,
    maxDestinationTimelock: 1000n,
    ...overrides,
  };
}

export function withSide(
  input: PlanInput,
  which: "source" | "destination",
  patch: Partial<SideFacts>,
): PlanInput {
  return { ...input, [which]: { ...input[which], ...patch } };
}
