/**
 * An on-chain price feed shaped like Chainlink's AggregatorV3Interface, read through the solver's own
 * RPC of the feed's chain. A round is used only when its answer is positive, it was answered in its own
 * round and it has an update time; how old that time may be is the aggregate's rule (`maxAgeMs`).
 */
import { BaseError, type Address, type PublicClient } from "viem";
import { formatUnits } from "../decimal.js";
import { aggregatorV3Abi } from "./aggregator-abi.js";
import { PriceFetchError, type PriceFetcher, type PriceObservation } from "./observation.js";

export interface RoundData {
  roundId: bigint;
  answer: bigint;
  startedAt: bigint;
  updatedAt: bigint;
  answeredInRound: bigint;
}

/** The reads of a feed; viemFeedReader is the real one, tests give their own. */
export interface FeedReader {
  decimals(feed: Address): Promise<number>;
  latestRoundData(feed: Address): Promise<RoundData>;
}

export function viemFeedReader(client: Pick<PublicClient, "readContract">): FeedReader {
  return {
    decimals: (feed) =>
      client.readContract({ address: feed, abi: aggregatorV3Abi, functionName: "decimals" }),
    latestRoundData: async (feed) => {
      const [roundId, answer, startedAt, updatedAt, answeredInRound] = await client.readContract({
        address: feed,
        abi: aggregatorV3Abi,
        functionName: "latestRoundData",
      });
      return { roundId, answer, startedAt, updatedAt, answeredInRound };
    },
  };
}

/** The round as a price, or the reason it is refused. */
export function roundToObservation(round: RoundData, decimals: number, label: string): PriceObservation {
  if (round.answer <= 0n) throw new PriceFetchError(label, `answer ${round.answer} is not a positive price`);
  if (round.answeredInRound < round.roundId) {
    throw new PriceFetchError(
      label,
      `round ${round.roundId} carries the answer of round ${round.answeredInRound}: not a fresh answer`,
    );
  }
  if (round.updatedAt === 0n) throw new PriceFetchError(label, `round ${round.roundId} is not complete`);
  return { price: formatUnits(round.answer, decimals), atMs: Number(round.updatedAt) * 1000 };
}

export function chainlinkFeed(reader: FeedReader, chain: string, feed: Address): PriceFetcher {
  const label = `chainlink ${chain} ${feed}`;
  let decimals: number | null = null;
  const read = async (): Promise<PriceObservation> => {
    // A feed's decimals never change: read once, after the first success.
    decimals ??= await reader.decimals(feed);
    return roundToObservation(await reader.latestRoundData(feed), decimals, label);
  };
  return {
    key: `chainlink:${chain}:${feed.toLowerCase()}`,
    label,
    fetch: async () => {
      try {
        return await read();
      } catch (error) {
        if (error instanceof PriceFetchError) throw error;
        // viem's full message spans many lines of request details; its short one names the failure.
        const detail = error instanceof BaseError ? error.shortMessage : (error as Error).message;
        throw new PriceFetchError(label, `cannot read the feed (${detail})`, { cause: error });
      }
    },
  };
}
