import { describe, expect, it } from "vitest";
import type { OrderStatus, SwapRecord } from "htlc-solver/orderbook/types.js";
import { isSettled, nextStatus, type StatusInputs } from "../../../../src/service/orders/status.js";
import { confirmedSource, swapRecord } from "./fixture.js";

const CREATED_MS = Date.parse("2026-01-01T00:00:00Z");

function status(
  source: SwapRecord,
  destination: SwapRecord,
  options: Partial<StatusInputs> = {},
): OrderStatus {
  return nextStatus({
    previous: "Created",
    source,
    destination,
    destinationTip: 100n,
    createdAtMs: CREATED_MS,
    deadlineSeconds: CREATED_MS / 1000 + 43_200,
    initiateDetectSeconds: 3600,
    nowMs: CREATED_MS + 1000,
    ...options,
  });
}

const destinationLocked = swapRecord({
  initiate_tx_hash: "0x02",
  initiate_block_number: "50",
  required_confirmations: 1,
});

describe("nextStatus", () => {
  it("walks Created → InitiateDetected → Initiated → AwaitingRedeem", () => {
    expect(status(swapRecord(), swapRecord())).toBe("Created");
    const detected = confirmedSource({ current_confirmations: 1 });
    expect(status(detected, swapRecord())).toBe("InitiateDetected");
    expect(status(confirmedSource(), swapRecord())).toBe("Initiated");
    expect(status(confirmedSource(), destinationLocked)).toBe("AwaitingRedeem");
  });

  it("needs the full amount for Initiated", () => {
    expect(status(confirmedSource({ filled_amount: "999" }), swapRecord())).toBe("InitiateDetected");
  });

  it("needs every Bitcoin funding transaction mined for Initiated", () => {
    const twoOutputs = confirmedSource({ initiate_tx_hash: `${"a1".repeat(32)}:10,${"b2".repeat(32)}:0` });
    expect(status(twoOutputs, swapRecord())).toBe("InitiateDetected");
    const mined = confirmedSource({ initiate_tx_hash: `${"a1".repeat(32)}:10,${"b2".repeat(32)}:11` });
    expect(status(mined, swapRecord())).toBe("Initiated");
  });

  it("tells a seen destination redeem from a confirmed one by the destination's confirmations", () => {
    const redeemed = {
      ...destinationLocked,
      redeem_tx_hash: "0x03",
      redeem_block_number: "100",
      required_confirmations: 2,
    };
    expect(status(confirmedSource(), redeemed, { destinationTip: 100n })).toBe("RedeemDetected");
    expect(status(confirmedSource(), redeemed, { destinationTip: 101n })).toBe("Redeemed");
  });

  it("reports a refund on either side", () => {
    expect(status(confirmedSource({ refund_tx_hash: "0x04" }), swapRecord())).toBe("Refunded");
    expect(status(confirmedSource(), { ...destinationLocked, refund_tx_hash: "0x05" })).toBe("Refunded");
  });

  it("expires without a source initiate after the detect window, or unconfirmed after the deadline", () => {
    expect(status(swapRecord(), swapRecord(), { nowMs: CREATED_MS + 3_600_001 })).toBe("Expired");
    const detected = confirmedSource({ current_confirmations: 1 });
    expect(status(detected, swapRecord(), { nowMs: CREATED_MS + 3_600_001 })).toBe("InitiateDetected");
    expect(status(detected, swapRecord(), { nowMs: CREATED_MS + 43_200_001 })).toBe("Expired");
  });

  it("keeps Expired even when the source confirms late, but still records a refund", () => {
    expect(status(confirmedSource(), swapRecord(), { previous: "Expired" })).toBe("Expired");
    expect(status(confirmedSource({ refund_tx_hash: "0x04" }), swapRecord(), { previous: "Expired" })).toBe(
      "Refunded",
    );
  });
});

describe("isSettled", () => {
  it("settles when both sides are final, or an expiry locked nothing", () => {
    const sourceRedeemed = confirmedSource({ redeem_tx_hash: "0x06", redeem_block_number: "12" });
    const destinationRedeemed = { ...destinationLocked, redeem_tx_hash: "0x07", redeem_block_number: "11" };
    const sourceRefunded = confirmedSource({ refund_tx_hash: "0x04", refund_block_number: "13" });
    expect(isSettled("Redeemed", confirmedSource(), destinationRedeemed)).toBe(false);
    expect(isSettled("Redeemed", sourceRedeemed, destinationRedeemed)).toBe(true);
    expect(isSettled("Refunded", sourceRefunded, swapRecord())).toBe(true);
    expect(isSettled("Refunded", sourceRefunded, destinationLocked)).toBe(false);
    expect(isSettled("Expired", swapRecord(), swapRecord())).toBe(true);
    expect(isSettled("Expired", confirmedSource(), swapRecord())).toBe(false);
  });

  it("keeps watching a Bitcoin redeem seen only in the mempool (block 0) until it is mined", () => {
    const destinationRedeemed = { ...destinationLocked, redeem_tx_hash: "07", redeem_block_number: "11" };
    const sourceInMempool = confirmedSource({ redeem_tx_hash: "06", redeem_block_number: "0" });
    expect(isSettled("Redeemed", sourceInMempool, destinationRedeemed)).toBe(false);
    expect(
      isSettled("Redeemed", { ...sourceInMempool, redeem_block_number: "15" }, destinationRedeemed),
    ).toBe(true);
  });
});
