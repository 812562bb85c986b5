/**
 * The quote thread prices network fees from its snapshot's copy of the fee facts and judges their age
 * when it quotes, with the main thread's code: an estimate too old, or none, refuses there too.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Pricing } from "../../../../src/pricing/pricing.js";
import { SnapshotQuoter } from "../../../../src/pricing/quote-thread/snapshot-quoter.js";
import { FREE, NO_MIN_PROFIT } from "../../../support/network-fees.js";
import { BTC, USDC } from "../fixtures.js";
import { NOW_MS, pricingOver } from "../quote-thread/support.js";

const running: Pricing[] = [];
afterEach(async () => {
  for (const pricing of running.splice(0)) await pricing.stop();
});

const request = { from: BTC.id, to: USDC.id, fromAmount: 1_000_000n };

describe("network fees in the quote thread", () => {
  it("quotes from the snapshot's estimates, and refuses once they are older than maxAgeMs or missing", async () => {
    const pricing = await pricingOver({});
    running.push(pricing);
    const snapshot = await pricing.quoteSnapshot(1_000);
    const quoted = await new SnapshotQuoter(snapshot, 2_000, () => NOW_MS).quote(request);
    expect("reason" in quoted ? quoted.reason : null).toBeNull();

    const readAt = NOW_MS - NO_MIN_PROFIT.maxAgeMs - 1;
    const chains = [...snapshot.networkFees.readings.keys()];
    const old = {
      ...snapshot,
      networkFees: {
        readings: new Map(chains.map((c) => [c, { last: { fees: FREE, atMs: readAt }, error: "timeout" }])),
        batches: new Map(),
      },
    };
    const stale = await new SnapshotQuoter(old, 2_000, () => NOW_MS).quote(request);
    expect(stale).toMatchObject({ ok: false, reason: "network_fee_unavailable" });
    expect("message" in stale && stale.message).toMatch(/ms old, more than 3600000 ms; last read: timeout/);

    const none = { ...snapshot, networkFees: { readings: new Map(), batches: new Map() } };
    const missing = await new SnapshotQuoter(none, 2_000, () => NOW_MS).quote(request);
    expect(missing).toMatchObject({ ok: false, reason: "network_fee_unavailable" });
    expect("message" in missing && missing.message).toMatch(
      /no network fee estimate of chain .*: none read yet/,
    );
  });
});
