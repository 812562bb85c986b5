/**
 * The runner on in-memory chains (fake-chain.ts) and a real journal, for tests of the whole flow of
 * orders through it.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach } from "vitest";
import { feeCoinsOf } from "../../../src/chains/coins.js";
import type { Limits } from "../../../src/config/types.js";
import { Journal } from "../../../src/journal/journal.js";
import type { Order } from "../../../src/orderbook/types.js";
import { indexAssets } from "../../../src/pricing/assets.js";
import { CapacityLedger } from "../../../src/pricing/capacity-ledger.js";
import type { OrderAmounts } from "../../../src/pricing/order-check.js";
import { FixedPriceSource } from "../../../src/pricing/price-source.js";
import type { QuoteCheck } from "../../../src/solver/plan-types.js";
import { Runner } from "../../../src/solver/runner.js";
import { fundedSource, makeOrder, NOW_MS, SOLVER, TEST_SAFETY } from "../../support/order-fixture.js";
import { FakeChain } from "./fake-chain.js";

export const USDC = "arbitrum_localnet:usdc";
export const ETH = "arbitrum_localnet:eth";
const opened: Journal[] = [];

afterEach(() => {
  for (const journal of opened.splice(0)) journal.close();
});

export interface Harness {
  journal: Journal;
  source: FakeChain;
  destination: FakeChain;
  orders: Order[];
  delivered: string[];
  limits: Limits;
  /** Pricing's verdict on the amounts a fill carries. */
  quote: (amounts: OrderAmounts) => QuoteCheck;
  /** The service answers nothing while set. */
  serviceDown: boolean;
  /** The round's full listing fails while set; the scout's paged one still answers. */
  fullListingDown: boolean;
  /** The round's full listing leaves out these orders, as the service's status filter does. */
  unlisted: Set<string>;
  /** Ids of the orders read one by one. */
  orderReads: string[];
  /** The runner's clock. */
  clockMs: number;
  runner: Runner;
  fills(): string[];
}

const SOURCE_CHAINS = { evm: "ethereum_localnet", bitcoin: "bitcoin_regtest", solana: "solana_localnet" };
const SOURCE_ASSETS = {
  evm: { symbol: "usdc", tokenAddress: "0x00000000000000000000000000000000000000c1", decimals: 6 },
  bitcoin: { symbol: "btc", tokenAddress: "primary", decimals: 8 },
  solana: { symbol: "sol", tokenAddress: "native", decimals: 9 },
};

