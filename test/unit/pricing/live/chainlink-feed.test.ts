import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import {
  chainlinkFeed,
  roundToObservation,
  type FeedReader,
  type RoundData,
} from "../../../../src/pricing/live/chainlink-feed.js";

const FEED = "0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419" as Address;
const round = (overrides: Partial<RoundData> = {}): RoundData => ({
  roundId: 110n,
  answer: 6_000_012_345_678n,
  startedAt: 1_700_000_000n,
  updatedAt: 1_700_000_000n,
  answeredInRound: 110n,
  ...overrides,
});

describe("roundToObservation", () => {
  it("reads the answer exactly with the feed's decimals, timed by updatedAt", () => {
    expect(roundToObservation(round(), 8, "feed")).toEqual({
      price: "60000.12345678",
      atMs: 1_700_000_000_000,
    });
  });

  it("refuses an answer that is zero or negative", () => {
    expect(() => roundToObservation(round({ answer: 0n }), 8, "feed")).toThrow(
      /answer 0 is not a positive price/,
    );
    expect(() => roundToObservation(round({ answer: -5n }), 8, "feed")).toThrow(
      /answer -5 is not a positive price/,
    );
  });

  it("refuses an answer carried over from an earlier round", () => {
    expect(() => roundToObservation(round({ answeredInRound: 109n }), 8, "feed")).toThrow(
      /round 110 carries the answer of round 109/,
    );
  });

  it("refuses a round that was never completed", () => {
    expect(() => roundToObservation(round({ updatedAt: 0n }), 8, "feed")).toThrow(
      /round 110 is not complete/,
    );
  });
});

describe("chainlinkFeed", () => {
  it("reads decimals once and each round afresh, naming the feed in errors", async () => {
    let decimalsReads = 0;
    let next = round();
    const reader: FeedReader = {
      decimals: async () => {
        decimalsReads += 1;
        return 8;
      },
      latestRoundData: async () => next,
    };
    const fetcher = chainlinkFeed(reader, "ethereum", FEED);
    expect(fetcher.key).toBe(`chainlink:ethereum:${FEED.toLowerCase()}`);
    await expect(fetcher.fetch()).resolves.toMatchObject({ price: "60000.12345678" });
    next = round({ answer: 5_900_000_000_000n, roundId: 111n, answeredInRound: 111n });
    await expect(fetcher.fetch()).resolves.toMatchObject({ price: "59000" });
    expect(decimalsReads).toBe(1);
    next = round({ answer: -1n });
    await expect(fetcher.fetch()).rejects.toThrow(
      `chainlink ethereum ${FEED}: answer -1 is not a positive price`,
    );
  });

  it("reports an RPC failure as a failed read of this feed", async () => {
    const reader: FeedReader = {
      decimals: async () => 8,
      latestRoundData: () => Promise.reject(new Error("connection refused")),
    };
    await expect(chainlinkFeed(reader, "ethereum", FEED).fetch()).rejects.toThrow(
      /chainlink ethereum 0x5f4e.*cannot read the feed \(connection refused\)/,
    );
  });
});
