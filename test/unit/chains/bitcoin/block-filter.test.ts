import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { BlockFilter, filterKey } from "../../../../src/chains/bitcoin/block-filter.js";

const scriptHex = () => `0020${randomBytes(32).toString("hex")}`;
const outpoint = () => `${randomBytes(32).toString("hex")}:${randomBytes(1)[0]! % 4}`;

describe("block filter", () => {
  it.each([0, 1, 2, 10, 100, 4_000])("never rules out an item its block holds (%i items)", (count) => {
    const items = Array.from({ length: count }, (_, i) => (i % 2 === 0 ? scriptHex() : outpoint()));
    const filter = BlockFilter.of(items);
    expect(items.filter((item) => !filter.mayHold(filterKey(item)))).toEqual([]);
  });

  it.each([2, 100, 4_000])(
    "rules out all but a few in 10,000 of the items its block lacks (%i items)",
    (count) => {
      const filter = BlockFilter.of(Array.from({ length: count }, scriptHex));
      const probes = 50_000;
      let maybe = 0;
      for (let i = 0; i < probes; i++) if (filter.mayHold(filterKey(scriptHex()))) maybe++;
      // 20 bits and 14 probes per item: about 1 in 15,000 in theory; a batch of 500 new addresses
      // probes every block 500 times, so a rate near 1 in 100 would read nearly every block again.
      expect(maybe / probes).toBeLessThan(5e-4);
    },
  );
});
