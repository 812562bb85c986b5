import { describe, expect, it } from "vitest";
import { applyFacts, confirmationsAt } from "../../../../src/service/orders/swap-facts.js";
import { swapRecord } from "./fixture.js";

describe("confirmationsAt", () => {
  it("is min(required, tip - height + 1), and 0 below the height", () => {
    expect(confirmationsAt(3, 10n, 10n)).toBe(1);
    expect(confirmationsAt(3, 11n, 10n)).toBe(2);
    expect(confirmationsAt(3, 500n, 10n)).toBe(3);
    expect(confirmationsAt(3, 9n, 10n)).toBe(0);
    // Height 0: a Bitcoin funding still in the mempool.
    expect(confirmationsAt(3, 500n, 0n)).toBe(0);
  });
});

describe("applyFacts", () => {
  it("fills the initiate, redeem and refund fields and recounts confirmations", () => {
    const initiated = applyFacts(
      swapRecord(),
      {
        onChain: null,
        initiate: {
          txHash: "0xaa",
          blockNumber: 10n,
          timestamp: "2026-01-01T00:00:10.000Z",
          filledAmount: 1000n,
        },
      },
      10n,
    );
    expect(initiated).toMatchObject({
      initiate_tx_hash: "0xaa",
      initiate_block_number: "10",
      initiate_timestamp: "2026-01-01T00:00:10.000Z",
      filled_amount: "1000",
      current_confirmations: 1,
    });
    const later = applyFacts(
      initiated,
      {
        onChain: null,
        redeem: { txHash: "0xbb", blockNumber: 12n, timestamp: "t", secret: "22".repeat(32) },
      },
      12n,
    );
    expect(later).toMatchObject({
      redeem_tx_hash: "0xbb",
      redeem_block_number: "12",
      redeem_timestamp: "t",
      secret: "22".repeat(32),
      current_confirmations: 2,
    });
    const refunded = applyFacts(
      initiated,
      { onChain: null, refund: { txHash: "0xcc", blockNumber: 20n, timestamp: "r" } },
      20n,
    );
    expect(refunded).toMatchObject({
      refund_tx_hash: "0xcc",
      refund_block_number: "20",
      refund_timestamp: "r",
    });
  });

  it("leaves an uninitiated swap at 0 confirmations", () => {
    expect(applyFacts(swapRecord(), { onChain: null }, 99n).current_confirmations).toBe(0);
  });
});
