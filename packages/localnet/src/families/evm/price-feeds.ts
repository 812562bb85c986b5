/**
 * The localnet's on-chain price feeds: one TestPriceFeed (AggregatorV3-shaped, 8 decimals) per asset on
 * each anvil chain, owned by a keeper account that sets their answers. Like a live feed's heartbeat, the
 * keeper re-posts every answer at an interval so a long-running localnet's feeds never go stale.
 */
import { createPublicClient, createWalletClient, http, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { evmChain } from "htlc-solver/chains/evm/client.js";
import { parseDecimal, pow10, type DecimalString } from "htlc-solver/pricing/decimal.js";
import type { LocalnetAccount } from "../../accounts.js";
import type { LocalFeed } from "../local-chain-family.js";
import { deployTestPriceFeed, type DeployerWallet } from "./deploy-evm.js";

export const FEED_DECIMALS = 8;

const feedAbi = [
  {
    type: "function",
    name: "setAnswer",
    stateMutability: "nonpayable",
    inputs: [{ name: "answer", type: "int256" }],
    outputs: [],
  },
  {
    type: "function",
    name: "setRound",
    stateMutability: "nonpayable",
    inputs: [
      { name: "answer", type: "int256" },
      { name: "startedAt", type: "uint256" },
      { name: "updatedAt", type: "uint256" },
      { name: "answeredInRound", type: "uint80" },
    ],
    outputs: [],
  },
] as const;

export type { LocalFeed };

export interface LocalFeedChain {
  name: string;
  chainId: number;
  rpcUrl: string;
}

export interface FeedRound {
  answer: bigint;
  startedAt: bigint;
  updatedAt: bigint;
  /** 0: answered in this round. */
  answeredInRound: bigint;
}

interface ChainClients {
  wallet: DeployerWallet;
  pub: PublicClient;
  /** One transaction at a time per chain: the keeper's nonces stay in order. */
  queue: Promise<unknown>;
}

export class PriceFeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PriceFeedError";
  }
}

/** A USD price as the feed's integer answer; more than 8 decimals cannot be represented exactly. */
export function feedAnswer(price: DecimalString): bigint {
  const ratio = parseDecimal(price, "feed price");
  const scaled = ratio.num * pow10(FEED_DECIMALS);
  if (scaled % ratio.den !== 0n) throw new PriceFeedError(`${price} has more than ${FEED_DECIMALS} decimals`);
  return scaled / ratio.den;
}

export class LocalPriceFeeds {
  private timer: NodeJS.Timeout | null = null;
  private heartbeat: Promise<void> = Promise.resolve();

  private constructor(
    private readonly clients: Map<string, ChainClients>,
    readonly feeds: LocalFeed[],
    /** The answer each symbol's feeds should show, per chain. */
    private readonly answers: Map<string, bigint>,
  ) {}

  /** Deploys one feed per symbol on each chain, answering `prices[symbol]` (USD per whole unit). */
  static async deploy(options: {
    chains: readonly LocalFeedChain[];
    keeper: LocalnetAccount;
    prices: Readonly<Record<string, DecimalString>>;
  }): Promise<LocalPriceFeeds> {
    const clients = new Map<string, ChainClients>();
    const answers = new Map<string, bigint>();
    const deployments: Promise<LocalFeed[]>[] = [];
    for (const chain of options.chains) {
      const definition = evmChain(chain.chainId, chain.name, [chain.rpcUrl]);
      const pub = createPublicClient({
        chain: definition,
        transport: http(chain.rpcUrl),
        pollingInterval: 100,
      }) as PublicClient;
      const wallet: DeployerWallet = createWalletClient({
        chain: definition,
        transport: http(chain.rpcUrl),
        account: privateKeyToAccount(options.keeper.privateKey),
      });
      clients.set(chain.name, { wallet, pub, queue: Promise.resolve() });
      const feeds = Object.entries(options.prices).map(([symbol, price]) => {
        const answer = feedAnswer(price);
        answers.set(`${chain.name}:${symbol}`, answer);
        return { symbol, answer, pair: `${symbol.toUpperCase()} / USD` };
      });
      // One after another on a chain: the node mines each on arrival, and a deploy sent beside another
      // from the same account can reach it behind a nonce that is never sent (a failed send), where it
      // would wait forever.
      deployments.push(
        (async () => {
          const deployed: LocalFeed[] = [];
          for (const { symbol, answer, pair } of feeds) {
            const address = await deployTestPriceFeed(wallet, pub, {
              decimals: FEED_DECIMALS,
              description: pair,
              answer,
            });
            deployed.push({ chain: chain.name, symbol, pair, address, decimals: FEED_DECIMALS });
          }
          return deployed;
        })(),
      );
    }
    return new LocalPriceFeeds(clients, (await Promise.all(deployments)).flat(), answers);
  }

