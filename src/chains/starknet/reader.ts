/**
 * What a Starknet chain says about an HTLC. The HTLC stores one order per id (`get_order`), and the id
 * commits to both parties and all terms, so the single stored order is the only lock and only the
 * solver can have made one with the solver as initiator. A fulfilled order's secret is read from its
 * `Redeemed` event (keys [selector, order id]), found by `starknet_getEvents` from the block it was
 * initiated in, paged; where the search stands is kept (FollowPositions), so a search cut short resumes
 * where it stopped instead of starting again.
 */
import { createHash } from "node:crypto";
import {
  absentHtlc,
  type ChainReader,
  type HtlcLock,
  type HtlcParams,
  type HtlcState,
  type LockSpend,
} from "../chain.js";
import type { FollowPositions } from "../follow-positions.js";
import { resolveStarknetAsset } from "./assets.js";
import { StarknetActionError, StarknetRpcError } from "./errors.js";
import { addressHex, feltHex, parseFelt, wordsToBytes } from "./felt.js";
import { decodeOrder, EVENT_KEYS, SELECTORS, type StoredOrder } from "./htlc-calls.js";
import { computeStarknetSwapId, readStatedSwapId, swapIdText } from "./order-id.js";
import type { StarknetRpc } from "./rpc.js";
import type { StarknetChainConfig } from "./config.js";

/** Events one page asks for; the spec's most is 1000. */
const EVENTS_PAGE = 100;
/** Pages one read follows at most; the rest waits for the next read, from the kept position. */
const DEFAULT_PAGES_PER_READ = 10;
/** Revealed secrets kept, by order: far more than the orders a solver follows at once. */
const KEPT_SPENDS = 20_000;

export interface StarknetReaderOptions {
  /** Where a spend search stands, kept across restarts (the journal's). */
  positions: FollowPositions;
  /** The solver's account: its own locks count at once, others only at the configured finality. */
  solver: string;
  pagesPerRead?: number;
}

interface FoundSpend {
  spend: LockSpend;
  secret: string | null;
}

export class StarknetReader implements ChainReader {
  readonly family = "starknet" as const;
  /** The contract takes a secret of any whole number of u32 words (docs/protocol.md, Starknet). */
  readonly secretLength = { multipleOf: 4 };
  readonly userKeyIsDelegate = false;
  readonly chain: string;
  readonly #config: StarknetChainConfig;
  readonly #rpc: StarknetRpc;
  readonly #positions: FollowPositions;
  readonly #solver: string;
  readonly #pagesPerRead: number;
  readonly #spends = new Map<string, FoundSpend>();

  constructor(config: StarknetChainConfig, rpc: StarknetRpc, options: StarknetReaderOptions) {
    this.chain = config.name;
    this.#config = config;
    this.#rpc = rpc;
    this.#positions = options.positions;
    this.#solver = addressHex(parseFelt(options.solver, "solver account"));
    this.#pagesPerRead = options.pagesPerRead ?? DEFAULT_PAGES_PER_READ;
  }

  tipHeight(): Promise<bigint> {
    return this.#rpc.freshBlockNumber();
  }

