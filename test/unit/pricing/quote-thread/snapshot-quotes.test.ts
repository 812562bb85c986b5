/**
 * A quote from a snapshot is the quote the main thread gives for the same facts: prices with their
 * staleness, disagreement and peg verdicts, the inventory curve, floors, committed amounts, exposure and
 * failed balance reads, all carried through a structured clone as a post to the thread would. And a
 * snapshot older than the bound quotes nothing.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Pricing } from "../../../../src/pricing/pricing.js";
import type { QuoteRequest } from "../../../../src/pricing/quote.js";
import { SnapshotQuoter } from "../../../../src/pricing/quote-thread/snapshot-quoter.js";
import { takeQuoteSnapshot } from "../../../../src/pricing/quote-thread/snapshot.js";
import { BTC, ETH, USDC } from "../fixtures.js";
import { FEED_MAX_AGE_MS, NOW_MS, WBTC, pricingOver, type Facts } from "./support.js";

const REQUESTS: QuoteRequest[] = [
  { from: BTC.id, to: USDC.id, fromAmount: 10_000_000n },
  { from: BTC.id, to: USDC.id, fromAmount: 100_000_000n },
  { from: USDC.id, to: BTC.id, fromAmount: 5_000_000_000n },
  { from: WBTC.id, to: USDC.id, fromAmount: 1_000_000n },
  { from: ETH.id, to: USDC.id, fromAmount: 10n ** 18n },
  { from: BTC.id, to: USDC.id, fromAmount: 10n ** 11n },
  { from: USDC.id, to: ETH.id, fromAmount: 1_000_000n },
];

const running: Pricing[] = [];
afterEach(async () => {
  for (const pricing of running.splice(0)) await pricing.stop();
});

async function bothAnswers(facts: Facts) {
  const pricing = await pricingOver(facts);
  running.push(pricing);
  const snapshot = structuredClone(await pricing.quoteSnapshot(1_000));
  const quoter = new SnapshotQuoter(snapshot, 2_000, () => NOW_MS);
  const main = await Promise.all(REQUESTS.map((request) => pricing.quote(request)));
  const thread = await Promise.all(REQUESTS.map((request) => quoter.quote(request)));
  return { main, thread };
}

function reasons(answers: Awaited<ReturnType<Pricing["quote"]>>[]): string[] {
  return answers.map((answer) => ("reason" in answer ? answer.reason : "given"));
}

describe("a quote from a snapshot", () => {
  const cases: { name: string; facts: Facts; expected: string[] }[] = [
    {
      name: "fresh, agreeing prices and room everywhere",
      facts: {},
      expected: ["given", "given", "given", "given", "given", "above_max", "no_strategy"],
    },
    {
      name: "BTC's sources disagree",
      facts: { btcB: 70_000n },
      expected: ["price_sources_disagree", "price_sources_disagree", "price_sources_disagree"],
    },
    {
      name: "one BTC source is old",
      facts: { btcAAgeMs: FEED_MAX_AGE_MS + 1_000 },
      expected: ["price_stale", "price_stale", "price_stale", "price_stale"],
    },
    {
      name: "WBTC off its peg",
      facts: { wbtc: 60_000n },
      expected: ["given", "given", "given", "price_depegged"],
    },
    {
      name: "USDC short after fills committed, BTC balance unreadable",
      facts: { committed: { [USDC.id]: 95_000_000_000n }, failingBalance: BTC.id },
      expected: ["insufficient_inventory", "insufficient_inventory", "inventory_unavailable"],
    },
    {
      name: "value in flight near the limit",
      facts: { inFlight: { [BTC.id]: 700_000_000n } },
      expected: ["given", "exposure_limit"],
    },
  ];
  for (const { name, facts, expected } of cases) {
    it(`equals the main thread's quote: ${name}`, async () => {
      const { main, thread } = await bothAnswers(facts);
      expect(thread).toEqual(main);
      expect(reasons(thread).slice(0, expected.length)).toEqual(expected);
    });
  }

  it("prices at the inventory curve of the snapshot's holding", async () => {
    const low = await bothAnswers({ balances: { [USDC.id]: 20_000_000_000n } });
    const high = await bothAnswers({});
    const fee = (answers: typeof low.thread) => ("fee" in answers[0]! ? answers[0].fee : null);
    expect(fee(low.thread)).toBeGreaterThan(fee(high.thread) ?? Infinity);
    expect(low.thread).toEqual(low.main);
  });
});

describe("the snapshot's age", () => {
  it("refuses every quote, state_stale, once the snapshot is older than the bound", async () => {
    const pricing = await pricingOver({});
    running.push(pricing);
    let now = NOW_MS;
    const quoter = new SnapshotQuoter(await pricing.quoteSnapshot(1_000), 2_000, () => now);
    const request = REQUESTS[0] as QuoteRequest;
    now = NOW_MS + 2_000;
    expect(await quoter.quote(request)).toMatchObject({ destination: { asset: USDC.id } });
    now = NOW_MS + 2_001;
    expect(await quoter.quote(request)).toMatchObject({ ok: false, reason: "state_stale" });
  });

  it("quotes again from a newer snapshot, and ignores one older than the snapshot in force", async () => {
    const pricing = await pricingOver({});
    running.push(pricing);
    const first = await pricing.quoteSnapshot(1_000);
    let now = NOW_MS + 5_000;
    const quoter = new SnapshotQuoter(first, 2_000, () => now);
    const request = REQUESTS[0] as QuoteRequest;
    expect(await quoter.quote(request)).toMatchObject({ reason: "state_stale" });
    quoter.update({ ...first, takenAtMs: NOW_MS + 4_000 });
    expect(await quoter.quote(request)).toMatchObject({ destination: { asset: USDC.id } });
    quoter.update({ ...first, takenAtMs: NOW_MS });
    now = NOW_MS + 5_900;
    expect(await quoter.quote(request)).toMatchObject({ destination: { asset: USDC.id } });
  });
});

describe("taking a snapshot", () => {
  it("counts a balance read still under way after the wait as failed, without waiting for it", async () => {
    const pricing = await pricingOver({});
    running.push(pricing);
    const snapshot = await pricing.quoteSnapshot(1_000);
    const started = Date.now();
    const taken = await takeQuoteSnapshot({
      settings: snapshot.settings,
      readings: snapshot.readings,
      networkFees: snapshot.networkFees,
      balances: { balance: () => new Promise<bigint>(() => undefined) },
      committed: () => 0n,
      inFlight: () => 0n,
      balanceWaitMs: 50,
      now: () => NOW_MS,
    });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(taken.capacity.balances.get(USDC.id)).toEqual({
      ok: false,
      error: "the balance read took more than 50 ms",
    });
  });

  it("carries the settings in force, the sources' readings and the journal's amounts", async () => {
    const pricing = await pricingOver({ committed: { [USDC.id]: 7n }, inFlight: { [BTC.id]: 9n } });
    running.push(pricing);
    const snapshot = await pricing.quoteSnapshot(1_000);
    expect(snapshot.takenAtMs).toBe(NOW_MS);
    expect(snapshot.capacity.committed.get(USDC.id)).toBe(7n);
    expect(snapshot.capacity.inFlight.get(BTC.id)).toBe(9n);
    expect(snapshot.capacity.balances.get(USDC.id)).toEqual({ ok: true, amount: 100_000_000_000n });
    expect(snapshot.readings[BTC.id]?.map((reading) => reading.observation?.price)).toEqual([
      "65000",
      "65100",
    ]);
    expect(snapshot.settings.limits.maxInFlightUsdCents).toBe(50_000_000n);
  });
});
