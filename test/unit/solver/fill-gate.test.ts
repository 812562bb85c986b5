/**
 * The fill gate over a real journal: one pass at a time per destination chain, so a chain whose balance
 * reads are slow never holds another chain's fills, and the exposure limit counted across all chains
 * even when their passes overlap.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { feeCoinsOf } from "../../../src/chains/coins.js";
import type { AssetConfig, Limits } from "../../../src/config/types.js";
import { Journal } from "../../../src/journal/journal.js";
import type { Order } from "../../../src/orderbook/types.js";
import { CapacityLedger, type CapacityLedgerDeps } from "../../../src/pricing/capacity-ledger.js";
import type { OrderAmounts } from "../../../src/pricing/order-check.js";
import { refuse } from "../../../src/pricing/refusal.js";
import type { PriceSource } from "../../../src/pricing/price-source.js";
import { FillGate, type ActionCandidate, type GateResult } from "../../../src/solver/fill-gate.js";
import { plan } from "../../../src/solver/planner.js";
import { chainsOf } from "../../support/coin-chains.js";
import { makeOrder, NOW_MS, planInput } from "../../support/order-fixture.js";

const CHAINS = ["ethereum_localnet", "arbitrum_localnet"] as const;
type Chain = (typeof CHAINS)[number];
const usdcOf = (chain: Chain): AssetConfig => ({
  id: `${chain}:usdc`,
  chain,
  symbol: "usdc",
  decimals: 6,
  tokenAddress: "0x00000000000000000000000000000000000000c1",
  htlcAddress: "",
});

const opened: Journal[] = [];
afterEach(() => {
  for (const journal of opened.splice(0)) journal.close();
});

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * A gate whose balance reads of a chain wait while `slowBalances` holds that chain, and whose price of
 * an asset waits while `slowPrices` holds it; every destination holds plenty.
 */
function setup(limits: Partial<Limits> = {}) {
  const journal = new Journal(join(mkdtempSync(join(tmpdir(), "fill-gate-")), "journal.sqlite"));
  opened.push(journal);
  const slowBalances = new Map<string, Promise<void>>();
  const slowPrices = new Map<string, Promise<void>>();
  const prices: PriceSource = {
    usdPrice: async (id) => {
      await slowPrices.get(id);
      return "1";
    },
  };
  const assets = new Map(CHAINS.map((chain) => [usdcOf(chain).id, usdcOf(chain)]));
  /** The price rule as the ledger asks it; every fill passes unless a test says otherwise. */
  const pricing: { priceAt: CapacityLedgerDeps["priceAt"] } = {
    priceAt: () => Promise.resolve(undefined),
  };
  const gate = new FillGate({
    journal,
    now: () => NOW_MS,
    openLedger: (ids) =>
      CapacityLedger.open(
        {
          balances: {
            balance: async (id) => {
              await slowBalances.get(assets.get(id)?.chain ?? "");
              return 10n ** 12n;
            },
          },
          plannedFills: () => journal.plannedFillsByAsset(),
          inFlight: () => journal.inFlightByAsset(),
          floors: {},
          prices,
          assets,
          feeCoins: feeCoinsOf(chainsOf(...assets.values())),
          limits: { maxOrderAmount: {}, inventoryFloor: {}, maxInFlightUsdCents: 10n ** 12n, ...limits },
          priceAt: (order, holding) => pricing.priceAt(order, holding),
        },
        ids,
      ),
  });
  let next = 0;
  /** A fill the planner asks for, of an order the journal follows, to `chain`. */
  const fillTo = (chain: Chain): ActionCandidate => {
    next += 1;
    const id = next.toString(16).padStart(2, "0");
    const order: Order = makeOrder({
      source: { swap_id: id.repeat(32) },
      destination: { chain, asset: usdcOf(chain).id, swap_id: `d${id}`.padEnd(64, "0") },
    });
    order.order_id = `0${id}`.padEnd(64, "f");
    journal.upsertOrder(order, NOW_MS);
    const input = planInput(order);
    const request = plan(input).actions.find((a) => a.kind === "fill");
    if (request === undefined) throw new Error("the fixture's order should be ready to fill");
    return { request, input };
  };
  return { journal, gate, fillTo, slowBalances, slowPrices, pricing };
}

const admittedIds = (result: GateResult) => result.admitted.map((a) => a.request.orderId);
const timeout = (ms: number) =>
  new Promise<"timed out">((resolve) => setTimeout(() => resolve("timed out"), ms));

