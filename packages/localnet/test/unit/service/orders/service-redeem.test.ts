import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { SwapRecord } from "htlc-solver/orderbook/types.js";
import { serviceRedeemDecision, type RedeemInputs } from "../../../../src/service/orders/service-redeem.js";
import type { RelayRecord } from "../../../../src/service/store/relay-store.js";
import { confirmedSource, order, swapRecord } from "./fixture.js";

const SECRET = "33".repeat(32);
const HASH = createHash("sha256").update(Buffer.from(SECRET, "hex")).digest("hex");
const USER = "0x00000000000000000000000000000000000000b2";

const destination = (overrides: Partial<SwapRecord> = {}): SwapRecord =>
  swapRecord({
    secret_hash: HASH,
    redeemer: USER,
    initiate_tx_hash: "0x02",
    initiate_block_number: "5",
    filled_amount: "1000",
    required_confirmations: 1,
    current_confirmations: 1,
    ...overrides,
  });

function decide(
  overrides: Partial<RedeemInputs> = {},
  dest = destination(),
  source = confirmedSource({ secret_hash: HASH }),
) {
  return serviceRedeemDecision({
    order: order(source, dest),
    secret: SECRET,
    destinationOnChain: {
      initiator: "0xa1",
      redeemer: USER.toUpperCase().replace("0X", "0x"),
      timelock: 100n,
      amount: 1000n,
    },
    lastRelay: undefined,
    sameAddress: (a, b) => a.toLowerCase() === b.toLowerCase(),
    ...overrides,
  });
}

const relay = (state: RelayRecord["state"]): RelayRecord => ({
  id: 1,
  orderId: "cc".repeat(32),
  kind: "redeem",
  chain: "beta",
  txHash: "0x09",
  state,
  error: null,
  createdAtMs: 0,
});

describe("serviceRedeemDecision", () => {
  it("sends when everything holds", () => {
    expect(decide()).toEqual({ kind: "send" });
  });

  it("redeems a destination holding more than the order's amount (someone else paid the address too)", () => {
    const more = { initiator: "0xa1", redeemer: USER, timelock: 100n, amount: 1_500n };
    expect(decide({ destinationOnChain: more })).toEqual({ kind: "send" });
  });

  it("follows a pending redeem, retries a failed one, and stops after success", () => {
    expect(decide({ lastRelay: relay("sent") })).toEqual({ kind: "follow", relay: relay("sent") });
    expect(decide({ lastRelay: relay("failed") })).toEqual({ kind: "send" });
    expect(decide({ lastRelay: relay("success") }).kind).toBe("skip");
  });

  it.each<[string, Partial<RedeemInputs>, SwapRecord?, SwapRecord?]>([
    ["no secret", { secret: undefined }],
    ["unconfirmed destination", {}, destination({ current_confirmations: 0 })],
    ["destination not initiated", {}, destination({ initiate_tx_hash: "" })],
    ["destination redeemed", {}, destination({ redeem_tx_hash: "0x03" })],
    ["source unconfirmed", {}, destination(), confirmedSource({ current_confirmations: 1 })],
    ["source refunded", {}, destination(), confirmedSource({ refund_tx_hash: "0x04" })],
    [
      "less than the amount on chain",
      { destinationOnChain: { initiator: "0xa1", redeemer: USER, timelock: 100n, amount: 999n } },
    ],
    [
      "wrong redeemer on chain",
      { destinationOnChain: { initiator: "0xa1", redeemer: "0xdead", timelock: 100n, amount: 1000n } },
    ],
    ["terms unreadable", { destinationOnChain: null }],
    ["secret of another hash", { secret: "44".repeat(32) }],
  ])("skips: %s", (_name, overrides, dest, source) => {
    expect(decide(overrides, dest, source).kind).toBe("skip");
  });

  it("never redeems for a client that holds its own secret", () => {
    const decision = serviceRedeemDecision({
      order: order(confirmedSource({ secret_hash: HASH }), destination(), true),
      secret: SECRET,
      destinationOnChain: { initiator: "0xa1", redeemer: USER, timelock: 100n, amount: 1000n },
      lastRelay: undefined,
      sameAddress: (a, b) => a.toLowerCase() === b.toLowerCase(),
    });
    expect(decision).toEqual({ kind: "skip", reason: "the client holds the secret" });
  });
});
