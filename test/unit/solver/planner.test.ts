import { describe, expect, it } from "vitest";
import { plan } from "../../../src/solver/planner.js";
import {
  filledDestination,
  fundedSource,
  htlcState,
  makeOrder,
  planInput,
  SECRET,
  withSide,
} from "../../support/order-fixture.js";

describe("planner: fill", () => {
  it("fills a confirmed, matching source with enough time left", () => {
    const result = plan(planInput());
    expect(result.actions.map((a) => a.kind)).toEqual(["fill"]);
    expect(result.actions[0]?.params.chain).toBe("arbitrum_localnet");
    expect(result.actions[0]?.params.amount).toBe(990000n);
    expect(result.decision).toBeNull();
  });

  it("refuses a secret hash that is not 32 bytes", () => {
    const order = makeOrder({
      source: { secret_hash: "ab".repeat(20) },
      destination: { secret_hash: "ab".repeat(20) },
    });
    const result = plan(planInput(order));
    expect(result.actions).toEqual([]);
    expect(result.decision).toMatchObject({ outcome: "refuse", reason: "secret_hash_not_32_bytes" });
  });

  it("refuses when the two sides name different secret hashes", () => {
    const order = makeOrder({ destination: { secret_hash: "22".repeat(32) } });
    expect(plan(planInput(order)).decision).toMatchObject({ reason: "secret_hash_mismatch" });
  });

  it("refuses when the solver is not the source redeemer", () => {
    const order = makeOrder({ source: { redeemer: "0x00000000000000000000000000000000000000ff" } });
    expect(plan(planInput(order)).decision).toMatchObject({
      outcome: "refuse",
      reason: "solver_not_redeemer",
    });
  });

  it("refuses when the solver is not the destination initiator", () => {
    const order = makeOrder({ destination: { initiator: "0x00000000000000000000000000000000000000ff" } });
    expect(plan(planInput(order)).decision).toMatchObject({ reason: "solver_not_initiator" });
  });

  it("refuses a source amount larger than the chain holds", () => {
    const input = planInput();
    const onChain = fundedSource(input.order);
    const lied = makeOrder({ source: { amount: "5000000" } });
    const result = plan({ ...planInput(lied), source: { ...planInput(lied).source, state: onChain } });
    expect(result.actions).toEqual([]);
    expect(result.decision).toMatchObject({ outcome: "refuse", reason: "source_differs_from_chain" });
    expect(result.decision?.detail).toContain("amount: order says 5000000, chain has 1000000");
  });

  it("waits while the source is not deposited or underfunded", () => {
    const input = planInput();
    expect(plan(withSide(input, "source", { state: htlcState() })).decision).toMatchObject({
      outcome: "wait",
      reason: "source_not_initiated",
    });
    const partial = { ...fundedSource(input.order), onChain: null, fundedAmount: 10n };
    expect(plan(withSide(input, "source", { state: partial })).decision).toMatchObject({
      reason: "source_underfunded",
    });
  });

  it("waits for confirmations counted on our own node, not the service's count", () => {
    const order = makeOrder({ source: { required_confirmations: 3, current_confirmations: 3 } });
    const input = planInput(order);
    const state = { ...fundedSource(order), confirmations: 1 };
    const result = plan(withSide(input, "source", { state }));
    expect(result.actions).toEqual([]);
    expect(result.decision).toMatchObject({ outcome: "wait", reason: "source_unconfirmed" });
  });

  it("applies the solver's own minimum when the service asks for fewer confirmations", () => {
    const order = makeOrder({ source: { required_confirmations: 0 } });
    const input = withSide(planInput(order), "source", { minConfirmations: 10 });
    expect(plan(input).decision).toMatchObject({ reason: "source_unconfirmed" });
  });

  it("refuses when the source would expire before the destination plus margin", () => {
    // 600 destination blocks at 2 s = 1200 s, margin 600 s: needs 1800 s; source has 1500 blocks at 1 s.
    const input = planInput();
    const state = { ...fundedSource(input.order), refundableAtHeight: 105n + 1501n };
    const result = plan(withSide(input, "source", { state }));
    expect(result.decision).toMatchObject({ outcome: "refuse", reason: "source_timelock_too_short" });
    const enough = { ...fundedSource(input.order), refundableAtHeight: 105n + 1802n };
    expect(plan(withSide(input, "source", { state: enough })).actions.map((a) => a.kind)).toEqual(["fill"]);
  });

  it("refuses a destination timelock above the configured maximum", () => {
    expect(plan(planInput(makeOrder(), { maxDestinationTimelock: 100n })).decision).toMatchObject({
      reason: "destination_timelock_out_of_range",
    });
  });

  it("refuses a swap id that does not recompute", () => {
    const input = withSide(planInput(), "destination", { computedSwapId: "dd".repeat(32) });
    expect(plan(input).decision).toMatchObject({ outcome: "refuse", reason: "swap_id_mismatch" });
  });

  it("refuses after the attested deadline", () => {
    const input = planInput();
    const late = { ...input, nowMs: input.order.additional_data.deadline * 1000 + 1 };
    expect(plan(late).decision).toMatchObject({ reason: "deadline_passed" });
  });

  it("passes pricing's refusal through", () => {
    const input = planInput(makeOrder(), {
      quoteCheck: { ok: false, outcome: "refuse", reason: "price_moved", detail: "x" },
    });
    expect(plan(input).decision).toMatchObject({ outcome: "refuse", reason: "price_moved" });
  });

  it("never fills when the destination is already initiated on chain or a fill is under way", () => {
    const input = planInput();
    expect(plan(withSide(input, "destination", { state: filledDestination(input.order) })).actions).toEqual(
      [],
    );
    expect(plan({ ...input, actions: { fill: "broadcast" } }).actions).toEqual([]);
    expect(plan({ ...input, actions: { fill: "confirmed" } }).actions).toEqual([]);
  });

  it("rebuilds a fill that was only planned before a crash", () => {
    expect(plan({ ...planInput(), actions: { fill: "planned" } }).actions.map((a) => a.kind)).toEqual([
      "fill",
    ]);
  });
});

