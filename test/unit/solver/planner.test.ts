import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { HtlcState } from "../../../src/chains/chain.js";
import { plan } from "../../../src/solver/planner.js";
import type { PlanInput } from "../../../src/solver/plan-types.js";
import {
  filledDestination,
  fundedSource,
  htlcState,
  lock,
  makeOrder,
  planInput,
  SECRET,
  withSide,
} from "../../support/order-fixture.js";

const kinds = (input: PlanInput): string[] => plan(input).actions.map((a) => a.kind);

/** The destination as the chain shows it after the solver journaled its fill. */
function withOwnFill(input: PlanInput, state: HtlcState, tipHeight?: bigint): PlanInput {
  const destination = tipHeight === undefined ? { state } : { state, tipHeight };
  return { ...withSide(input, "destination", destination), fillTxids: ["0xf111"] };
}

/** The destination after the user redeemed our fill: the secret is public. */
function redeemedDestination(input: PlanInput): HtlcState {
  const filled = filledDestination(input.order);
  const spend = { kind: "redeem" as const, txid: "0xfeed", height: 60n };
  return { ...filled, locks: filled.locks.map((l) => ({ ...l, spend })), secret: SECRET };
}

/** A Bitcoin source: outputs at an address instead of one stored record. */
function bitcoinSource(input: PlanInput, locks = [lock({ id: "f1:0", fundingTx: "f1", value: 1_000_000n })]) {
  return withSide(input, "source", {
    family: "bitcoin",
    offersInstantRefund: true,
    state: htlcState({ locks }),
  });
}

const declined = (input: PlanInput): PlanInput => ({
  ...input,
  quoteCheck: { ok: false, outcome: "refuse", reason: "price_moved", detail: "x" },
});

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
    const onChain = fundedSource(makeOrder());
    const lied = planInput(makeOrder({ source: { amount: "5000000" } }));
    const result = plan(withSide(lied, "source", { state: onChain }));
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
    const partial = bitcoinSource(input, [lock({ value: 10n })]);
    expect(plan(partial).decision).toMatchObject({ outcome: "wait", reason: "source_underfunded" });
  });

  it("waits for confirmations counted on our own node, not the service's count", () => {
    const order = makeOrder({ source: { required_confirmations: 3, current_confirmations: 3 } });
    const input = planInput(order);
    // Mined at 100, tip 101: 2 confirmations.
    const result = plan(withSide(input, "source", { tipHeight: 101n }));
    expect(result.actions).toEqual([]);
    expect(result.decision).toMatchObject({ outcome: "wait", reason: "source_unconfirmed" });
    expect(result.decision?.detail).toContain("service reports 3");
  });

  it("applies the solver's own minimum when the service asks for fewer confirmations", () => {
    const order = makeOrder({ source: { required_confirmations: 0 } });
    const input = withSide(planInput(order), "source", { minConfirmations: 10 });
    expect(plan(input).decision).toMatchObject({ reason: "source_unconfirmed" });
  });

  it("refuses when the source would expire before the destination plus margin", () => {
    // 600 destination blocks at 2 s = 1200 s, margin 600 s: needs 1800 s; source has 1500 blocks at 1 s.
    const input = planInput();
    const short = fundedSource(input.order);
    short.locks[0]!.refundableAtHeight = 105n + 1501n;
    const result = plan(withSide(input, "source", { state: short }));
    expect(result.decision).toMatchObject({ outcome: "refuse", reason: "source_timelock_too_short" });
    const enough = fundedSource(input.order);
    enough.locks[0]!.refundableAtHeight = 105n + 1802n;
    expect(kinds(withSide(input, "source", { state: enough }))).toEqual(["fill"]);
  });

  it("counts the time passed since the tip was read against the source's remaining time", () => {
    const input = planInput();
    const state = fundedSource(input.order);
    state.locks[0]!.refundableAtHeight = 105n + 1802n;
    const stale = withSide(input, "source", { state, readAtMs: input.nowMs - 5_000 });
    expect(plan(stale).decision).toMatchObject({ reason: "source_timelock_too_short" });
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

  it("passes pricing's refusal through, and waits on a passing one", () => {
    expect(plan(declined(planInput())).decision).toMatchObject({ outcome: "refuse", reason: "price_moved" });
    const busy = planInput(makeOrder(), {
      quoteCheck: { ok: false, outcome: "wait", reason: "insufficient_inventory", detail: "x" },
    });
    expect(plan(busy).decision).toMatchObject({ outcome: "wait", reason: "insufficient_inventory" });
  });

  it("never fills when the destination is already initiated on chain or a fill is under way", () => {
    const input = planInput();
    expect(kinds(withSide(input, "destination", { state: filledDestination(input.order) }))).toEqual([]);
    expect(kinds({ ...input, actions: { fill: "broadcast" } })).toEqual([]);
    expect(kinds({ ...input, actions: { fill: "confirmed" } })).toEqual([]);
  });

  it("rebuilds a fill that was only planned before a crash", () => {
    expect(kinds({ ...planInput(), actions: { fill: "planned" } })).toEqual(["fill"]);
  });
});