  feed(chain: string, symbol: string): LocalFeed {
    const feed = this.feeds.find((f) => f.chain === chain && f.symbol === symbol);
    if (feed === undefined) throw new PriceFeedError(`no localnet feed for ${symbol} on ${chain}`);
    return feed;
  }

  /** Runs one feed transaction on its chain's queue and waits until it is mined. */
  private send(feed: LocalFeed, write: (clients: ChainClients) => Promise<`0x${string}`>): Promise<void> {
    const clients = this.clients.get(feed.chain);
    if (clients === undefined) throw new PriceFeedError(`no localnet chain ${feed.chain}`);
    const done = clients.queue.then(async () => {
      const hash = await write(clients);
      const receipt = await clients.pub.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success")
        throw new PriceFeedError(`updating ${feed.pair} on ${feed.chain} reverted`);
    });
    clients.queue = done.catch(() => undefined);
    return done;
  }

  /** Sets a symbol's USD price on every chain's feed (or one chain's), in a new round answered now. */
  async set(symbol: string, price: DecimalString, chain?: string): Promise<void> {
    const answer = feedAnswer(price);
    const targets = this.feeds.filter(
      (f) => f.symbol === symbol && (chain === undefined || f.chain === chain),
    );
    if (targets.length === 0) throw new PriceFeedError(`no localnet feed for ${symbol}`);
    await Promise.all(
      targets.map((feed) => {
        this.answers.set(`${feed.chain}:${symbol}`, answer);
        return this.send(feed, ({ wallet }) =>
          wallet.writeContract({
            address: feed.address,
            abi: feedAbi,
            functionName: "setAnswer",
            args: [answer],
            chain: wallet.chain,
            account: wallet.account,
          }),
        );
      }),
    );
  }

  /** Sets any round on one feed: an old `updatedAt`, an answer carried over from an earlier round, ... */
  setRound(chain: string, symbol: string, round: FeedRound): Promise<void> {
    const feed = this.feed(chain, symbol);
    return this.send(feed, ({ wallet }) =>
      wallet.writeContract({
        address: feed.address,
        abi: feedAbi,
        functionName: "setRound",
        args: [round.answer, round.startedAt, round.updatedAt, round.answeredInRound],
        chain: wallet.chain,
        account: wallet.account,
      }),
    );
  }

  /** Re-posts every feed's answer each `intervalMs`, as live feeds update at least once per heartbeat. */
  startHeartbeat(intervalMs: number): void {
    this.timer = setInterval(() => {
      this.heartbeat = this.heartbeat.then(() => this.repostAll()).catch(() => undefined);
    }, intervalMs);
    this.timer.unref();
  }

  private async repostAll(): Promise<void> {
    await Promise.all(
      this.feeds.map((feed) => {
        const answer = this.answers.get(`${feed.chain}:${feed.symbol}`) ?? 0n;
        return this.send(feed, ({ wallet }) =>
          wallet.writeContract({
            address: feed.address,
            abi: feedAbi,
            functionName: "setAnswer",
            args: [answer],
            chain: wallet.chain,
            account: wallet.account,
          }),
        );
      }),
    );
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.heartbeat;
  }
}