  /** The order id the asset's HTLC gives these parameters, as the service prints it. */
  computeSwapId(params: HtlcParams): string {
    const { htlc } = resolveStarknetAsset(this.#config, params.asset);
    return computeStarknetSwapId({
      layout: this.#config.orderIdLayout,
      chainId: this.#config.chainId,
      initiator: params.initiator,
      redeemer: params.redeemer,
      timelock: params.timelock,
      amount: params.amount,
      secretHash: params.secretHash,
      htlc,
    });
  }

  /** The stated swap id as a felt; a stated id in any other form than the service's is refused. */
  orderIdOf(params: Pick<HtlcParams, "swapId">): bigint {
    const stated = readStatedSwapId(params.swapId);
    if ("problem" in stated) throw new StarknetActionError(`${this.chain}: ${stated.problem}`);
    return stated.orderId;
  }

  /** The order stored under an id on an HTLC, at the latest block; null when none is. */
  async storedOrder(htlc: string, orderId: bigint): Promise<StoredOrder | null> {
    const felts = await this.#rpc.call(htlc, SELECTORS.getOrder, [orderId]);
    try {
      return decodeOrder(felts);
    } catch (error) {
      throw new StarknetActionError(
        `${this.chain}: get_order(${feltHex(orderId)}) on ${htlc}: ${(error as Error).message}`,
      );
    }
  }

  async readHtlc(params: HtlcParams): Promise<HtlcState> {
    const orderId = this.orderIdOf(params);
    const { htlc } = resolveStarknetAsset(this.#config, params.asset);
    const order = await this.storedOrder(htlc, orderId);
    if (order === null) return absentHtlc();
    const height = await this.#countedHeight(order);
    const found = order.isFulfilled ? await this.#spendOf(htlc, orderId, order, params.secretHash) : null;
    const lock: HtlcLock = {
      id: swapIdText(orderId),
      // The id commits to the initiator: no one but the stored initiator can have made this lock.
      fundingTx: null,
      value: order.amount,
      height,
      // The contract refunds only once initiated_at + timelock < the block's number.
      refundableAtHeight: height === null ? null : order.initiatedAt + order.timelock + 1n,
      worthSpending: true,
      spend: found?.spend ?? null,
    };
    return {
      locks: [lock],
      onChain: {
        initiator: order.initiator,
        redeemer: order.redeemer,
        timelock: order.timelock,
        amount: order.amount,
      },
      secret: found?.secret ?? null,
      // The contract never takes the same order id again, whatever became of it.
      occupied: true,
    };
  }

  /**
   * Orders initiated, redeemed or refunded on any of the chain's HTLCs in blocks `from`..`to`; null when
   * more events fall in the range than one read follows.
   */
  async changedSwapIds(from: bigint, to: bigint): Promise<string[] | null> {
    const ids = new Set<string>();
    const htlcs = [...new Set(this.#config.assets.map((a) => a.htlcAddress))];
    const selectors = [EVENT_KEYS.initiated, EVENT_KEYS.redeemed, EVENT_KEYS.refunded].map(feltHex);
    for (const htlc of htlcs) {
      let token: string | undefined;
      for (let page = 0; ; page++) {
        if (page >= this.#pagesPerRead) return null;
        const answer = await this.#rpc.getEvents({
          fromBlock: Number(from),
          toBlock: { block_number: Number(to) },
          address: htlc,
          keys: [selectors],
          chunkSize: EVENTS_PAGE,
          ...(token === undefined ? {} : { continuationToken: token }),
        });
        for (const event of answer.events) {
          const id = event.keys[1];
          if (id !== undefined) ids.add(swapIdText(id));
        }
        token = answer.continuation_token;
        if (token === undefined) break;
      }
    }
    return [...ids];
  }

  /**
   * The block a lock counts from. The solver's own fill counts from its block; another's lock counts
   * only once its block has the configured status (`ACCEPTED_ON_L1`), else it is taken as not mined.
   */
  async #countedHeight(order: StoredOrder): Promise<bigint | null> {
    if (this.#config.finality !== "ACCEPTED_ON_L1" || order.initiator === this.#solver)
      return order.initiatedAt;
    const block = await this.#rpc.getBlock({ block_number: Number(order.initiatedAt) });
    return block.status === "ACCEPTED_ON_L1" ? order.initiatedAt : null;
  }

  /**
   * How a fulfilled order was spent, from its `Redeemed` or `Refunded` event. Not found yet (a node
   * whose event index trails its state, a search cut short): an unknown spend, searched again next time
   * from where this search stopped (the blocks searched through, or the page it stopped at).
   */
  async #spendOf(htlc: string, orderId: bigint, order: StoredOrder, secretHash: string): Promise<FoundSpend> {
    const key = `spend:${htlc}:${swapIdText(orderId)}`;
    const kept = this.#spends.get(key);
    if (kept !== undefined) return kept;
    const unknown: FoundSpend = { spend: { kind: "unknown", txid: null, height: null }, secret: null };
    const search = await this.#searchFrom(key, order);
    if (search.from > search.to) return unknown;
    let token = search.token;
    for (let page = 0; page < this.#pagesPerRead; page++) {
      let answer;
      try {
        answer = await this.#rpc.getEvents({
          fromBlock: search.from,
          toBlock: { block_number: search.to },
          address: htlc,
          keys: [[feltHex(EVENT_KEYS.redeemed), feltHex(EVENT_KEYS.refunded)], [feltHex(orderId)]],
          chunkSize: EVENTS_PAGE,
          ...(token === undefined ? {} : { continuationToken: token }),
        });
      } catch (error) {
        // A token another node issued, or one gone stale: the range is searched again from its start.
        if (error instanceof StarknetRpcError && error.code === 33) {
          this.#positions.set(key, JSON.stringify({ from: search.from, to: search.to }));
          return unknown;
        }
        throw error;
      }
      for (const event of answer.events) {
        if (event.from_address !== BigInt(htlc) || event.keys[1] !== orderId) continue;
        const found = this.#spendOfEvent(event, order, secretHash);
        if (found === null) continue;
        this.#keep(key, found);
        return found;
      }
      token = answer.continuation_token;
      if (token === undefined) {
        this.#positions.set(key, JSON.stringify({ searchedThrough: search.to }));
        return unknown;
      }
      this.#positions.set(key, JSON.stringify({ from: search.from, to: search.to, token }));
    }
    return unknown;
  }