describe("planner: a source deposit is its locks, each by its own depth", () => {
  it("does not count confirmed dust beside an unconfirmed full deposit", () => {
    const dust = lock({ id: "d:0", fundingTx: "d", value: 546n, height: 90n });
    const pending = lock({ id: "p:0", fundingTx: "p", value: 1_000_000n, height: null });
    const result = plan(bitcoinSource(planInput(), [dust, pending]));
    expect(result.actions).toEqual([]);
    expect(result.decision).toMatchObject({ outcome: "wait", reason: "source_unconfirmed" });
    expect(result.decision?.detail).toContain("546 is locked with 1 confirmations");
  });

  it("counts only outputs worth spending, and at most the largest eight", () => {
    const worthless = lock({ id: "w:0", fundingTx: "w", value: 1_000_000n, worthSpending: false });
    expect(plan(bitcoinSource(planInput(), [worthless])).decision).toMatchObject({
      reason: "source_unconfirmed",
    });
    const split = Array.from({ length: 10 }, (_, i) =>
      lock({ id: `s${i}:0`, fundingTx: `s${i}`, value: 100_000n }),
    );
    // Ten outputs of 100 000 sum to the amount, but only eight count.
    expect(plan(bitcoinSource(planInput(), split)).decision).toMatchObject({ reason: "source_unconfirmed" });
    const big = lock({ id: "b:0", fundingTx: "b", value: 300_000n });
    expect(kinds(bitcoinSource(planInput(), [...split, big]))).toEqual(["fill"]);
  });

  it("times the source by the earliest refund among the locks it counts", () => {
    const input = planInput();
    const fresh = lock({ id: "f:0", fundingTx: "f", value: 600_000n, refundableAtHeight: 105n + 5000n });
    const old = lock({ id: "o:0", fundingTx: "o", value: 400_000n, refundableAtHeight: 105n + 10n });
    expect(plan(bitcoinSource(input, [fresh, old])).decision).toMatchObject({
      reason: "source_timelock_too_short",
    });
  });

  it("ignores spent outputs: refunded ones count for nothing, and all spent refuses", () => {
    const refunded = lock({
      id: "r:0",
      fundingTx: "r",
      value: 1_000_000n,
      spend: { kind: "refund", txid: "x", height: 104n },
    });
    expect(plan(bitcoinSource(planInput(), [refunded])).decision).toMatchObject({
      outcome: "refuse",
      reason: "source_already_spent",
    });
    const other = lock({ id: "u:0", fundingTx: "u", value: 1_000_000n });
    expect(kinds(bitcoinSource(planInput(), [refunded, other]))).toEqual(["fill"]);
  });
});

