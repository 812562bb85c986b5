import { expect } from "vitest";
import type { Order } from "../../src/orderbook/types.js";

/**
 * The amount an order was made for. The service makes it at the solver's live quote at creation, which
 * carries the network fees of that moment: it may differ from a quote taken a moment before by a few
 * units in ten thousand, never more. Balances are checked against this amount.
 */
export function orderedAmount(order: Order, quoted: bigint): bigint {
  const amount = BigInt(order.destination_swap.amount);
  const drift = amount > quoted ? amount - quoted : quoted - amount;
  expect(drift * 10_000n).toBeLessThanOrEqual(quoted * 10n);
  return amount;
}
