import { describe, expect, it } from "vitest";
import type { ActionRequest } from "../../../src/chains/chain.js";
import type { ActionCandidate } from "../../../src/solver/fill-gate.js";
import { noTips } from "../../../src/solver/order-facts.js";
import { OrderInbox, type OrderAsk } from "../../../src/solver/order-inbox.js";
import type { PlanInput } from "../../../src/solver/plan-types.js";
import { held, stillPendingAfter } from "../../support/held.js";

/** An action of the order: passes that return one keep the order in hand until it is let go. */
const action = (orderId: string): ActionCandidate => ({
  request: { kind: "redeem", orderId } as ActionRequest,
  input: {} as PlanInput,
});

interface Harness {
  inbox: OrderInbox;
  passes: string[];
  askedAgain: OrderAsk[][];
  /** Passes over these orders wait until released. */
  gates: Map<string, ReturnType<typeof held>>;
  /** Orders whose pass returns an action. */
  acting: Set<string>;
}

function harness(concurrency = 8): Harness {
  const h: Harness = {
    passes: [],
    askedAgain: [],
    gates: new Map(),
    acting: new Set(),
  } as unknown as Harness;
  h.inbox = new OrderInbox({
    concurrency,
    pass: {
      run: async (orderId) => {
        h.passes.push(orderId);
        await h.gates.get(orderId)?.until;
        return h.acting.has(orderId) ? [action(orderId)] : [];
      },
    },
    askAgain: (asks) => h.askedAgain.push([...asks]),
  });
  return h;
}

const ask = (orderId: string, lane = "ethereum>arbitrum"): OrderAsk => ({ orderId, lane });
const ignore = () => undefined;

describe("OrderInbox", () => {
  it("passes over an order once at a time, and keeps an order with actions in hand until let go", async () => {
    const h = harness();
    h.acting.add("o1");
    const delivered: ActionCandidate[] = [];
    await h.inbox.ask([ask("o1"), ask("o2")], "round", noTips, (c) => delivered.push(...c));
    expect(h.passes).toEqual(["o1", "o2"]);
    expect(delivered.map((c) => c.request.orderId)).toEqual(["o1"]);
    // o1 is in hand (its actions are not out yet); o2, which had none, was let go at once.
    await h.inbox.ask([ask("o1"), ask("o2")], "scout", noTips, ignore);
    expect(h.passes).toEqual(["o1", "o2", "o2"]);
    h.inbox.letGo(["o1"]);
    await h.inbox.ask([ask("o1")], "round", noTips, ignore);
    expect(h.passes).toEqual(["o1", "o2", "o2", "o1"]);
  });

  it("asks again, once, for an order new blocks wanted while it was in hand; not for the other streams' asks", async () => {
    const h = harness();
    h.acting.add("o1").add("o2");
    await h.inbox.ask([ask("o1"), ask("o2", "bitcoin>ethereum")], "round", noTips, ignore);
    await h.inbox.ask([ask("o1"), ask("o2", "bitcoin>ethereum")], "block", noTips, ignore);
    await h.inbox.ask([ask("o1")], "block", noTips, ignore);
    await h.inbox.ask([ask("o2", "bitcoin>ethereum")], "scout", noTips, ignore);
    expect(h.passes).toEqual(["o1", "o2"]);
    h.inbox.letGo(["o1", "o2"]);
    expect(h.askedAgain).toEqual([[ask("o1"), ask("o2", "bitcoin>ethereum")]]);
    await h.inbox.ask([ask("o1")], "round", noTips, ignore);
    h.inbox.letGo(["o1"]);
    expect(h.askedAgain).toHaveLength(1);
  });

  it("asks nothing again once closed", async () => {
    const h = harness();
    h.acting.add("o1");
    await h.inbox.ask([ask("o1")], "round", noTips, ignore);
    await h.inbox.ask([ask("o1")], "block", noTips, ignore);
    h.inbox.close();
    h.inbox.letGo(["o1"]);
    expect(h.askedAgain).toEqual([]);
  });

  it("runs another lane's pass while one lane is full, and the round's passes in one queue of their own", async () => {
    const h = harness(1);
    const slow = held();
    h.gates.set("slow", slow);
    const slowBlock = h.inbox.ask(
      [ask("slow", "ethereum>bitcoin"), ask("behind", "ethereum>bitcoin")],
      "block",
      noTips,
      ignore,
    );
    await h.inbox.ask([ask("other", "ethereum>arbitrum")], "block", noTips, ignore);
    // Another stream's queue of the same lane is not held either.
    await h.inbox.ask([ask("scouted", "ethereum>bitcoin")], "scout", noTips, ignore);
    expect(h.passes).toEqual(["slow", "other", "scouted"]);
    // The round's passes share one queue whatever their lanes: one at a time here.
    const roundSlow = held();
    h.gates.set("r1", roundSlow);
    const round = h.inbox.ask([ask("r1", "a>b"), ask("r2", "c>d")], "round", noTips, ignore);
    expect(await stillPendingAfter(round, 10)).toBe(true);
    expect(h.passes).not.toContain("r2");
    roundSlow.release();
    await round;
    const idle = h.inbox.onIdle();
    expect(await stillPendingAfter(idle, 10)).toBe(true);
    slow.release();
    await Promise.all([slowBlock, idle]);
    expect(h.passes).toEqual(["slow", "other", "scouted", "r1", "r2", "behind"]);
  });

  it("returns a failed pass's error and lets its order go; the other orders are passed over", async () => {
    const failing = new OrderInbox({
      concurrency: 8,
      pass: {
        run: (orderId) =>
          orderId === "bad"
            ? Promise.reject(new Error("database is locked"))
            : Promise.resolve([action(orderId)]),
      },
      askAgain: ignore,
    });
    const delivered: string[] = [];
    const failures = await failing.ask([ask("bad"), ask("good")], "block", noTips, (c) =>
      delivered.push(...c.map((x) => x.request.orderId)),
    );
    expect(failures.map((f) => [f.orderId, (f.error as Error).message])).toEqual([
      ["bad", "database is locked"],
    ]);
    expect(delivered).toEqual(["good"]);
    // Let go despite the failure: the next ask passes over it.
    const again = await failing.ask([ask("bad")], "round", noTips, ignore);
    expect(again).toHaveLength(1);
  });
});
