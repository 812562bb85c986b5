import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import type { ActionRequest, SignedTx } from "../../../src/chains/chain.js";
import { Journal } from "../../../src/journal/journal.js";
import { PnlStore, recordFeePaid } from "../../../src/journal/pnl-store.js";
import { PnlMetrics } from "../../../src/pnl/pnl-metrics.js";
import { PnlRecorder } from "../../../src/pnl/recorder.js";
import { pnlReport } from "../../../src/pnl/report.js";
import { exactUsd } from "../../../src/pnl/usd.js";
import { claimOk } from "../../support/journal-claims.js";
import { makeOrder } from "../../support/order-fixture.js";
import { evmTerms } from "../../support/memory-journal.js";

const PRICES: Record<string, string> = {
  "ethereum_localnet:usdc": "1",
  "arbitrum_localnet:usdc": "0.9999",
  "arbitrum_localnet:eth": "3000",
  "ethereum_localnet:eth": "3000",
};
const SETTLED_AT = Date.parse("2030-01-02T03:04:05Z");

function request(orderId: string, kind: "fill" | "redeem", amount: bigint): ActionRequest {
  const chain = kind === "fill" ? "arbitrum_localnet" : "ethereum_localnet";
  return {
    kind,
    orderId,
    params: {
      chain,
      asset: `${chain}:usdc`,
      swapId: "aa".repeat(32),
      initiator: "0xa1",
      redeemer: "0xb2",
      secretHash: "cc".repeat(32),
      timelock: 600n,
      amount,
    },
  };
}

function signed(chain: string, txHash: string): SignedTx {
  return { chain, txHash, raw: "0x02", nonce: 1n, terms: evmTerms() };
}

function setUp() {
  const journal = new Journal(join(mkdtempSync(join(tmpdir(), "pnl-")), "journal.sqlite"));
  const store = new PnlStore(journal.database);
  const registry = new Registry();
  const recorder = new PnlRecorder({
    journal,
    store,
    decimalsOf: (asset) => (asset.endsWith(":eth") ? 18 : 6),
    feeAssetOf: (chain) => ({ id: `${chain}:eth`, decimals: 18 }),
    valuation: async (asset) =>
      PRICES[asset] === undefined ? null : { price: PRICES[asset], atMs: SETTLED_AT },
    metrics: new PnlMetrics(registry),
    logger: pino({ level: "silent" }),
    now: () => SETTLED_AT,
  });
  return { journal, store, recorder, registry };
}

/** A filled and redeemed order: 100 USDC in, 99.9 USDC out, gas on both chains. */
function settledOrder(journal: Journal, orderId: string): void {
  const order = makeOrder();
  order.order_id = orderId;
  order.destination_swap.asset = "arbitrum_localnet:usdc";
  journal.upsertOrder(order);
  const steps: ["fill" | "redeem", bigint, string, bigint][] = [
    ["fill", 99_900_000n, "f1", 52_000n * 100_000_000n],
    ["redeem", 100_000_000n, "e1", 48_000n * 1_000_000_000n],
  ];
  for (const [kind, amount, hash, fee] of steps) {
    const req = request(orderId, kind, amount);
    const { action } = claimOk(journal, req);
    const attempt = journal.recordSigned(
      [action.id],
      signed(req.params.chain, `0x${hash.repeat(32)}${orderId.slice(0, 2)}`),
    );
    recordFeePaid(journal, attempt.id, fee);
    journal.markConfirmed(attempt.id, 5n);
  }
  journal.markOrderDone(orderId);
}

describe("PnlRecorder", () => {
  it("journals an order's legs at the prices of the moment, once", async () => {
    const { journal, store, recorder, registry } = setUp();
    settledOrder(journal, "01".repeat(32));
    await recorder.recordSettlement("01".repeat(32));
    await recorder.recordSettlement("01".repeat(32));
    const settlements = store.settlements();
    expect(settlements).toHaveLength(1);
    expect(settlements[0]).toMatchObject({
      fromAsset: "ethereum_localnet:usdc",
      toAsset: "arbitrum_localnet:usdc",
      settledMs: SETTLED_AT,
    });
    expect(settlements[0]!.legs.map((l) => [l.kind, l.asset, l.amount, l.usdPrice])).toEqual([
      ["destination_given", "arbitrum_localnet:usdc", -99_900_000n, "0.9999"],
      ["source_received", "ethereum_localnet:usdc", 100_000_000n, "1"],
      ["network_fee", "arbitrum_localnet:eth", -5_200_000_000_000n, "3000"],
      ["network_fee", "ethereum_localnet:eth", -48_000_000_000_000n, "3000"],
    ]);
    // 100 − 99.9 × 0.9999 − (0.0000052 + 0.000048) × 3000 = 0.10999 − 0.1596 = −0.04961
    expect(exactUsd(pnlReport(settlements).total.pnl)).toBe("-0.04961");
    const metrics = await registry.getMetricsAsJSON();
    const loss = metrics.find((m) => m.name === "solver_pnl_loss_usd_total");
    expect(loss?.values[0]?.value).toBeCloseTo(0.04961, 8);
    const fees = metrics.find((m) => m.name === "solver_network_fees_usd_total");
    expect(fees?.values.map((v) => [v.labels.chain, v.value])).toEqual([
      ["arbitrum_localnet", expect.closeTo(0.0156, 10)],
      ["ethereum_localnet", expect.closeTo(0.144, 10)],
    ]);
  });

  it("journals nothing for an order the solver never moved money for", async () => {
    const { journal, store, recorder } = setUp();
    const order = makeOrder();
    order.order_id = "02".repeat(32);
    journal.upsertOrder(order);
    journal.markOrderDone(order.order_id);
    await recorder.recordSettlement(order.order_id);
    expect(store.settlements()).toEqual([]);
  });

  it("keeps a leg without a price, reported apart from the sums", async () => {
    const { journal, store, recorder } = setUp();
    delete PRICES["ethereum_localnet:eth"];
    try {
      settledOrder(journal, "03".repeat(32));
      await recorder.recordSettlement("03".repeat(32));
    } finally {
      PRICES["ethereum_localnet:eth"] = "3000";
    }
    const report = pnlReport(store.settlements());
    expect(report.total.unpricedLegs).toBe(1);
    expect(exactUsd(report.total.fees)).toBe("-0.0156");
  });
});