describe("the fill gate", () => {
  it("admits one chain's fills while another chain's balances are still being read", async () => {
    const { gate, fillTo, slowBalances } = setup();
    const ethereum = fillTo("ethereum_localnet");
    const arbitrum = fillTo("arbitrum_localnet");
    const slow = deferred();
    slowBalances.set("ethereum_localnet", slow.promise);
    const ethereumPass = gate.admit([ethereum]);
    const arbitrumPass = await Promise.race([gate.admit([arbitrum]), timeout(2_000)]);
    expect(arbitrumPass !== "timed out" && admittedIds(arbitrumPass)).toEqual([arbitrum.request.orderId]);
    slow.resolve();
    expect(admittedIds(await ethereumPass)).toEqual([ethereum.request.orderId]);
  });

  it("counts in the exposure limit a fill another chain claimed after this pass read its balances", async () => {
    // 990000 units at $1 is 99 cents: one fill fits under 150 cents, two do not.
    const { journal, gate, fillTo, slowPrices } = setup({ maxInFlightUsdCents: 150n });
    const ethereum = fillTo("ethereum_localnet");
    const arbitrum = fillTo("arbitrum_localnet");
    // The Arbitrum pass holds the claims while it prices its fill; the Ethereum pass reads its balances
    // and the exposure (nothing claimed yet) meanwhile, then waits to claim.
    const pricing = deferred();
    slowPrices.set(arbitrum.request.params.asset, pricing.promise);
    const arbitrumPass = gate.admit([arbitrum]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const ethereumPass = gate.admit([ethereum]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    pricing.resolve();
    const [first, second] = await Promise.all([arbitrumPass, ethereumPass]);
    expect(admittedIds(first)).toEqual([arbitrum.request.orderId]);
    expect(admittedIds(second)).toEqual([]);
    expect(second.refused).toMatchObject([
      { orderId: ethereum.request.orderId, decision: { reason: "exposure_limit" } },
    ]);
    const claimed = [...journal.inFlightByAsset().values()].reduce((sum, amount) => sum + amount, 0n);
    expect(claimed).toBe(990_000n);
  });

  it("prices each fill by the terms it carries, at the inventory the fills admitted before it left", async () => {
    const { journal, gate, fillTo, pricing } = setup();
    const fills = [fillTo("arbitrum_localnet"), fillTo("arbitrum_localnet"), fillTo("arbitrum_localnet")];
    // The service now states other amounts than the terms the plan read (and the claim freezes).
    fills[0]!.input.order.source_swap.amount = "1";
    fills[0]!.input.order.destination_swap.amount = "5000000";
    const asked: { order: OrderAmounts; holding: bigint }[] = [];
    const held = 10n ** 12n;
    pricing.priceAt = (order, holding) => {
      asked.push({ order, holding });
      // This curve refuses once two fills have been taken from what is held.
      return Promise.resolve(holding < held - 1_500_000n ? refuse("price_moved", "wider now") : undefined);
    };
    const result = await gate.admit(fills);
    const terms = {
      fromAsset: "ethereum_localnet:usdc",
      toAsset: "arbitrum_localnet:usdc",
      fromAmount: 1_000_000n,
      toAmount: 990_000n,
    };
    expect(asked).toEqual([
      { order: terms, holding: held },
      { order: terms, holding: held - 990_000n },
      { order: terms, holding: held - 1_980_000n },
    ]);
    expect(admittedIds(result)).toEqual([fills[0]!.request.orderId, fills[1]!.request.orderId]);
    expect(result.refused).toEqual([
      {
        orderId: fills[2]!.request.orderId,
        decision: { outcome: "refuse", reason: "price_moved", detail: "wider now" },
      },
    ]);
    expect(journal.orderActions(fills[2]!.request.orderId)).toEqual([]);
    expect(journal.orderTerms(fills[0]!.request.orderId)?.destination.amount).toBe(990_000n);
  });

  it("claims a pass's fills in one transaction: a journal failure midway leaves none of them claimed", async () => {
    const { journal, gate, fillTo } = setup();
    const fills = [fillTo("ethereum_localnet"), fillTo("ethereum_localnet"), fillTo("ethereum_localnet")];
    const claimAction = journal.claimAction.bind(journal);
    let calls = 0;
    vi.spyOn(journal, "claimAction").mockImplementation((...args) => {
      calls += 1;
      if (calls === 2) throw new Error("the journal's lease was lost");
      return claimAction(...args);
    });
    await expect(gate.admit(fills)).rejects.toThrow("the journal's lease was lost");
    for (const fill of fills) expect(journal.orderActions(fill.request.orderId)).toEqual([]);
    expect(journal.inFlightByAsset().size).toBe(0);

    vi.mocked(journal.claimAction).mockRestore();
    const result = await gate.admit(fills);
    expect(admittedIds(result)).toEqual(fills.map((f) => f.request.orderId));
  });
});