export function harness(
  options: {
    sourceFamily?: "evm" | "bitcoin" | "solana";
    limits?: Partial<Limits>;
    /** With it the chain watch runs beside rounds an hour apart (unless `pollIntervalMs` says otherwise). */
    watchIntervalMs?: number;
    pollIntervalMs?: number;
  } = {},
): Harness {
  const journal = new Journal(join(mkdtempSync(join(tmpdir(), "runner-")), "journal.sqlite"));
  opened.push(journal);
  const sourceFamily = options.sourceFamily ?? "evm";
  const source = new FakeChain(SOURCE_CHAINS[sourceFamily], sourceFamily, () => journal);
  const destination = new FakeChain("arbitrum_localnet", "evm", () => journal);
  // An EVM source chain lists its coin beside the token orders lock, as a real one would.
  const sourceAssets =
    sourceFamily === "evm"
      ? [SOURCE_ASSETS.evm, { symbol: "eth", tokenAddress: "native", decimals: 18 }]
      : [SOURCE_ASSETS[sourceFamily]];
  const chains = new Map([
    [source.chain, source.solverChain(SOLVER, sourceAssets)],
    [
      destination.chain,
      destination.solverChain(SOLVER, [
        { symbol: "usdc", tokenAddress: "0x00000000000000000000000000000000000000c2", decimals: 6 },
        { symbol: "eth", tokenAddress: "native", decimals: 18 },
      ]),
    ],
  ]);
  const assets = indexAssets([...chains.values()].map((c) => c.config));
  const limits: Limits = {
    maxOrderAmount: {},
    inventoryFloor: {},
    maxInFlightUsdCents: 10n ** 12n,
    ...options.limits,
  };
  const h: Harness = {
    journal,
    source,
    destination,
    orders: [],
    delivered: [],
    limits,
    quote: () => ({ ok: true }),
    serviceDown: false,
    fullListingDown: false,
    unlisted: new Set(),
    orderReads: [],
    clockMs: NOW_MS,
    runner: undefined as unknown as Runner,
    fills: () =>
      destination.built
        .flat()
        .filter((a) => a.kind === "fill")
        .map((a) => a.orderId),
  };
  const prices = new FixedPriceSource({
    [USDC]: "1",
    [ETH]: "3000",
    "ethereum_localnet:usdc": "1",
    "ethereum_localnet:eth": "3000",
  });
  const copy = (order: Order): Order => structuredClone(order);
  h.runner = new Runner({
    journal,
    orderbook: {
      listAllOrders: () =>
        h.serviceDown || h.fullListingDown
          ? Promise.reject(new Error("service unreachable"))
          : Promise.resolve({
              orders: h.orders.filter((o) => !h.unlisted.has(o.order_id)).map(copy),
              malformed: [],
            }),
      // Newest first, as the service lists.
      listOrders: ({ page = 1, per_page = 100 }) => {
        if (h.serviceDown) return Promise.reject(new Error("service unreachable"));
        const newestFirst = [...h.orders].reverse();
        const data = newestFirst.slice((page - 1) * per_page, page * per_page).map(copy);
        const total_pages = Math.max(1, Math.ceil(newestFirst.length / per_page));
        return Promise.resolve({
          page: { data, page, per_page, total_items: newestFirst.length, total_pages },
          malformed: [],
        });
      },
      getOrder: (id) => {
        if (h.serviceDown) return Promise.reject(new Error("service unreachable"));
        h.orderReads.push(id);
        const order = h.orders.find((o) => o.order_id === id);
        return order ? Promise.resolve(copy(order)) : Promise.reject(new Error(`no order ${id}`));
      },
      instantRefund: (orderId) => {
        h.delivered.push(orderId);
        return Promise.resolve({});
      },
    },
    chains,
    prices,
    checkQuote: (amounts) => Promise.resolve(h.quote(amounts)),
    openLedger: (ids) =>
      CapacityLedger.open(
        {
          balances: { balance: (id) => (id.startsWith(source.chain) ? source : destination).balance(id) },
          plannedFills: () => journal.plannedFillsByAsset(),
          inFlight: () => journal.inFlightByAsset(),
          floors: limits.inventoryFloor,
          prices,
          assets,
          feeCoins: feeCoinsOf([...chains.values()].map((c) => c.config)),
          limits,
          priceAt: () => Promise.resolve(undefined),
        },
        ids,
      ),
    safety: TEST_SAFETY,
    pollIntervalMs: options.pollIntervalMs ?? (options.watchIntervalMs === undefined ? 1_000 : 3_600_000),
    ...(options.watchIntervalMs === undefined ? {} : { watchIntervalMs: options.watchIntervalMs }),
    logger: pino({ level: "silent" }),
    now: () => h.clockMs,
  });
  destination.held.set(USDC, 10n ** 12n);
  destination.held.set(ETH, 10n ** 18n);
  return h;
}

/** Order `i`: its own id, source and destination HTLCs, funded and confirmed on the source chain. */
export function addOrder(h: Harness, i: number, patch: (order: Order) => void = () => undefined): Order {
  const id = i.toString(16).padStart(2, "0");
  const order = makeOrder({
    source: {
      swap_id: id.repeat(32),
      chain: h.source.chain,
      asset: `${h.source.chain}:${SOURCE_ASSETS[h.source.family as keyof typeof SOURCE_ASSETS].symbol}`,
    },
    destination: { swap_id: `d${id}`.padEnd(64, "0") },
  });
  order.order_id = `0${id}`.padEnd(64, "f");
  if (h.source.family === "bitcoin") order.source_swap.delegate = "ab".repeat(32);
  patch(order);
  h.orders.push(order);
  const state = fundedSource(order);
  if (h.source.family === "bitcoin") state.onChain = null;
  h.source.htlcs.set(order.source_swap.swap_id, state);
  return order;
}
