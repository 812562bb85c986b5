import { describe, expect, it } from "vitest";
import { machineTicks } from "../../bench/load/cpu-window.js";

describe("load benchmark: machine CPU from /proc/stat", () => {
  it("counts idle and iowait as not busy, everything else as busy", () => {
    const stat = "cpu  100 5 50 800 40 3 2 0 0 0\ncpu0 50 2 25 400 20 1 1 0 0 0\n";
    expect(machineTicks(stat)).toEqual({ busy: 160, total: 1000 });
  });

  it("is null for text that is not /proc/stat", () => {
    expect(machineTicks("intr 1 2 3")).toBeNull();
    expect(machineTicks("cpu  a b c d e")).toBeNull();
  });
});