describe("planner: a secret the source could refuse", () => {
  const serviceSays = (input: PlanInput, userSecret: boolean): PlanInput => {
    const order = structuredClone(input.order);
    order.additional_data.user_secret = userSecret;
    return { ...input, order };
  };
  const toBitcoin = (input: PlanInput) =>
    withSide(input, "destination", { family: "bitcoin", secretLength: null });

  it("refuses when the destination takes any preimage and the source only 32 bytes, whoever the service says holds it", () => {
    for (const userSecret of [true, false]) {
      const result = plan(serviceSays(toBitcoin(planInput()), userSecret));
      expect(result.actions).toEqual([]);
      expect(result.decision).toMatchObject({ outcome: "refuse", reason: "secret_length_unenforced" });
    }
  });

  it("fills when both sides check its length, when a 32-byte secret is already known, or when allowed", () => {
    expect(kinds(serviceSays(planInput(), true))).toEqual(["fill"]);
    const risky = toBitcoin(planInput());
    expect(kinds({ ...risky, safety: { ...risky.safety, allowUnenforcedSecretLength: true } })).toEqual([
      "fill",
    ]);
    // A Bitcoin source redeems with any preimage: any secret is usable there.
    const bitcoinSource = withSide(serviceSays(planInput(), true), "source", { secretLength: null });
    expect(kinds(toBitcoin(bitcoinSource))).toEqual(["fill"]);
  });

  it("a chain taking whole 4-byte words: refused where the other side takes more, filled where it takes less", () => {
    const words = { multipleOf: 4 };
    // A word-length source (Starknet) and a destination that takes any preimage: a 33-byte secret there.
    const wordSource = withSide(serviceSays(planInput(), true), "source", { secretLength: words });
    expect(plan(toBitcoin(wordSource)).decision).toMatchObject({
      outcome: "refuse",
      reason: "secret_length_unenforced",
      detail: expect.stringContaining("only one of a multiple of 4 bytes") as unknown,
    });
    // A 32-byte source and a word-length destination: a 36-byte secret takes the fill.
    const toWords = withSide(serviceSays(planInput(), true), "destination", { secretLength: words });
    expect(plan(toWords).decision).toMatchObject({ reason: "secret_length_unenforced" });
    // A word-length source and a 32-byte destination: every secret the fill reveals redeems the source.
    expect(kinds(wordSource)).toEqual(["fill"]);
  });

  /** The order's hash made from `secret`, and the service showing `shown` as its secret. */
  const withSecret = (input: PlanInput, secret: Buffer, shown = secret): PlanInput => {
    const order = structuredClone(input.order);
    const hash = createHash("sha256").update(secret).digest("hex");
    order.source_swap.secret_hash = hash;
    order.destination_swap.secret_hash = hash;
    order.destination_swap.secret = shown.toString("hex");
    return {
      ...input,
      order,
      source: { ...input.source, params: { ...input.source.params, secretHash: hash } },
      destination: { ...input.destination, params: { ...input.destination.params, secretHash: hash } },
    };
  };

  it("a known secret proves the length only when it is the source's length and hashes right", () => {
    expect(plan(withSecret(toBitcoin(planInput()), Buffer.alloc(32, 7))).decision).toBeNull();
    // Not a preimage of the hash: it proves nothing, and the rule stands.
    expect(
      plan(withSecret(toBitcoin(planInput()), Buffer.alloc(32, 7), Buffer.alloc(32, 8))).decision,
    ).toMatchObject({ reason: "secret_length_unenforced" });
  });

  it("refuses a known secret the source takes not, even where the operator accepts unchecked lengths", () => {
    const risky = withSecret(toBitcoin(planInput()), Buffer.alloc(33, 7));
    for (const allowUnenforcedSecretLength of [false, true]) {
      const result = plan({ ...risky, safety: { ...risky.safety, allowUnenforcedSecretLength } });
      expect(result.actions).toEqual([]);
      expect(result.decision).toEqual({
        outcome: "refuse",
        reason: "secret_unusable",
        detail:
          "the secret is already known and has 33 bytes; ethereum_localnet takes only secrets of 32 bytes: " +
          "the source could never be redeemed",
      });
    }
  });

  it("refuses a known secret the destination takes not, and hands a funded Bitcoin source back", () => {
    const toEvm = bitcoinSource(withSide(planInput(), "source", { secretLength: null }));
    const result = plan(withSecret(toEvm, Buffer.alloc(33, 7)));
    expect(result.decision).toEqual({
      outcome: "refuse",
      reason: "secret_unusable",
      detail:
        "the secret is already known and has 33 bytes; arbitrum_localnet takes only secrets of 32 bytes: " +
        "the fill could never be redeemed",
    });
    expect(result.actions.map((a) => a.kind)).toEqual(["instant_refund"]);
    // A 32-byte secret known before the fill is usable on both sides: filled.
    expect(kinds(withSecret(toEvm, Buffer.alloc(32, 7)))).toEqual(["fill"]);
  });
});

describe("planner: one source, one commitment", () => {
  it("never fills once the user holds our half of an instant refund", () => {
    for (const status of ["planned", "signed", "confirmed", "failed"] as const) {
      const result = plan({ ...planInput(), actions: { instant_refund: status } });
      expect(result.actions).toEqual([]);
      expect(result.decision).toMatchObject({ outcome: "refuse", reason: "instant_refund_given" });
    }
  });

  it("never fills against a source that already backs another order", () => {
    const result = plan({ ...planInput(), sourceBacksOrder: "dd".repeat(32) });
    expect(result.actions).toEqual([]);
    expect(result.decision).toMatchObject({ outcome: "refuse", reason: "source_backs_another_order" });
    // ...and does not hand out an instant refund of it either: that would free the other order's source.
    const bitcoin = bitcoinSource({ ...planInput(), sourceBacksOrder: "dd".repeat(32) });
    expect(kinds(bitcoin)).toEqual([]);
  });
});

