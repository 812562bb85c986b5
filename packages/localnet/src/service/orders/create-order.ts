/**
 * POST /v2/orders: validate, confirm the amounts against the solver's live quote, make (or take) the
 * secret hash, build both swaps and persist the order with its secret.
 */
import { createHash, randomBytes } from "node:crypto";
import type { CreateOrderResult } from "htlc-solver/orderbook/types.js";
import type { ServiceChain } from "../chains/service-chain.js";
import type { ServiceContext } from "../context.js";
import { badGateway, conflict, errorMessage, quoteMismatch } from "../errors.js";
import { requestSolverQuote } from "../quotes/solver-client.js";
import { buildOrder } from "./build-order.js";
import { parseOrderRequest, type OrderPlan } from "./order-request.js";

export async function createOrder(ctx: ServiceContext, body: unknown): Promise<CreateOrderResult> {
  const requested = parseOrderRequest(ctx, body);
  const destinationAmount = await liveDestinationAmount(ctx, requested);
  const plan = { ...requested, destination: { ...requested.destination, amount: destinationAmount } };

  const secret = plan.clientSecretHash === null ? randomBytes(32).toString("hex") : null;
  const secretHash = plan.clientSecretHash ?? sha256Hex(secret ?? "");
  const built = buildOrder({
    plan,
    secretHash,
    userSecret: secret === null,
    nowMs: ctx.now(),
    initiateConfirmSeconds: ctx.deadlines.initiateConfirmSeconds,
  });
  const { order } = built;
  if (ctx.orders.hasSourceSwap(order.source_swap.swap_id)) {
    throw conflict(
      `an order with source swap_id ${order.source_swap.swap_id} exists already (secret_hash reused)`,
    );
  }
  const signer = plan.source.asset.native ? null : plan.source.chain.signedInitiate;
  const typedData =
    signer === null ? undefined : await onChain(plan.source.chain, () => signer.typedData(order.source_swap));
  const sourceTransaction = await onChain(plan.source.chain, () =>
    Promise.resolve(plan.source.chain.initiateTransaction?.(order.source_swap)),
  );
  const [sourceTip, destinationTip] = await Promise.all([
    onChain(plan.source.chain, () => plan.source.chain.watcher.headHeight()),
    onChain(plan.destination.chain, () => plan.destination.chain.watcher.headHeight()),
  ]);
  ctx.orders.insert(
    {
      order,
      fromOwner: plan.source.chain.addressKey(plan.source.owner),
      toOwner: plan.destination.chain.addressKey(plan.destination.owner),
      sourceWatchFrom: sourceTip,
      destinationWatchFrom: destinationTip,
      settled: false,
    },
    secret,
    built.keys,
  );
  ctx.logger.info(
    {
      orderId: order.order_id,
      from: plan.source.asset.id,
      to: plan.destination.asset.id,
      solver: order.solver_id,
    },
    "order created",
  );
  const result: CreateOrderResult = {
    order_id: order.order_id,
    to: plan.source.chain.depositTarget(built.sourceTerms),
    amount: order.source_swap.amount,
  };
  if (typedData !== undefined) result.typed_data = typedData;
  const transaction = signer?.transaction?.(order.source_swap);
  if (transaction !== undefined) result.transaction = transaction;
  if (sourceTransaction !== undefined) Object.assign(result, sourceTransaction);
  return result;
}

/**
 * The destination amount the order is built with: the requested one while the solver's live quote still
 * gives it, else the live quote's when that is within the user's slippage of the request (the solver is
 * never bound above what it quotes now, the user never gets less than it accepted).
 */
async function liveDestinationAmount(ctx: ServiceContext, plan: OrderPlan): Promise<bigint> {
  const from = plan.source.asset.id;
  const to = plan.destination.asset.id;
  const solverId = plan.solver.id;
  const outcome = await requestSolverQuote(
    plan.solver,
    { from, to, fromAmount: plan.source.amount },
    ctx.quoteTimeoutMs,
  );
  switch (outcome.kind) {
    case "unreachable":
      throw badGateway(`solver ${solverId} is unreachable: ${outcome.reason}`);
    case "invalid":
      throw badGateway(`solver ${solverId} answered with an invalid quote: ${outcome.reason}`);
    case "refused":
      throw quoteMismatch(`solver ${solverId} gives no quote for ${from} -> ${to} now: ${outcome.reason}`);
    case "quote": {
      const quoted = BigInt(outcome.quote.destination.amount);
      const requested = plan.destination.amount;
      if (requested <= quoted) return requested;
      if (quoted >= leastAccepted(requested, plan.slippageBps)) return quoted;
      const tolerance = plan.slippageBps === 0 ? "" : ` by more than the slippage of ${plan.slippageBps} bp`;
      throw quoteMismatch(
        `destination.amount ${requested} exceeds the solver's live quote of ${quoted} for ${to}${tolerance}`,
      );
    }
  }
}

/** The smallest amount within `bps` of `amount`, rounded up so the user never gets less than it allowed. */
function leastAccepted(amount: bigint, bps: number): bigint {
  const kept = amount * BigInt(10_000 - bps);
  return (kept + 9_999n) / 10_000n;
}

/** Runs a chain read; a failure answers 502 naming the chain. */
async function onChain<T>(chain: ServiceChain, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw badGateway(`chain ${chain.config.name} could not be read: ${errorMessage(error)}`);
  }
}

function sha256Hex(hex: string): string {
  return createHash("sha256").update(Buffer.from(hex, "hex")).digest("hex");
}