describe("planner: redeem and refund", () => {
  it("redeems the source with a secret revealed on the destination chain", () => {
    const input = planInput();
    const destination = { ...filledDestination(input.order), redeemed: true, secret: SECRET };
    const result = plan({
      ...withSide(input, "destination", { state: destination }),
      actions: { fill: "confirmed" },
    });
    expect(result.actions).toEqual([expect.objectContaining({ kind: "redeem", secret: SECRET })]);
    expect(result.actions[0]?.params.chain).toBe("ethereum_localnet");
  });

  it("ignores a secret from the service that does not hash to the secret hash", () => {
    const order = makeOrder({ destination: { secret: "22".repeat(32) } });
    const input = withSide(planInput(order), "destination", { state: filledDestination(order) });
    expect(plan(input).actions).toEqual([]);
  });

  it("does not redeem a source it never filled against", () => {
    const order = makeOrder({ destination: { secret: SECRET } });
    const input = planInput(order, {
      quoteCheck: { ok: false, outcome: "refuse", reason: "price_moved", detail: "x" },
    });
    expect(plan(input).actions).toEqual([]);
  });

  it("refunds an expired, unredeemed destination fill", () => {
    const input = planInput();
    const destination = filledDestination(input.order, 50n);
    const notYet = withSide(input, "destination", { state: destination, tipHeight: 50n + 600n });
    expect(plan(notYet).actions).toEqual([]);
    const expired = withSide(input, "destination", { state: destination, tipHeight: 50n + 601n });
    expect(plan(expired).actions.map((a) => a.kind)).toEqual(["refund"]);
  });

  it("is done once both sides are settled", () => {
    const input = planInput();
    const source = { ...fundedSource(input.order), redeemed: true };
    const destination = { ...filledDestination(input.order), redeemed: true, secret: SECRET };
    const settled = withSide(withSide(input, "source", { state: source }), "destination", {
      state: destination,
    });
    expect(plan({ ...settled, actions: { fill: "confirmed", redeem: "confirmed" } }).done).toBe(true);
    expect(plan({ ...settled, actions: { fill: "confirmed", redeem: "broadcast" } }).done).toBe(false);
  });
});

describe("planner: swap ids that cannot be computed", () => {
  it("refuses with the reason the fields could not form an id", () => {
    const input = withSide(planInput(), "source", { computedSwapId: { error: "bytes32 expected" } });
    const result = plan(input);
    expect(result.decision).toMatchObject({ reason: "swap_id_mismatch" });
    expect(result.decision?.detail).toContain("bytes32 expected");
  });
});

describe("planner: instant refund of a declined Bitcoin source", () => {
  const bitcoinSource = (input: ReturnType<typeof planInput>) =>
    withSide(input, "source", { family: "bitcoin", state: { ...fundedSource(input.order), onChain: null } });
  const declined = (input: ReturnType<typeof planInput>) =>
    ({
      ...input,
      quoteCheck: { ok: false, outcome: "refuse", reason: "price_moved", detail: "x" },
    }) as typeof input;

  it("hands the user our half of an instant refund, paid to the source owner", () => {
    const input = declined(bitcoinSource(planInput()));
    const result = plan(input);
    expect(result.decision).toMatchObject({ outcome: "refuse", reason: "price_moved" });
    expect(result.actions).toEqual([
      expect.objectContaining({ kind: "instant_refund", refundAddress: input.order.source_swap.initiator }),
    ]);
  });

  it("never once a fill exists, for EVM sources, or when we cannot sign for the source", () => {
    const input = declined(bitcoinSource(planInput()));
    expect(plan({ ...input, actions: { fill: "failed" } }).actions).toEqual([]);
    expect(plan(declined(planInput())).actions).toEqual([]);
    const notOurs = makeOrder({ source: { redeemer: "0x00000000000000000000000000000000000000ff" } });
    expect(plan(declined(bitcoinSource(planInput(notOurs)))).actions).toEqual([]);
    expect(plan({ ...input, actions: { instant_refund: "confirmed" } }).actions).toEqual([]);
  });

  it("not while merely waiting", () => {
    const input = bitcoinSource(planInput());
    const waiting = withSide(input, "source", {
      family: "bitcoin",
      state: { ...fundedSource(input.order), onChain: null, confirmations: 0 },
    });
    expect(plan({ ...waiting, order: makeOrder({ source: { required_confirmations: 3 } }) }).actions).toEqual(
      [],
    );
  });
});

describe("planner: redeem deadline", () => {
  it("tells by when the source redeem must be mined, at the source's fastest block rate", () => {
    const input = planInput();
    const destination = { ...filledDestination(input.order), redeemed: true, secret: SECRET };
    const result = plan({
      ...withSide(input, "destination", { state: destination }),
      actions: { fill: "confirmed" },
    });
    // Refundable at 100 + 7200 + 1; tip 105: 7195 blocks of at least 1 s each remain.
    expect(result.actions[0]?.mustConfirmByMs).toBe(input.nowMs + 7195 * 1000);
  });
});