describe("planner: redeem and refund", () => {
  it("redeems the source with a secret revealed on the destination chain", () => {
    const input = planInput();
    const result = plan(withOwnFill(input, redeemedDestination(input)));
    expect(result.actions).toEqual([expect.objectContaining({ kind: "redeem", secret: SECRET })]);
    expect(result.actions[0]?.params.chain).toBe("ethereum_localnet");
    expect(result.actions[0]?.locks).toEqual([input.order.source_swap.swap_id]);
  });

  it("redeems only mined, unspent source outputs worth spending", () => {
    const input = planInput();
    const mined = lock({ id: "m:0", fundingTx: "m", value: 1_000_000n });
    const unmined = lock({ id: "u:0", fundingTx: "u", value: 5_000n, height: null });
    const dust = lock({ id: "d:0", fundingTx: "d", value: 300n, worthSpending: false });
    const spent = lock({
      id: "s:0",
      fundingTx: "s",
      value: 9n,
      spend: { kind: "refund", txid: "r", height: 101n },
    });
    const filled = withOwnFill(input, redeemedDestination(input));
    const result = plan(bitcoinSource(filled, [mined, unmined, dust, spent]));
    expect(result.actions.map((a) => [a.kind, a.locks])).toEqual([["redeem", ["m:0"]]]);
  });

  it("ignores a secret from the service that does not hash to the secret hash", () => {
    const order = makeOrder({ destination: { secret: "22".repeat(32) } });
    const input = withOwnFill(planInput(order), filledDestination(order));
    expect(plan(input).actions).toEqual([]);
  });

  it("does not redeem a source it never filled against", () => {
    const order = makeOrder({ destination: { secret: SECRET } });
    expect(plan(declined(planInput(order))).actions).toEqual([]);
  });

  it("refunds an expired, unredeemed destination fill", () => {
    const input = planInput();
    const destination = filledDestination(input.order, 50n);
    // Refundable from 651 on: the refund can be mined in the block after tip 650.
    const notYet = withOwnFill(input, destination, 649n);
    expect(kinds(notYet)).toEqual([]);
    const expired = withOwnFill(input, destination, 650n);
    expect(kinds(expired)).toEqual(["refund"]);
  });

  it("is done once both sides are settled", () => {
    const input = planInput();
    const source = fundedSource(input.order);
    source.locks[0]!.spend = { kind: "redeem", txid: "0xr", height: 70n };
    const settled = withOwnFill(withSide(input, "source", { state: source }), redeemedDestination(input));
    expect(plan({ ...settled, actions: { fill: "confirmed", redeem: "confirmed" } }).done).toBe(true);
    expect(plan({ ...settled, actions: { fill: "confirmed", redeem: "broadcast" } }).done).toBe(false);
  });
});

describe("planner: a record at the destination id that the solver did not journal", () => {
  // Funded by the user with `initiateOnBehalf` naming the solver: the chain shows the solver as initiator.
  it("holds the id: no fill, no source redeem once its secret is out, no refund once it expires", () => {
    const input = planInput();
    const redeemed = withSide(input, "destination", { state: redeemedDestination(input) });
    const result = plan(redeemed);
    expect(result.actions).toEqual([]);
    expect(result.decision).toMatchObject({ outcome: "wait", reason: "destination_occupied" });
    const expired = withSide(input, "destination", {
      state: filledDestination(input.order),
      tipHeight: 700n,
    });
    expect(kinds(expired)).toEqual([]);
  });
});