  /** Where a spend search resumes: the page it stopped at, or the blocks after those searched through. */
  async #searchFrom(key: string, order: StoredOrder): Promise<{ from: number; to: number; token?: string }> {
    const kept = parsePosition(this.#positions.get(key));
    if (kept !== null && "from" in kept) return kept;
    const from = kept === null ? Number(order.initiatedAt) : kept.searchedThrough + 1;
    return { from, to: await this.#rpc.blockNumber() };
  }

  #spendOfEvent(
    event: { keys: bigint[]; data: bigint[]; block_number?: number | undefined; transaction_hash: bigint },
    order: StoredOrder,
    secretHash: string,
  ): FoundSpend | null {
    const height = event.block_number === undefined ? null : BigInt(event.block_number);
    const txid = feltHex(event.transaction_hash);
    if (event.keys[0] === EVENT_KEYS.refunded) {
      // Refunded is emitted by refund and instant_refund alike; only an instant refund comes before expiry.
      const early = height !== null && height <= order.initiatedAt + order.timelock;
      return { spend: { kind: early ? "instant_refund" : "refund", txid, height }, secret: null };
    }
    if (event.keys[0] !== EVENT_KEYS.redeemed) return null;
    return { spend: { kind: "redeem", txid, height }, secret: revealedSecret(event.data, secretHash) };
  }

  #keep(key: string, found: FoundSpend): void {
    // An event only seen in a pre-confirmed block may still move: only mined ones are kept.
    if (found.spend.height === null) return;
    if (this.#spends.size >= KEPT_SPENDS) {
      const oldest = this.#spends.keys().next();
      if (oldest.done !== true) this.#spends.delete(oldest.value);
    }
    this.#spends.set(key, found);
  }
}

type SearchPosition = { searchedThrough: number } | { from: number; to: number; token?: string };

/** A kept search position; null when none was kept or it is not one this reader wrote. */
function parsePosition(text: string | null): SearchPosition | null {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const record = value as Record<string, unknown>;
  if (Number.isSafeInteger(record.searchedThrough))
    return { searchedThrough: record.searchedThrough as number };
  if (!Number.isSafeInteger(record.from) || !Number.isSafeInteger(record.to)) return null;
  const range = { from: record.from as number, to: record.to as number };
  return typeof record.token === "string" ? { ...range, token: record.token } : range;
}

/**
 * The secret a `Redeemed` event's data reveals ([sh0..sh7, secret_len, ...words]), as hex, only when it
 * is a preimage of the order's secret hash; null otherwise.
 */
export function revealedSecret(data: readonly bigint[], secretHash: string): string | null {
  const length = data[8];
  if (length === undefined || length > 1024n || data.length !== 9 + Number(length)) return null;
  let secret: Buffer;
  try {
    secret = wordsToBytes(data.slice(9));
  } catch {
    return null;
  }
  const digest = createHash("sha256").update(secret).digest("hex");
  return digest === secretHash.toLowerCase().replace(/^0x/, "") ? secret.toString("hex") : null;
}
