/**
 * What one order costs the journal, counted at its public methods (calls the journal makes to itself
 * are not counted): a pass reads what it needs in one view, and a fill adds only its claim and its
 * transaction's records.
 */
import { describe, expect, it } from "vitest";
import { Journal } from "../../../src/journal/journal.js";
import { addOrder, harness } from "./runner-harness.js";

/** Counts the journal's outermost method calls, by method, from now on. */
function countCalls(journal: Journal): Map<string, number> {
  const counts = new Map<string, number>();
  let depth = 0;
  const target = journal as unknown as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(Journal.prototype)) {
    const descriptor = Object.getOwnPropertyDescriptor(Journal.prototype, name);
    if (name === "constructor" || typeof descriptor?.value !== "function") continue;
    const method = descriptor.value as (...args: unknown[]) => unknown;
    target[name] = (...args: unknown[]) => {
      if (depth === 0) counts.set(name, (counts.get(name) ?? 0) + 1);
      depth++;
      try {
        return method.apply(journal, args);
      } finally {
        depth--;
      }
    };
  }
  return counts;
}

const total = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

describe("journal calls of one order", () => {
  it("one view per pass; a fill from its listing to its broadcast in a bounded number of calls", async () => {
    const h = harness();
    const order = addOrder(h, 1);
    const calls = countCalls(h.journal);
    await h.runner.tick();
    expect(h.fills()).toEqual([order.order_id]);
    if (process.env.TRACE_JOURNAL_CALLS === "1") console.log("fill", total(calls), Object.fromEntries(calls));
    // The pass's view, and the gate's fresh view before the claim.
    expect(calls.get("orderView")).toBe(2);
    // Listing (2: is it known, store it), the announcement's terms, the view, the decision-free plan,
    // the gate (view, claim's sums and claim), signing and broadcast, and the round's follow.
    expect(total(calls)).toBeLessThanOrEqual(16);

    // An order that waits costs one view and nothing more per pass while its decision stands.
    const waiting = addOrder(h, 2, (o) => {
      o.source_swap.required_confirmations = 1_000;
    });
    await h.runner.tick();
    const perRound = countCalls(h.journal);
    await h.runner.tick();
    if (process.env.TRACE_JOURNAL_CALLS === "1")
      console.log("round", total(perRound), Object.fromEntries(perRound));
    expect(h.journal.lastDecision(waiting.order_id)).toMatchObject({ reason: "source_unconfirmed" });
    expect(perRound.get("recordDecision")).toBeUndefined();
  });
});