describe("planner: a Bitcoin destination's fill is the transaction the solver journaled", () => {
  const destination = (locks: ReturnType<typeof lock>[]) => htlcState({ locks });
  const dust = lock({ id: "x:0", fundingTx: "x", value: 546n, height: 52n });

  it("fills even though someone else paid dust to the destination address", () => {
    const input = withSide(planInput(), "destination", { state: destination([dust]) });
    expect(kinds(input)).toEqual(["fill"]);
  });

  it("does not redeem the source against an output it did not send, whatever secret is revealed", () => {
    const redeemedDust = { ...dust, spend: { kind: "redeem" as const, txid: "y", height: 53n } };
    const state = { ...destination([redeemedDust]), secret: SECRET };
    const input = withSide(planInput(), "destination", { state });
    // The fill goes out; the source waits for it.
    expect(kinds({ ...input, actions: { fill: "broadcast" }, fillTxids: ["ours"] })).toEqual([]);
  });

  it("redeems the source once its own fill output exists and the secret is known", () => {
    const ours = lock({ id: "ours:0", fundingTx: "ours", value: 990_000n, height: 55n });
    const state = { ...destination([dust, ours]), secret: SECRET };
    const input = { ...withSide(planInput(), "destination", { state }), fillTxids: ["ours"] };
    expect(kinds({ ...input, actions: { fill: "broadcast" } })).toEqual(["redeem"]);
  });

  it("refunds its own output once past its lock, sweeping others' outputs only when they are too", () => {
    const ours = lock({
      id: "ours:0",
      fundingTx: "ours",
      value: 990_000n,
      height: 55n,
      refundableAtHeight: 199n,
    });
    const young = lock({ id: "y:0", fundingTx: "y", value: 7_000n, height: 150n, refundableAtHeight: 294n });
    const state = destination([ours, young, dust]);
    const input = {
      ...withSide(planInput(), "destination", { state, tipHeight: 198n }),
      actions: { fill: "confirmed" as const },
      fillTxids: ["ours"],
    };
    dust.refundableAtHeight = 196n;
    const result = plan(input);
    expect(result.actions.map((a) => [a.kind, a.locks])).toEqual([["refund", ["ours:0", "x:0"]]]);
  });

  it("never refunds while its own output is not yet past its lock", () => {
    const ours = lock({
      id: "ours:0",
      fundingTx: "ours",
      value: 990_000n,
      height: 55n,
      refundableAtHeight: 199n,
    });
    const state = destination([ours]);
    const input = {
      ...withSide(planInput(), "destination", { state, tipHeight: 197n }),
      actions: { fill: "confirmed" as const },
      fillTxids: ["ours"],
    };
    expect(kinds(input)).toEqual([]);
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

describe("planner: instant refund of a declined source", () => {
  it("hands the user our half of an instant refund, paid to the source owner", () => {
    const input = declined(bitcoinSource(planInput()));
    const result = plan(input);
    expect(result.decision).toMatchObject({ outcome: "refuse", reason: "price_moved" });
    expect(result.actions).toEqual([
      expect.objectContaining({
        kind: "instant_refund",
        refundAddress: input.refundAddress,
        locks: ["f1:0"],
      }),
    ]);
  });

  it("never once a fill exists or was tried, where the family cannot, or when we cannot sign", () => {
    const input = declined(bitcoinSource(planInput()));
    expect(kinds({ ...input, actions: { fill: "failed" } })).toEqual([]);
    expect(kinds({ ...input, fillTxids: ["a"] })).toEqual([]);
    expect(kinds(declined(planInput()))).toEqual([]);
    const notOurs = makeOrder({ source: { redeemer: "0x00000000000000000000000000000000000000ff" } });
    expect(kinds(declined(bitcoinSource(planInput(notOurs))))).toEqual([]);
    expect(kinds({ ...input, actions: { instant_refund: "confirmed" } })).toEqual([]);
  });

  it("not while merely waiting: inventory, exposure or a price feed that may recover", () => {
    for (const reason of [
      "insufficient_inventory",
      "exposure_limit",
      "inventory_unavailable",
      "price_unavailable",
    ]) {
      const input = {
        ...bitcoinSource(planInput()),
        quoteCheck: { ok: false as const, outcome: "wait" as const, reason, detail: "x" },
      };
      expect(plan(input).decision).toMatchObject({ outcome: "wait", reason });
      expect(kinds(input)).toEqual([]);
    }
    const unconfirmed = bitcoinSource(planInput(makeOrder({ source: { required_confirmations: 30 } })));
    expect(kinds(unconfirmed)).toEqual([]);
  });

  it("only over mined outputs", () => {
    const unmined = lock({ id: "u:0", fundingTx: "u", value: 1_000_000n, height: null });
    const late = { ...declined(bitcoinSource(planInput(), [unmined])) };
    late.nowMs = late.order.additional_data.deadline * 1000 + 1;
    expect(plan(late).decision).toMatchObject({ reason: "deadline_passed" });
    expect(kinds(late)).toEqual([]);
  });
});

describe("planner: redeem deadline", () => {
  it("tells by when the source redeem must be mined, at the source's fastest block rate", () => {
    const input = planInput();
    const result = plan(withOwnFill(input, redeemedDestination(input)));
    // Refundable at 100 + 7200 + 1; tip 105: 7195 blocks of at least 1 s each remain.
    expect(result.actions[0]?.mustConfirmByMs).toBe(input.nowMs + 7195 * 1000);
  });
});
