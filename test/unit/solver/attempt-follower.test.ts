import { describe, expect, it } from "vitest";
import type { ActionRequest } from "../../../src/chains/chain.js";
import type { ActionRow, Journal } from "../../../src/journal/journal.js";
import { bumpDue } from "../../../src/solver/attempt-follower.js";

function journalWith(request: Partial<ActionRequest>): Pick<Journal, "action"> {
  return { action: () => ({ request }) as ActionRow };
}

describe("bumpDue", () => {
  const bumpAfterMs = 60_000;
  const created = 1_000_000;

  it("re-prices a transaction pending longer than bumpAfterMs", () => {
    const ctx = { journal: journalWith({}) as Journal, urgencyMarginMs: 600_000 };
    const attempt = { createdAtMs: created, actionIds: [1] };
    expect(bumpDue(attempt, ctx, bumpAfterMs, created + 59_000)).toBe(false);
    expect(bumpDue(attempt, ctx, bumpAfterMs, created + 61_000)).toBe(true);
  });

  it("re-prices at once when an action must be mined within the urgency margin", () => {
    const now = created + 1_000;
    const urgent = {
      journal: journalWith({ mustConfirmByMs: now + 300_000 }) as Journal,
      urgencyMarginMs: 600_000,
    };
    const relaxed = {
      journal: journalWith({ mustConfirmByMs: now + 900_000 }) as Journal,
      urgencyMarginMs: 600_000,
    };
    const attempt = { createdAtMs: created, actionIds: [1] };
    expect(bumpDue(attempt, urgent, bumpAfterMs, now)).toBe(true);
    expect(bumpDue(attempt, relaxed, bumpAfterMs, now)).toBe(false);
  });
});
