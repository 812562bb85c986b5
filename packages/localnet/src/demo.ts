/**
 * The localnet demo: swaps in both directions between the two local chains, driven through the service's
 * API as a wallet would, printing each order's progress and the time from the user's initiate to the
 * solver's source redeem.
 */
import { OrderbookClient } from "htlc-solver/orderbook/client.js";
import type { Order } from "htlc-solver/orderbook/types.js";
import type { LocalnetDescriptor } from "./descriptor.js";
import { demoSwaps, type DemoSwap } from "./families/registry.js";
import { createLocalUser } from "./user.js";

export type { DemoSwap } from "./families/registry.js";

export interface DemoResult {
  swap: DemoSwap;
  orderId: string | null;
  completed: boolean;
  /** From the user's initiate to the source redeem; null when the swap did not complete. */
  elapsedMs: number | null;
  error: string | null;
}

export interface DemoOptions {
  print(line: string): void;
  /** Per swap, from initiate to completion. */
  timeoutMs?: number;
  pollMs?: number;
  swaps?: readonly DemoSwap[];
  /** Stops the demo early (Ctrl-C): no further swap starts and the current one stops being followed. */
  abort?: AbortSignal;
}

const INDENT = "      ";

/**
 * Complete as docs/service-api.md says (destination redeemed), and the solver has its source redeem
 * too.
 */
export function isComplete(order: Order): boolean {
  return order.destination_swap.redeem_tx_hash !== "" && order.source_swap.redeem_tx_hash !== "";
}

function hasFailed(order: Order): boolean {
  return order.status === "Refunded" || order.status === "Expired";
}

const TX_EVENTS: readonly { label: string; side: "source_swap" | "destination_swap"; field: TxField }[] = [
  { label: "user initiate", side: "source_swap", field: "initiate_tx_hash" },
  { label: "solver fill", side: "destination_swap", field: "initiate_tx_hash" },
  { label: "destination redeem", side: "destination_swap", field: "redeem_tx_hash" },
  { label: "solver redeem", side: "source_swap", field: "redeem_tx_hash" },
  { label: "destination refund", side: "destination_swap", field: "refund_tx_hash" },
  { label: "source refund", side: "source_swap", field: "refund_tx_hash" },
];

type TxField = "initiate_tx_hash" | "redeem_tx_hash" | "refund_tx_hash";

/**
 * What changed between two reads of an order: each transaction that appeared (indented), then the new
 * status they led to.
 */
export function progressLines(previous: Order | null, next: Order): string[] {
  const lines: string[] = [];
  for (const event of TX_EVENTS) {
    const hash = next[event.side][event.field];
    if (hash === "" || previous?.[event.side][event.field] === hash) continue;
    lines.push(`  ${event.label.padEnd(19)} ${next[event.side].chain.padEnd(18)} ${hash}`);
  }
  if (previous?.status !== next.status) lines.push(next.status);
  return lines;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Polls the order from the user's initiate (`startedMs`), printing each change with the time since. */
async function follow(
  orderbook: OrderbookClient,
  orderId: string,
  startedMs: number,
  options: DemoOptions,
): Promise<{ order: Order; completed: boolean }> {
  const deadline = startedMs + (options.timeoutMs ?? 120_000);
  let previous: Order | null = null;
  for (;;) {
    const order = await orderbook.getOrder(orderId);
    const at = `+${seconds(Date.now() - startedMs)}`.padStart(8);
    for (const line of progressLines(previous, order)) options.print(`${INDENT}${at}  ${line}`);
    previous = order;
    if (isComplete(order)) return { order, completed: true };
    const stopped = options.abort?.aborted === true;
    if (hasFailed(order) || stopped || Date.now() > deadline) return { order, completed: false };
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 250));
  }
}

async function runSwap(
  descriptor: LocalnetDescriptor,
  orderbook: OrderbookClient,
  swap: DemoSwap,
  label: string,
  options: DemoOptions,
): Promise<DemoResult> {
  const account = descriptor.users[swap.user];
  if (account === undefined) throw new Error(`the localnet has no user ${swap.user}`);
  const user = createLocalUser(descriptor, account.privateKey, orderbook);
  const quote = await user.bestQuote(swap.from, swap.to, swap.amount);
  options.print(
    `${label}: ${user.describeAmount(swap.from, swap.amount)} -> ` +
      `${user.describeAmount(swap.to, BigInt(quote.destination.amount))} (${swap.method(user)})`,
  );
  const order = await user.createOrder(quote);
  options.print(`${INDENT}order ${order.order_id} by ${user.address}`);
  const started = Date.now();
  await swap.initiate(user, order);
  const outcome = await follow(orderbook, order.order_id, started, options);
  const elapsedMs = Date.now() - started;
  if (outcome.completed) {
    options.print(`${INDENT}completed in ${seconds(elapsedMs)} (user initiate to source redeem)`);
    return { swap, orderId: order.order_id, completed: true, elapsedMs, error: null };
  }
  const error = `not complete: status ${outcome.order.status} after ${seconds(elapsedMs)}`;
  options.print(`${INDENT}FAILED: ${error}`);
  return { swap, orderId: order.order_id, completed: false, elapsedMs: null, error };
}

/** Runs the swaps one after another; a failed swap is reported and the next one still runs. */
export async function runDemo(descriptor: LocalnetDescriptor, options: DemoOptions): Promise<DemoResult[]> {
  const orderbook = new OrderbookClient({
    baseUrl: descriptor.service.url,
    appId: descriptor.service.appId,
  });
  const swaps = options.swaps ?? demoSwaps();
  const results: DemoResult[] = [];
  for (const [index, swap] of swaps.entries()) {
    if (options.abort?.aborted === true) break;
    const label = `swap ${index + 1} of ${swaps.length}`;
    options.print("");
    try {
      results.push(await runSwap(descriptor, orderbook, swap, label, options));
    } catch (error) {
      options.print(`${label} FAILED: ${message(error)}`);
      results.push({ swap, orderId: null, completed: false, elapsedMs: null, error: message(error) });
    }
  }
  return results;
}

export function demoSummary(results: readonly DemoResult[]): string {
  const completed = results.filter((r) => r.completed).length;
  return `${completed} of ${results.length} swaps completed`;
}
