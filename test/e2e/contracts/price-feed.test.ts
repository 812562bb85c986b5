/**
 * The localnet's TestPriceFeed read on a real anvil through the solver's own feed reader: every refusal
 * of chainlink-feed.ts against a feed that really answers that way.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadArtifact } from "../../../src/chains/evm/artifacts.js";
import { deployTestPriceFeed } from "@htlc-solver/localnet/families/evm/deploy-evm.js";
import { chainlinkFeed, viemFeedReader } from "../../../src/pricing/live/chainlink-feed.js";
import { expectRevert, send, startChainFixture, type ChainFixture } from "./fixture.js";

describe("TestPriceFeed read as an AggregatorV3Interface", () => {
  let fx: ChainFixture;
  let feed: `0x${string}`;
  const { abi } = loadArtifact("TestPriceFeed");
  beforeAll(async () => {
    fx = await startChainFixture(31_400);
    feed = await deployTestPriceFeed(fx.deployer.wallet, fx.pub, {
      decimals: 8,
      description: "BTC / USD",
      answer: 6_000_012_345_678n,
    });
  });
  afterAll(async () => {
    await fx?.stop();
  });

  const read = () => chainlinkFeed(viemFeedReader(fx.pub), "anvil", feed).fetch();
  const setRound = (answer: bigint, updatedAt: bigint, answeredInRound: bigint) =>
    send(fx, fx.deployer, {
      address: feed,
      abi,
      functionName: "setRound",
      args: [answer, updatedAt, updatedAt, answeredInRound],
    });

  it("answers its price exactly, timed by the block that set it", async () => {
    const block = await fx.pub.getBlock();
    await expect(read()).resolves.toEqual({ price: "60000.12345678", atMs: Number(block.timestamp) * 1000 });
  });

  it("is refused with a reason for a non-positive answer and for an answer carried over", async () => {
    await setRound(-1n, 1_700_000_000n, 0n);
    await expect(read()).rejects.toThrow(/answer -1 is not a positive price/);
    await setRound(5_000_000_000_000n, 1_700_000_000n, 1n);
    await expect(read()).rejects.toThrow(/round 3 carries the answer of round 1: not a fresh answer/);
    await setRound(5_000_000_000_000n, 1_700_000_000n, 0n);
    await expect(read()).resolves.toEqual({ price: "50000", atMs: 1_700_000_000_000 });
  });

  it("takes rounds only from its owner", async () => {
    await expectRevert(
      fx,
      fx.mallory,
      { address: feed, abi, functionName: "setAnswer", args: [1n] },
      "NotOwner",
    );
  });
});
