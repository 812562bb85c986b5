/**
 * Opens the run's swaps all at once as users would (quote, create the order, initiate its source) and
 * follows them through the service until each is complete (the destination redeemed for the user and the
 * source redeemed by the solver) or the run's time is up.
 */
import type { OrderbookClient } from "../../../src/orderbook/client.js";
import type { Order } from "../../../src/orderbook/types.js";
import type { BenchUser } from "./users.js";
import {
  timedCreate,
  timedQuote,
  type ServiceEndpoint,
  type TimedCreate,
  type TimedQuote,
} from "./service-calls.js";
import type { PlannedSwap } from "./swap-mix.js";
import { USER_SLIPPAGE_BPS } from "../../support/localnet.js";

export interface SwapRecord {
  planned: PlannedSwap;
  quote: TimedQuote | null;
  create: TimedCreate | null;
  orderId: string | null;
  /** When the user signed, sent or paid its source lock. */
  initiatedAtMs: number | null;
  initiateError: string | null;
  /** The source's initiate transaction (EVM; a relayed one as the service named it). */
  initiateTx: string | null;
  /** The order as last read from the service. */
  order: Order | null;
  completedAtMs: number | null;
}

export function isComplete(order: Order): boolean {
  return order.destination_swap.redeem_tx_hash !== "" && order.source_swap.redeem_tx_hash !== "";
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export interface OpenOptions {
  /**
   * Called once every order is created and before any source is initiated, and awaited: the orders are
   * then all quoted and made, and every fill comes after it. Without it, each swap is initiated as soon as
   * its own order is made.
   */
  beforeInitiating?: () => Promise<void>;
}

/** Quotes and creates every order at once, then initiates each (Bitcoin deposits one payment per user). */
export async function openSwaps(
  planned: readonly PlannedSwap[],
  users: readonly BenchUser[],
  service: ServiceEndpoint,
  orderbook: OrderbookClient,
  options: OpenOptions = {},
): Promise<SwapRecord[]> {
  const records: SwapRecord[] = planned.map((p) => ({
    planned: p,
    quote: null,
    create: null,
    orderId: null,
    initiatedAtMs: null,
    initiateError: null,
    initiateTx: null,
    order: null,
    completedAtMs: null,
  }));
  const userOf = (record: SwapRecord): BenchUser => {
    const user = users[record.planned.user];
    if (user === undefined) throw new Error(`no user ${record.planned.user}`);
    return user;
  };
  const create = async (record: SwapRecord): Promise<void> => {
    const { kind } = record.planned;
    record.quote = await timedQuote(service, kind);
    if (record.quote.quote === null) return;
    const request = userOf(record).local.orderRequest(record.quote.quote, { slippageBps: USER_SLIPPAGE_BPS });
    record.create = await timedCreate(service, request);
    const orderId = record.create.result?.order_id;
    if (orderId === undefined) return;
    record.orderId = orderId;
    try {
      record.order = await orderbook.getOrder(orderId);
    } catch (error) {
      record.initiateError = message(error);
    }
  };
  const deposits = new Map<number, SwapRecord[]>();
  const initiate = async (record: SwapRecord): Promise<void> => {
    const { kind, user: userIndex } = record.planned;
    if (record.order === null || record.initiateError !== null) return;
    if (kind.initiate === "bitcoin-deposit") {
      deposits.set(userIndex, [...(deposits.get(userIndex) ?? []), record]);
      return;
    }
    try {
      record.initiatedAtMs = Date.now();
      record.initiateTx =
        kind.initiate === "signature"
          ? await userOf(record).initiateWithSignature(record.order)
          : await userOf(record).initiateOnChain(record.order);
    } catch (error) {
      record.initiateError = message(error);
    }
  };
  const beforeInitiating = options.beforeInitiating;
  if (beforeInitiating === undefined) {
    await Promise.all(
      records.map(async (record) => {
        await create(record);
        await initiate(record);
      }),
    );
  } else {
    await Promise.all(records.map(create));
    await beforeInitiating();
    await Promise.all(records.map(initiate));
  }
  await Promise.all(
    [...deposits].map(async ([userIndex, batch]) => {
      const user = users[userIndex];
      const orders = batch.flatMap((r) => (r.order === null ? [] : [r.order]));
      const at = Date.now();
      try {
        await user?.fundBitcoinSources(orders);
        for (const record of batch) record.initiatedAtMs = at;
      } catch (error) {
        for (const record of batch) record.initiateError = message(error);
      }
    }),
  );
  return records;
}

export interface FollowOptions {
  deadlineMs: number;
  intervalMs?: number;
  progress?: (done: number, open: number) => void;
}

/** Reads every order through the service's listing until all initiated ones are complete or time is up. */
export async function followSwaps(
  records: readonly SwapRecord[],
  orderbook: OrderbookClient,
  options: FollowOptions,
): Promise<void> {
  const byId = new Map(records.flatMap((r) => (r.orderId === null ? [] : [[r.orderId, r] as const])));
  const waiting = (): SwapRecord[] =>
    records.filter((r) => r.initiatedAtMs !== null && r.completedAtMs === null);
  let lastProgress = 0;
  while (waiting().length > 0 && Date.now() < options.deadlineMs) {
    try {
      const { orders } = await orderbook.listAllOrders({ per_page: 100 }, 1_000);
      const now = Date.now();
      for (const order of orders) {
        const record = byId.get(order.order_id);
        if (record === undefined) continue;
        record.order = order;
        if (record.completedAtMs === null && isComplete(order)) record.completedAtMs = now;
      }
    } catch {
      // A failed listing is tried again at the next interval.
    }
    if (options.progress && Date.now() - lastProgress >= 10_000) {
      lastProgress = Date.now();
      const done = records.filter((r) => r.completedAtMs !== null).length;
      options.progress(done, waiting().length);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 1_000));
  }
}

/** What each swap that did not complete shows: its status, and where its EVM source's initiate stands. */
export async function describeIncomplete(
  records: readonly SwapRecord[],
  users: readonly BenchUser[],
): Promise<string[]> {
  const lines: string[] = [];
  for (const record of records) {
    if (record.orderId === null || record.completedAtMs !== null) continue;
    const { kind, user } = record.planned;
    let initiate = "";
    if (record.initiateTx !== null && kind.initiate !== "bitcoin-deposit") {
      const state = await users[user]?.transactionState(kind.from, record.initiateTx);
      initiate = `; source initiate ${record.initiateTx} ${state ?? "?"}`;
    }
    lines.push(
      `incomplete: ${kind.label} order ${record.orderId} is ${record.order?.status ?? "unread"}${initiate}`,
    );
  }
  return lines;
}

/** Orders initiated and not complete yet. */
export function openCount(records: readonly SwapRecord[]): number {
  let open = 0;
  for (const r of records) if (r.orderId !== null && r.completedAtMs === null) open++;
  return open;
}
