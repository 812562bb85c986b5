import { describe, expect, it } from "vitest";
import { countedReasons } from "../../bench/load/figures.js";

describe("load benchmark: why order creations failed", () => {
  it("counts each distinct reason, most frequent first", () => {
    expect(
      countedReasons(["quote moved", "HTTP 500", "quote moved", "quote moved", "HTTP 500", "timeout"]),
    ).toEqual([
      { reason: "quote moved", count: 3 },
      { reason: "HTTP 500", count: 2 },
      { reason: "timeout", count: 1 },
    ]);
  });

  it("is empty when every creation succeeded", () => {
    expect(countedReasons([])).toEqual([]);
  });
});
