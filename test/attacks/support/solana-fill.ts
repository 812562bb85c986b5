/**
 * A user's USDC -> SOL order filled by the solver on the local Solana cluster, with a secret the user
 * holds, and both sides' holdings taken before the user locked the source; what the scenarios of the
 * Solana destination attack start from. The service can be made to tell the solver nothing of the
 * redeem, so that what the solver learns it reads on chain.
 */
import { expect } from "vitest";
import { newUserSecret, type LocalUser } from "@htlc-solver/localnet/user.js";
import type { Order } from "../../../src/orderbook/types.js";
import { feeOf, SOL, solverSolana } from "../../e2e/swaps/solana-support.js";
import { waitFor } from "../../support/localnet.js";
import { journaled, type AttackNet } from "./attack-net.js";

export const USDC_SOURCE = "ethereum_localnet:usdc";
export const USDC_SOURCE_AMOUNT = 300_000_000n;

export interface FilledSolanaOrder {
  user: LocalUser;
  order: Order;
  /** The order as the service showed it once the fill landed. */
  filled: Order;
  secret: string;
  /** Lamports the order asks of the solver. */
  amount: bigint;
  before: { userSol: bigint; userUsdc: bigint; solverSol: bigint; solverUsdc: bigint };
}

export function solverUsdc(t: AttackNet): Promise<bigint> {
  return t.net.solver!.chains.get("ethereum_localnet")!.executor.balance(USDC_SOURCE);
}

export async function filledSolanaOrder(t: AttackNet, userIndex: number): Promise<FilledSolanaOrder> {
  const user = t.user(userIndex);
  const { secret, secretHash } = newUserSecret();
  const quote = await user.bestQuote(USDC_SOURCE, SOL, USDC_SOURCE_AMOUNT);
  const order = await user.createOrder(quote, { secretHash });
  const before = {
    userSol: await user.balance(SOL),
    userUsdc: await user.balance(USDC_SOURCE),
    solverSol: await solverSolana(t, SOL),
    solverUsdc: await solverUsdc(t),
  };
  await user.initiateWithSignature(order);
  await waitFor(() => journaled(t, order).includes("fill:confirmed"), "the fill to land");
  const filled = await user.waitForOrder(order.order_id, (o) => o.destination_swap.initiate_tx_hash !== "");
  return { user, order, filled, secret, amount: BigInt(order.destination_swap.amount), before };
}

/** The solver sees no secret and no redeem of the order at the service: what it learns, it reads on chain. */
export function serviceSaysNothingOfTheRedeem(t: AttackNet, order: Order): void {
  t.proxy.lieAbout(order.order_id, (lied) => {
    for (const swap of [lied.source_swap, lied.destination_swap]) {
      swap.secret = "";
      swap.redeem_tx_hash = "";
    }
    if (lied.status === "Redeemed" || lied.status === "RedeemDetected") lied.status = "AwaitingRedeem";
  });
}

/**
 * After the solver redeemed its source: it paid the SOL and its fill's fee (the swap's rent came back to
 * it as the rent sponsor) and was paid the whole source; the user paid the whole source.
 */
export async function expectSolverPaidAndWasPaid(t: AttackNet, o: FilledSolanaOrder): Promise<void> {
  const journal = t.net.solver!.journal;
  const fill = journal.orderActions(o.order.order_id).find((a) => a.kind === "fill")!;
  const fillTx = journal.attemptsOfAction(fill.id).find((a) => a.state === "confirmed")!;
  expect(o.before.solverSol - (await solverSolana(t, SOL))).toBe(o.amount + feeOf(t, fillTx.txHash));
  expect((await solverUsdc(t)) - o.before.solverUsdc).toBe(USDC_SOURCE_AMOUNT);
  expect(o.before.userUsdc - (await o.user.balance(USDC_SOURCE))).toBe(USDC_SOURCE_AMOUNT);
}
