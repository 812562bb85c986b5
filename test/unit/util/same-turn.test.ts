import { describe, expect, it } from "vitest";
import { sameTurn } from "../../../src/util/same-turn.js";

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("sameTurn", () => {
  it("reads once for every caller in one turn, across their awaits", async () => {
    let reads = 0;
    const sums = sameTurn(() => ({ read: ++reads }));
    const [a, b] = await Promise.all([
      (async () => sums())(),
      (async () => {
        await Promise.resolve();
        return sums();
      })(),
    ]);
    expect(reads).toBe(1);
    expect(a).toBe(b);
  });

  it("reads again in the next turn, so nothing older than the turn is answered", async () => {
    let value = 1;
    const current = sameTurn(() => value);
    expect(current()).toBe(1);
    value = 2;
    expect(current()).toBe(1);
    await nextTurn();
    expect(current()).toBe(2);
  });

  it("keeps no failed read", async () => {
    let fail = true;
    const read = sameTurn(() => {
      if (fail) throw new Error("journal busy");
      return "sums";
    });
    expect(() => read()).toThrow("journal busy");
    fail = false;
    expect(read()).toBe("sums");
  });
});
