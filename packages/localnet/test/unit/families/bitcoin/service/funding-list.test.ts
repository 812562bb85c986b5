import { describe, expect, it } from "vitest";
import type { FundingOutput } from "htlc-solver/chains/bitcoin/backend.js";
import { fundingList } from "../../../../../src/families/bitcoin/service/bitcoin-watcher.js";

const output = (txid: string, vout: number, height: number | null): FundingOutput => ({
  txid: txid.repeat(64),
  vout,
  value: 1000n,
  height,
  spentBy: null,
});

describe("fundingList", () => {
  it("lists each funding transaction once as txid:height, mined by height first, unmined as :0 last", () => {
    const list = fundingList([
      output("c", 0, null),
      output("b", 1, 12),
      output("a", 0, 10),
      output("b", 0, 12),
    ]);
    expect(list).toBe(`${"a".repeat(64)}:10,${"b".repeat(64)}:12,${"c".repeat(64)}:0`);
  });

  it("is a single entry for a single funding transaction", () => {
    expect(fundingList([output("d", 0, 7)])).toBe(`${"d".repeat(64)}:7`);
  });
});
